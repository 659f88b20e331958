import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CampaignRow, CampaignType, SingleCampaign } from '@notice-desk/contract/campaigns';
import { funnelOf } from '../../../testing/funnel.ts';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { CampaignDetail } from './campaign-detail.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const row = (n: number, overrides: Partial<CampaignRow> = {}): CampaignRow => ({
  _id: `record-${n}`,
  custName: `Customer ${n}`,
  reference: `LN-${n}`,
  date: '2025-03-01T12:00:00.000Z',
  emailResponse: '',
  whatsappResponse: '',
  ...overrides,
});

/** The single-campaign endpoint for one campaign of `count` records; any other id is not the user's. */
function campaignServer(
  count: number,
  type: CampaignType = 'notice',
  rowOverrides: Partial<CampaignRow> = {},
) {
  const rows = Array.from({ length: count }, (_, index) => row(index + 1, rowOverrides));
  return stubFetch(({ path, search }) => {
    if (path !== '/api/campaigns/single-campaign/campaign-1') {
      return jsonResponse(404, {
        statusCode: 404,
        code: 'NOT_FOUND',
        message: 'Campaign not found.',
        error: 'Campaign not found.',
      });
    }
    const page = Number(search.get('page'));
    const limit = Number(search.get('limit'));
    const items = rows.slice((page - 1) * limit, page * limit);
    const campaign: SingleCampaign = {
      _id: 'campaign-1',
      name: 'March notices',
      type,
      date: '2025-03-01T12:00:00.000Z',
      total: rows.length,
      imported: rows.length,
      skipped: 0,
      completedCounts: 0,
      ...(type === 'notice' ? { notices: items } : { creditCards: items }),
    };
    return jsonResponse(200, campaign);
  });
}

const renderDetail = (type: CampaignType = 'notice', campaignId = 'campaign-1') =>
  renderWithApp(<CampaignDetail type={type} campaignId={campaignId} />, {
    path: `/campaign/${type}/${campaignId}`,
    session: sessionOf(plainUser),
  });

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const rowBoxes = () => screen.getAllByRole('checkbox', { name: /^Select row \d+$/ }) as HTMLInputElement[];
const selectAll = () =>
  screen.getByRole('checkbox', { name: 'Select all rows on this page' }) as HTMLInputElement;

