import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ArchivedCampaign, ArchivedRecord } from '@notice-desk/contract/archive';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { adminUser, jsonResponse, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { ArchiveLists, archivedTime, NO_ARCHIVED_CAMPAIGNS, NO_ARCHIVED_RECORDS } from './archive-lists.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const record = (n: number, kind: 'notice' | 'credit-card'): ArchivedRecord => ({
  _id: `${kind}-${n}`,
  kind,
  custName: `Customer ${kind} ${n}`,
  reference: `REF-${n}`,
  campaignId: 'c1',
  campaignName: 'March import',
  owner: { _id: 'u2', username: 'ravi' },
  createdAt: '2026-11-01T10:00:00.000Z',
  archivedAt: '2026-11-24T09:30:00.000Z',
});

const campaign: ArchivedCampaign = {
  _id: 'c1',
  type: 'notice',
  name: 'March import',
  owner: { _id: 'u2', username: 'ravi' },
  date: '2026-11-01T10:00:00.000Z',
  archivedAt: '2026-11-24T09:30:00.000Z',
  records: 2,
};

/** The archive endpoints over fixed lists; evidence downloads answer a zip. */
function archiveServer(lists: {
  notices: ArchivedRecord[];
  cards: ArchivedRecord[];
  campaigns: ArchivedCampaign[];
}) {
  return stubFetch(({ path }) => {
    if (path === '/api/archive/notices')
      return jsonResponse(200, { items: lists.notices, total: lists.notices.length });
    if (path === '/api/archive/credit-cards')
      return jsonResponse(200, { items: lists.cards, total: lists.cards.length });
    if (path === '/api/archive/campaigns')
      return jsonResponse(200, { items: lists.campaigns, total: lists.campaigns.length });
    if (path.endsWith('/evidence'))
      return new Response(new Blob(['PK']), {
        status: 200,
        headers: { 'content-disposition': 'attachment; filename="evidence.zip"' },
      });
    return jsonResponse(404, {
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'Not found.',
      error: 'Not found.',
    });
  });
}

const renderArchive = () =>
  renderWithApp(<ArchiveLists />, { path: '/archive', session: sessionOf(adminUser) });

describe('ArchiveLists', () => {
  it('lists archived notices, credit cards and campaigns with owner, campaign and time archived', async () => {
    archiveServer({
      notices: [record(1, 'notice'), record(2, 'notice')],
      cards: [record(1, 'credit-card')],
      campaigns: [campaign],
    });
    renderArchive();

    const notices = await screen.findByRole('table', { name: 'Archived notices' });
    await within(notices).findByRole('cell', { name: 'Customer notice 1' });
    expect(
      within(notices)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['No.', 'Name', 'Loan No.', 'Owner', 'Campaign', 'Archived', 'Action']);
    const row = within(notices).getAllByRole('row')[1]!;
    expect(
      within(row)
        .getAllByRole('cell')
        .slice(0, 6)
        .map((cell) => cell.textContent),
    ).toEqual([
      '1',
      'Customer notice 1',
      'REF-1',
      'ravi',
      'March import',
      archivedTime(record(1, 'notice').archivedAt),
    ]);

    const cards = screen.getByRole('table', { name: 'Archived credit cards' });
    await within(cards).findByRole('cell', { name: 'Customer credit-card 1' });
    expect(within(cards).getByRole('columnheader', { name: 'Maskcard' })).toBeTruthy();

    const campaigns = screen.getByRole('table', { name: 'Archived campaigns' });
    const campaignRow = (await within(campaigns).findByRole('cell', { name: 'March import' })).closest('tr')!;
    expect(within(campaignRow).getByRole('cell', { name: 'Notice' })).toBeTruthy();
    expect(within(campaignRow).getByRole('cell', { name: '2' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Archived campaigns' })).toBeTruthy();
  });

  it('downloads each row’s evidence bundle from the archive, by keyboard too', async () => {
    const server = archiveServer({ notices: [record(1, 'notice')], cards: [], campaigns: [campaign] });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:evidence');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    renderArchive();

    const noticeButton = await screen.findByRole('button', {
      name: 'Download evidence for Customer notice 1',
    });
    noticeButton.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(server.requests.some((r) => r.path === '/api/archive/notices/notice-1/evidence')).toBe(true);

    const campaignButton = await screen.findByRole('button', { name: 'Download evidence for March import' });
    campaignButton.focus();
    await user.keyboard(' ');
    await waitFor(() => expect(click).toHaveBeenCalledTimes(2));
    expect(server.requests.some((r) => r.path === '/api/archive/campaigns/c1/evidence')).toBe(true);
  });

  it('says so when nothing is archived', async () => {
    archiveServer({ notices: [], cards: [], campaigns: [] });
    renderArchive();
    expect(await screen.findAllByText(NO_ARCHIVED_RECORDS)).toHaveLength(2);
    expect(await screen.findByText(NO_ARCHIVED_CAMPAIGNS)).toBeTruthy();
  });
});
