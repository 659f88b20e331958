import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { noticeFields } from '@notice-desk/contract/notice';
import { PREVIEW_UNAVAILABLE } from '../../../components/ui/delete-preview-note.tsx';
import { sampleRecord } from '../../../testing/fake-records-api.ts';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { NoticeList } from './notice-list.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const notices = [1, 2, 3].map((n) => sampleRecord(noticeFields, n));

/** The notice list, Delete All and its preview, which answers `previews` in turn (or fails when out). */
function noticeServer(previews: { archive: number; erase: number }[]) {
  const answers = [...previews];
  return stubFetch(({ method, path }) => {
    if (method === 'GET' && path === '/api/notices/by-user-id')
      return jsonResponse(200, { items: notices, total: notices.length, pdfUrl: '' });
    if (method === 'GET' && path === '/api/notices/delete-all-notices/preview') {
      const next = answers.shift();
      return next
        ? jsonResponse(200, next)
        : jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Something went wrong.' });
    }
    if (method === 'POST' && path === '/api/notices/delete-all-notices')
      return jsonResponse(200, {
        message: 'All Credit cards deleted successfully.',
        deleted: 3,
        archived: 2,
        erased: 1,
      });
    return jsonResponse(404, {
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'Not found.',
      error: 'Not found.',
    });
  });
}

const renderList = () =>
  renderWithApp(<NoticeList />, { path: '/forms/notice', session: sessionOf(plainUser) });
const question = 'Are you sure you want to delete all notices?';

describe('Delete All on the notice list', () => {
  it('says how many records will be archived and how many erased, asked afresh each time', async () => {
    const server = noticeServer([
      { archive: 2, erase: 1 },
      { archive: 0, erase: 3 },
      { archive: 3, erase: 0 },
    ]);
    const user = userEvent.setup();
    renderList();
    await screen.findByRole('cell', { name: 'custName 1' });

    for (const expected of [
      'This will archive 2 records already served (kept as evidence) and erase 1 record never sent.',
      'This will erase 3 records never sent.',
      'This will archive 3 records already served (kept as evidence).',
    ]) {
      await user.click(screen.getByRole('button', { name: 'Delete All' }));
      const dialog = screen.getByRole('dialog', { name: question });
      expect(await within(dialog).findByText(expected)).toBeTruthy();
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    }
    const previews = server.requests.filter((r) => r.path === '/api/notices/delete-all-notices/preview');
    expect(previews).toHaveLength(3);
    expect(server.requests.some((r) => r.path === '/api/notices/delete-all-notices')).toBe(false);
  });

  it('still deletes, with the spec’s toast, when the counts cannot be had', async () => {
    const server = noticeServer([]);
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderList();
    await screen.findByRole('cell', { name: 'custName 1' });

    await user.click(screen.getByRole('button', { name: 'Delete All' }));
    const dialog = screen.getByRole('dialog', { name: question });
    expect(await within(dialog).findByText(PREVIEW_UNAVAILABLE)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete All' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('All Credit cards deleted successfully.'));
    expect(
      server.requests.some((r) => r.method === 'POST' && r.path === '/api/notices/delete-all-notices'),
    ).toBe(true);
  });
});