describe('CampaignDetail', () => {
  it('shows how far the campaign’s notices got, per channel, from the campaign’s funnel', async () => {
    const server = stubFetch(({ path }) =>
      path === '/api/campaigns/campaign-1/funnel'
        ? jsonResponse(
            200,
            funnelOf({ sent: 3, delivered: 2 }, { sent: 1, read: 1, delivered: 1 }, { sent: 3 }),
          )
        : jsonResponse(200, {
            _id: 'campaign-1',
            name: 'March notices',
            type: 'notice',
            date: '2025-03-01T12:00:00.000Z',
            total: 1,
            imported: 1,
            skipped: 0,
            completedCounts: 0,
            notices: [row(1)],
          } satisfies SingleCampaign),
    );
    renderDetail();

    const funnel = await screen.findByRole('region', { name: 'How far notices got' });
    const email = within(funnel).getByRole('table', { name: 'E-mail' });
    expect(within(email).getByRole('row', { name: 'Delivered 2 67%' })).toBeTruthy();
    const whatsapp = within(funnel).getByRole('table', { name: 'WhatsApp' });
    expect(within(whatsapp).getByRole('row', { name: 'Read 1 100%' })).toBeTruthy();
    expect(server.requests.some(({ path }) => path === '/api/campaigns/campaign-1/funnel')).toBe(true);
  });

  it("shows the campaign's name and its records: No., Name, Date, and '-' for statuses not yet sent", async () => {
    const server = campaignServer(3);
    renderDetail();

    expect(await screen.findByRole('heading', { level: 1, name: 'March notices' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      '',
      'No.',
      'Name',
      'Date',
      'Email Status',
      'WhatsApp Status',
      'Served on',
      'Respond by',
    ]);
    const cells = within(bodyRows()[0]!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(1)).toEqual(['1', 'Customer 1', 'Mar 1st 25', '-', '-', '-', '-']);
    const campaignRequests = server.requests.filter((r) =>
      r.path.startsWith('/api/campaigns/single-campaign/'),
    );
    expect(campaignRequests[0]?.search.toString()).toBe('page=1&limit=50');
    expect(screen.getByText('Showing 1 to 3 of 3 entries')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send Notice' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export Reports' })).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('shows a status once there is one', async () => {
    campaignServer(1, 'notice', { emailResponse: 'delivered', whatsappResponse: 'read' });
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 1' });
    const cells = within(bodyRows()[0]!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(4, 6)).toEqual(['Delivered', 'Read']);
  });

  it('shows when a record was served, by what, and the day to respond by', async () => {
    campaignServer(1, 'notice', {
      emailResponse: 'delivered',
      service: {
        servedOn: '2025-03-02T05:00:00.000Z',
        servedBy: 'email: delivered',
        respondBy: '2025-03-17',
        shown: { servedOn: '02-03-2025', respondBy: '17-03-2025' },
      },
    });
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 1' });
    const cells = within(bodyRows()[0]!).getAllByRole('cell');
    expect(cells.slice(6).map((cell) => cell.textContent)).toEqual([
      '02-03-2025email: delivered',
      '17-03-2025',
    ]);
    expect(within(cells[6]!).getByTitle('email: delivered')).toBeTruthy();
    // The status filter offers the service statuses too.
    expect(screen.getByRole('option', { name: 'Respond-by date within 7 days' })).toBeTruthy();
  });

  it("shows a failed status as a badge described by the failure's reason", async () => {
    campaignServer(1, 'notice', {
      emailResponse: 'failed',
      emailError: '550 Mailbox unavailable',
      whatsappResponse: 'sent',
      whatsappError: null,
    });
    const user = userEvent.setup();
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 1' });

    const failed = within(bodyRows()[0]!).getByRole('button', {
      name: 'Failed',
      description: '550 Mailbox unavailable',
    });
    await user.hover(failed);
    expect(screen.getByRole('tooltip').textContent).toBe('550 Mailbox unavailable');
    expect(within(bodyRows()[0]!).getAllByRole('cell')[5]?.textContent).toBe('Sent');
  });

  it('offers the page sizes 50, 100, 500, 1000 and 10000', async () => {
    campaignServer(1);
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 1' });
    const sizes = within(screen.getByRole('combobox', { name: 'Entries per page' })).getAllByRole('option');
    expect(sizes.map((option) => option.textContent)).toEqual(['50', '100', '500', '1000', '10000']);
  });

  it('selects all rows of the page, and one row at a time', async () => {
    campaignServer(3);
    const user = userEvent.setup();
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 3' });

    await user.click(selectAll());
    expect(rowBoxes().every((box) => box.checked)).toBe(true);
    await user.click(rowBoxes()[1]!);
    expect(rowBoxes().map((box) => box.checked)).toEqual([true, false, true]);
    expect(selectAll().checked).toBe(false);
    expect(selectAll().indeterminate).toBe(true);
    await user.click(selectAll());
    expect(rowBoxes().every((box) => box.checked)).toBe(true);
    await user.click(selectAll());
    expect(rowBoxes().some((box) => box.checked)).toBe(false);
  });

  it('clears the selection when the page changes', async () => {
    const server = campaignServer(60);
    const user = userEvent.setup();
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 50' });

    await user.click(selectAll());
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await screen.findByRole('cell', { name: 'Customer 60' });
    expect(rowBoxes().some((box) => box.checked)).toBe(false);
    expect(server.requests.at(-1)?.search.toString()).toBe('page=2&limit=50');

    await user.click(screen.getByRole('button', { name: 'Page 1' }));
    await screen.findByRole('cell', { name: 'Customer 1' });
    expect(rowBoxes().some((box) => box.checked)).toBe(false);
  });

  it('clears the selection when the page size changes', async () => {
    const server = campaignServer(60);
    const user = userEvent.setup();
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 50' });

    await user.click(rowBoxes()[0]!);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Entries per page' }), '100');
    await screen.findByRole('cell', { name: 'Customer 60' });
    expect(server.requests.at(-1)?.search.toString()).toBe('page=1&limit=100');
    expect(rowBoxes()).toHaveLength(60);
    expect(rowBoxes().some((box) => box.checked)).toBe(false);
  });

  it("says 'Campaign not found.' with a way back when the campaign is not the user's", async () => {
    campaignServer(1);
    renderDetail('notice', 'someone-elses');

    expect(await screen.findByText('Campaign not found.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the campaign history' }).getAttribute('href')).toBe(
      '/campaign/notice',
    );
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('treats a campaign of the other kind as not found', async () => {
    campaignServer(1, 'notice');
    renderDetail('credit-card');

    expect(await screen.findByText('Campaign not found.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the campaign history' }).getAttribute('href')).toBe(
      '/campaign/credit-card',
    );
  });

  it('offers Retry when the campaign could not be loaded', async () => {
    let calls = 0;
    stubFetch(({ path }) => {
      // The failed rows (a panel of their own) are not this test's.
      if (!path.startsWith('/api/campaigns/single-campaign/'))
        return jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No.', error: 'No.' });
      calls += 1;
      return calls === 1
        ? jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Down.', error: 'Down.' })
        : jsonResponse(200, {
            _id: 'campaign-1',
            name: 'March notices',
            type: 'notice',
            date: '2025-03-01T12:00:00.000Z',
            total: 1,
            imported: 1,
            skipped: 0,
            completedCounts: 0,
            notices: [row(1)],
          } satisfies SingleCampaign);
    });
    const user = userEvent.setup();
    renderDetail();

    expect(await screen.findByText('The campaign could not be loaded.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByRole('cell', { name: 'Customer 1' })).toBeTruthy());
  });
});
