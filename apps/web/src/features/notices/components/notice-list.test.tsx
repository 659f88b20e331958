import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { noticeFields } from '@notice-desk/contract/notice';
import { fakeRecordsApi, noticeRoutes, sampleRecord } from '../../../testing/fake-records-api.ts';
import { plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { NoticeList } from './notice-list.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const notice = (n: number, overrides: Record<string, string> = {}) =>
  sampleRecord(noticeFields, n, overrides);
const renderList = () =>
  renderWithApp(<NoticeList />, { path: '/forms/notice', session: sessionOf(plainUser) });

describe('NoticeList', () => {
  it("shows the spec's columns with the created date as 'MMM Do YY'", async () => {
    fakeRecordsApi(noticeRoutes, [
      notice(1, {
        custName: 'Ravi Kumar',
        custMobileNo: '9800000001',
        loanNo: 'LN-1',
        createdAt: '2025-03-01T12:00:00.000Z',
      }),
    ]);
    renderList();

    expect(await screen.findByRole('cell', { name: 'Ravi Kumar' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'No.',
      'Name',
      'Mobile No.',
      'Loan No.',
      'Campaign',
      'Date',
      'Action',
    ]);
    const row = within(screen.getByRole('table')).getAllByRole('row')[1]!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 6)).toEqual(['1', 'Ravi Kumar', '9800000001', 'LN-1', 'March sheet', 'Mar 1st 25']);
    expect(screen.getAllByRole('link', { name: 'March sheet' })[0]!.getAttribute('href')).toBe(
      '/campaign/notice/campaign-1',
    );
    expect(screen.getByRole('link', { name: 'Edit Ravi Kumar' }).getAttribute('href')).toBe(
      `/forms/notice/edit-notice/${notice(1)._id}`,
    );
    expect(screen.queryByRole('link', { name: /^PDF/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Add Notice' }).getAttribute('href')).toBe(
      '/forms/notice/add-notice',
    );
    expect(screen.getByRole('button', { name: 'Import Excel' })).toHaveProperty('disabled', true);
  });

  it('asks before deleting a row, naming the customer and the loan; Escape and Cancel keep it', async () => {
    const api = fakeRecordsApi(noticeRoutes, [notice(1, { custName: 'Ravi Kumar', loanNo: 'LN100012' })]);
    const user = userEvent.setup();
    renderList();
    const question =
      'Delete the notice for Ravi Kumar (LN100012)? If it was served, it is archived with its evidence; if not, it cannot be brought back.';

    const remove = await screen.findByRole('button', { name: 'Delete Ravi Kumar' });
    await user.click(remove);
    const dialog = screen.getByRole('dialog', { name: question });
    // Focus starts inside, on the safe answer.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: question })).toBeNull();
    expect(document.activeElement).toBe(remove);

    await user.click(remove);
    await user.click(
      within(screen.getByRole('dialog', { name: question })).getByRole('button', { name: 'Cancel' }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(remove);
    expect(api.requests.some((request) => request.method === 'DELETE')).toBe(false);
    expect(screen.getByRole('cell', { name: 'Ravi Kumar' })).toBeTruthy();
  });

  it("deletes a row, once confirmed, with the toast 'Notice deleted successfully.'", async () => {
    fakeRecordsApi(noticeRoutes, [notice(1, { custName: 'Ravi Kumar', loanNo: 'LN100012' })]);
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderList();

    await user.click(await screen.findByRole('button', { name: 'Delete Ravi Kumar' }));
    const dialog = screen.getByRole('dialog', {
      name: 'Delete the notice for Ravi Kumar (LN100012)? If it was served, it is archived with its evidence; if not, it cannot be brought back.',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('Notice deleted successfully.'));
    expect(await screen.findByText('No records found.')).toBeTruthy();
  });

  it("asks 'Are you sure you want to delete all notices?' and then shows the spec's toast", async () => {
    const api = fakeRecordsApi(noticeRoutes, [notice(1), notice(2)]);
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderList();
    await screen.findByRole('cell', { name: 'custName 1' });

    await user.click(screen.getByRole('button', { name: 'Delete All' }));
    const dialog = screen.getByRole('dialog', { name: 'Are you sure you want to delete all notices?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete All' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('All Credit cards deleted successfully.'));
    expect(api.requests.some((request) => request.path === '/api/notices/delete-all-notices')).toBe(true);
    expect(await screen.findByText('No records found.')).toBeTruthy();
  });
});
