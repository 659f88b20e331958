import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DashboardInfo, MailInfo } from '@notice-desk/contract/dashboard';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { Dashboard } from './dashboard.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const mail = (n: number, overrides: Partial<MailInfo> = {}): MailInfo => ({
  _id: `delivery-${n}`,
  name: `Customer ${n}`,
  date: '2025-03-02T09:30:00.000Z',
  status: 'sent',
  channel: 'email',
  error: null,
  ...overrides,
});

const info = (mailInfo: MailInfo[]): DashboardInfo => ({
  totalCreditCards: 12,
  totalNotices: 1250,
  totalCreditCardCampaigns: 2,
  totalNoticeCampaigns: 5,
  mailInfo,
});

const renderDashboard = () => renderWithApp(<Dashboard />, { session: sessionOf(plainUser) });

describe('Dashboard', () => {
  it('shows the four totals as tiles leading to their lists', async () => {
    const server = stubFetch(() => jsonResponse(200, info([])));
    renderDashboard();

    const notices = await screen.findByRole('link', { name: /Notices$/ });
    expect(notices.textContent).toBe(`${(1250).toLocaleString()}Notices`);
    expect(notices.getAttribute('href')).toBe('/forms/notice');
    expect(screen.getByRole('link', { name: '12 Credit Cards' }).getAttribute('href')).toBe(
      '/forms/credit-card',
    );
    expect(screen.getByRole('link', { name: '2 Credit Card Campaigns' }).getAttribute('href')).toBe(
      '/campaign/credit-card',
    );
    expect(screen.getByRole('link', { name: '5 Notice Campaigns' }).getAttribute('href')).toBe(
      '/campaign/notice',
    );
    expect(server.requests[0]?.path).toBe('/api/dashboard');
    expect(server.requests[0]?.request.headers.get('authorization')).toBe('Bearer token-1');
  });

  it("says 'No Mail Details Found!!' when nothing was sent yet", async () => {
    stubFetch(() => jsonResponse(200, info([])));
    renderDashboard();

    const section = await screen.findByRole('region', { name: 'Mails Details' });
    expect(within(section).getByText('No Mail Details Found!!')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("lists the mails: row number, name, channel, date as 'MMM Do YY' and the status, a failure with its reason", async () => {
    stubFetch(() =>
      jsonResponse(
        200,
        info([
          mail(1, { status: 'delivered', channel: 'whatsapp' }),
          mail(2, { status: 'failed', error: '550 Mailbox unavailable', date: '2025-03-23T09:30:00.000Z' }),
          mail(3, { status: 'outbox' }),
        ]),
      ),
    );
    renderDashboard();

    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['No.', 'Name', 'Channel', 'Date', 'Status']);
    const rows = within(table).getAllByRole('row').slice(1);
    const cells = (index: number) =>
      within(rows[index]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells(0)).toEqual(['1', 'Customer 1', 'WhatsApp', 'Mar 2nd 25', 'delivered']);
    expect(cells(2)).toEqual(['3', 'Customer 3', 'Email', 'Mar 2nd 25', 'outbox']);
    expect(cells(1).slice(0, 4)).toEqual(['2', 'Customer 2', 'Email', 'Mar 23rd 25']);
    expect(
      within(rows[1]!).getByRole('button', { name: 'failed', description: '550 Mailbox unavailable' }),
    ).toBeTruthy();
  });

  it('offers Retry when the dashboard could not be loaded', async () => {
    let calls = 0;
    stubFetch(() => {
      calls += 1;
      return calls === 1
        ? jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Down.', error: 'Down.' })
        : jsonResponse(200, info([mail(1)]));
    });
    const user = userEvent.setup();
    renderDashboard();

    expect(await screen.findByText('The dashboard could not be loaded.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByRole('cell', { name: 'Customer 1' })).toBeTruthy());
  });
});
