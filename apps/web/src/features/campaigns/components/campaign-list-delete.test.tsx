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

const campaign = (n: number): Campaign => ({
  _id: `campaign-${n}`,
  name: `Import ${n}`,
  date: '2025-03-01T12:00:00.000Z',
  imported: 10,
  skipped: 0,
});

const previews: Record<string, { archive: number; erase: number }> = {
  'campaign-1': { archive: 4, erase: 6 },
  'campaign-2': { archive: 0, erase: 1 },
};

function campaignServer() {
  const campaigns = [campaign(1), campaign(2)];
  return stubFetch(({ method, path }) => {
    if (method === 'GET' && path === '/api/campaigns/notice')
      return jsonResponse(200, { items: campaigns, total: campaigns.length });
    const preview = /^\/api\/campaigns\/([\w-]+)\/delete-preview$/.exec(path);
    if (method === 'GET' && preview) return jsonResponse(200, previews[preview[1]!]);
    const index = campaigns.findIndex(({ _id }) => path === `/api/campaigns/${_id}`);
    if (method === 'DELETE' && index >= 0) {
      const [gone] = campaigns.splice(index, 1);
      const counts = previews[gone!._id]!;
      return jsonResponse(200, {
        message: 'Campaign deleted successfully.',
        archived: counts.archive,
        erased: counts.erase,
      });
    }
    return jsonResponse(404, {
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'Not found.',
      error: 'Not found.',
    });
  });
}

describe("a campaign's Delete", () => {
  it('says, for the campaign chosen, how many records will be archived and erased, then deletes', async () => {
    const server = campaignServer();
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderWithApp(<CampaignList type="notice" />, {
      path: '/campaign/notice',
      session: sessionOf(plainUser),
    });

    await user.click(await screen.findByRole('button', { name: 'Delete Import 2' }));
    let dialog = screen.getByRole('dialog', { name: /Are you sure you want to delete Import 2\?/ });
    expect(await within(dialog).findByText('This will erase 1 record never sent.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('button', { name: 'Delete Import 1' }));
    dialog = screen.getByRole('dialog', { name: /Are you sure you want to delete Import 1\?/ });
    expect(
      await within(dialog).findByText(
        'This will archive 4 records already served (kept as evidence) and erase 6 records never sent.',
      ),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('Campaign deleted successfully.'));
    expect(server.requests.some((r) => r.method === 'DELETE' && r.path === '/api/campaigns/campaign-1')).toBe(
      true,
    );
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Import 1' })).toBeNull());
  });
});
