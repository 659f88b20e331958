import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Campaign } from '@notice-desk/contract/campaigns';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { CampaignList } from './campaign-list.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const campaign = (n: number, name = `Import ${n}`): Campaign => ({
  _id: `campaign-${n}`,
  name,
  date: '2025-03-01T12:00:00.000Z',
  imported: 10,
  skipped: 0,
});

/** The campaign endpoints over an in-memory list of the user's notice campaigns. */
function campaignServer(
  initial: Campaign[],
  exportAnswer: (search: URLSearchParams) => Response | Promise<Response> = () =>
    new Response(new Blob(['PK']), {
      status: 200,
      headers: {
        'content-type': 'application/zip',
        'content-disposition': 'attachment; filename="March.zip"',
      },
    }),
) {
  const campaigns = [...initial];
  const server = stubFetch(({ method, path, search }) => {
    if (method === 'GET' && path === '/api/campaigns/notice') {
      const page = Number(search.get('page'));
      const limit = Number(search.get('limit'));
      const text = search.get('search')?.toLowerCase() ?? '';
      const found = campaigns.filter(({ name }) => name.toLowerCase().includes(text));
      return jsonResponse(200, { items: found.slice((page - 1) * limit, page * limit), total: found.length });
    }
    if (method === 'GET' && path === '/api/campaigns/export-campaign/notice') return exportAnswer(search);
    const index = campaigns.findIndex(({ _id }) => path === `/api/campaigns/${_id}`);
    if (method === 'DELETE' && index >= 0) {
      campaigns.splice(index, 1);
      return jsonResponse(200, { message: 'Campaign deleted successfully.' });
    }
    return jsonResponse(404, {
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'Not found.',
      error: 'Not found.',
    });
  });
  return { ...server, campaigns };
}

const renderList = () =>
  renderWithApp(<CampaignList type="notice" />, { path: '/campaign/notice', session: sessionOf(plainUser) });

describe('CampaignList', () => {
  it('lists campaigns with No., History Name (a link to the campaign), Imported At and Action', async () => {
    const server = campaignServer([campaign(1, 'March notices')]);
    renderList();

    const link = await screen.findByRole('link', { name: 'March notices' });
    expect(link.getAttribute('href')).toBe('/campaign/notice/campaign-1');
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'No.',
      'History Name',
      'Imported At',
      'Action',
    ]);
    const row = within(screen.getByRole('table')).getAllByRole('row')[1]!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 3)).toEqual(['1', 'March notices', 'Mar 1st 25']);
    expect(within(row).getByRole('button', { name: 'Delete March notices' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Export March notices' })).toBeTruthy();
    expect(server.requests[0]?.search.toString()).toBe('page=1&limit=10');
  });

  it('offers the page sizes 10, 25 and 2500, and a search on the history name', async () => {
    campaignServer([campaign(1, 'March notices'), campaign(2, 'April notices')]);
    renderList();
    await screen.findByRole('link', { name: 'March notices' });

    const sizes = within(screen.getByRole('combobox', { name: 'Entries per page' })).getAllByRole('option');
    expect(sizes.map((option) => option.textContent)).toEqual(['10', '25', '2500']);
    expect(screen.getByRole('searchbox').getAttribute('placeholder')).toBe('Search...');
  });

  it('searches the whole history on the server once typing settles, from page 1, counting the matches', async () => {
    const server = campaignServer([
      ...Array.from({ length: 12 }, (_, index) => campaign(index + 1)),
      campaign(13, 'April notices'),
    ]);
    const user = userEvent.setup();
    renderList();
    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await screen.findByRole('link', { name: 'April notices' });

    await user.type(screen.getByRole('searchbox'), 'apr');
    expect(await screen.findByText('Showing 1 to 1 of 1 entries')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Import 12' })).toBeNull();
    expect(screen.getByRole('link', { name: 'April notices' })).toBeTruthy();
    // One request for the settled text, not one per keystroke.
    const searches = server.requests.map(({ search }) => search.get('search')).filter(Boolean);
    expect(searches).toEqual(['apr']);
    expect(server.requests.at(-1)?.search.toString()).toBe('page=1&limit=10&search=apr');

    await user.type(screen.getByRole('searchbox'), 'x');
    expect(await screen.findByText('No records found for "aprx".')).toBeTruthy();
    expect(screen.getByText('Showing 0 to 0 of 0 entries')).toBeTruthy();
  });

  it('says how to start one when there are none', async () => {
    campaignServer([]);
    renderList();
    expect(
      await screen.findByText('No campaigns yet. Import an Excel file from Forms to start one.'),
    ).toBeTruthy();
  });

  it("deletes only after asking, then shows the server's message and the list without it", async () => {
    const server = campaignServer([campaign(1, 'March notices'), campaign(2, 'April notices')]);
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderList();

    await user.click(await screen.findByRole('button', { name: 'Delete March notices' }));
    const dialog = screen.getByRole('dialog', { name: /Are you sure you want to delete March notices\?/ });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.requests.some(({ method }) => method === 'DELETE')).toBe(false);
    expect(server.campaigns).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Delete March notices' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('Campaign deleted successfully.'));
    expect(server.requests.find(({ method }) => method === 'DELETE')?.path).toBe('/api/campaigns/campaign-1');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'March notices' })).toBeNull());
    expect(screen.getByRole('link', { name: 'April notices' })).toBeTruthy();
  });

  it("exports a campaign's zip with the bearer token, saying it is busy until the file is saved", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const server = campaignServer([campaign(1, 'March notices')], async () => {
      await held;
      return new Response(new Blob(['PK zip']), {
        status: 200,
        headers: { 'content-disposition': 'attachment; filename="March notices.zip"' },
      });
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:zip');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    renderList();

    await user.click(await screen.findByRole('button', { name: 'Export March notices' }));
    const busy = await screen.findByRole('button', { name: 'Exporting… March notices' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');

    release();
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('March notices.zip');
    const request = server.requests.find(({ path }) => path === '/api/campaigns/export-campaign/notice');
    expect(request?.search.get('campaignid')).toBe('campaign-1');
    expect(request?.request.headers.get('authorization')).toBe('Bearer token-1');
    await screen.findByRole('button', { name: 'Export March notices' });
  });

  it('only logs a failed export', async () => {
    campaignServer([campaign(1, 'March notices')], () =>
      jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Disk full.', error: 'Disk full.' }),
    );
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    renderList();

    await user.click(await screen.findByRole('button', { name: 'Export March notices' }));
    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(error).not.toHaveBeenCalled();
    expect(await screen.findByRole('button', { name: 'Export March notices' })).toBeTruthy();
  });
});
