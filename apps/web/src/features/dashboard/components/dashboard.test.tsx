import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DashboardInfo, MailInfo } from '@notice-desk/contract/dashboard';
import { funnelOf } from '../../../testing/funnel.ts';
import { stubFetch, type SeenRequest } from '../../../testing/stub-fetch.ts';
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

/** Answers the dashboard's totals, its funnel and its Mails Details (filtered by status and paged as the server does). */
const serve =
  (dashboard: DashboardInfo, funnel = funnelOf()) =>
  ({ path, search }: SeenRequest) => {
    if (path === '/api/dashboard/funnel') return jsonResponse(200, funnel);
    if (path !== '/api/dashboard/mails') return jsonResponse(200, dashboard);
    const status = search.get('status');
    const page = Number(search.get('page') ?? 1);
    const limit = Number(search.get('limit') ?? 20);
    const all = dashboard.mailInfo.filter((m) => !status || m.status === status);
    return jsonResponse(200, { items: all.slice((page - 1) * limit, page * limit), total: all.length });
  };

const renderDashboard = () => renderWithApp(<Dashboard />, { session: sessionOf(plainUser) });

describe('Dashboard', () => {
  it('shows the four totals as tiles leading to their lists', async () => {
    const server = stubFetch(serve(info([])));
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
    stubFetch(serve(info([])));
    renderDashboard();

    const section = await screen.findByRole('region', { name: 'Mails Details' });
    // The mails come from their own paged request, after the totals.
    expect(await within(section).findByText('No Mail Details Found!!')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("lists the mails: row number, name, channel, date as 'MMM Do YY' and the status, a failure with its reason", async () => {
    stubFetch(
      serve(
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
    expect(cells(0)).toEqual(['1', 'Customer 1', 'WhatsApp', 'Mar 2nd 25', 'Delivered']);
    expect(cells(2)).toEqual([
      '3',
      'Customer 3',
      'Email',
      'Mar 2nd 25',
      'Outbox (not sent: no provider set up)',
    ]);
    expect(cells(1).slice(0, 4)).toEqual(['2', 'Customer 2', 'Email', 'Mar 23rd 25']);
    expect(
      within(rows[1]!).getByRole('button', { name: 'Failed', description: '550 Mailbox unavailable' }),
    ).toBeTruthy();
  });

  it('shows how far the notices got, per channel, and says so when nothing was sent yet', async () => {
    stubFetch(
      serve(
        info([mail(1)]),
        funnelOf({ sent: 200, delivered: 150, opened: 40 }, {}, { sent: 200, delivered: 150, opened: 41 }),
      ),
    );
    renderDashboard();

    const funnel = await screen.findByRole('region', { name: 'How far notices got' });
    const email = within(funnel).getByRole('table', { name: 'E-mail' });
    expect(within(email).getByRole('row', { name: 'Delivered 150 75%' })).toBeTruthy();
    expect(within(email).getByRole('row', { name: 'Opened 40 20%' })).toBeTruthy();
    expect(within(funnel).getByText('Nothing sent by WhatsApp yet.')).toBeTruthy();
  });

  it('says nothing was sent yet when the funnel is empty', async () => {
    stubFetch(serve(info([])));
    renderDashboard();

    const funnel = await screen.findByRole('region', { name: 'How far notices got' });
    expect(within(funnel).getByText('Nothing sent yet. The funnel fills in as notices go out.')).toBeTruthy();
    expect(within(funnel).queryByRole('table')).toBeNull();
  });

  it('offers Retry when the dashboard could not be loaded', async () => {
    let calls = 0;
    stubFetch((request) => {
      calls += 1;
      return calls === 1
        ? jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Down.', error: 'Down.' })
        : serve(info([mail(1)]))(request);
    });
    const user = userEvent.setup();
    renderDashboard();

    expect(await screen.findByText('The dashboard could not be loaded.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByRole('cell', { name: 'Customer 1' })).toBeTruthy());
  });

  it('pages Mails Details past the latest 100 and filters them by status', async () => {
    const mails = Array.from({ length: 130 }, (_, i) =>
      mail(i + 1, i % 10 === 0 ? { status: 'bounced', error: 'The mail server returned it (5.1.1)' } : {}),
    );
    const server = stubFetch(serve(info(mails)));
    const user = userEvent.setup();
    renderDashboard();

    await screen.findByRole('cell', { name: 'Customer 20' });
    expect(screen.queryByRole('cell', { name: 'Customer 21' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Page 7' }));
    await screen.findByRole('cell', { name: 'Customer 130' });

    await user.selectOptions(screen.getByLabelText('Status'), 'bounced');
    await screen.findByRole('cell', { name: 'Customer 1' });
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(13);
    const last = server.requests.at(-1)!;
    expect([last.path, last.search.get('status'), last.search.get('page')]).toEqual([
      '/api/dashboard/mails',
      'bounced',
      '1',
    ]);
  });
});
