import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { resetImportTracker } from '../stores/import-tracker.ts';
import { ImportExcel } from './import-excel.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  resetImportTracker();
});

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const excel = (name: string, bytes = 52_429) => new File([new Uint8Array(bytes)], name, { type: XLSX_TYPE });

/** The server's happy path: the upload is stored, the import starts as job-7. */
function acceptingServer() {
  return stubFetch(({ path }) => {
    if (path === '/temporary-upload') return jsonResponse(200, { data: 'stored-name-1.xlsx' });
    if (path === '/api/notices/upload-notice-info') {
      return jsonResponse(202, { message: 'The import of March notices is in process.', jobId: 'job-7' });
    }
    return jsonResponse(404, {
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'Not found.',
      error: 'Not found.',
    });
  });
}

async function openModal() {
  // Playwright and people can pick any file; the accept list is a hint to the picker only.
  const user = userEvent.setup({ applyAccept: false });
  renderWithApp(<ImportExcel kind="notice" />, { path: '/forms/notice', session: sessionOf(plainUser) });
  await user.click(screen.getByRole('button', { name: 'Import Excel' }));
  const dialog = screen.getByRole('dialog', { name: 'Import Excel' });
  return { user, dialog, fileInput: within(dialog).getByLabelText('Excel file (.xlsx)') as HTMLInputElement };
}

describe('Import Excel modal', () => {
  it("says 'Please select a file.' when Submit is pressed with no file, and sends nothing", async () => {
    const server = acceptingServer();
    const { user, dialog, fileInput } = await openModal();

    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    expect(within(dialog).getByText('Please select a file.')).toBeTruthy();
    expect(fileInput.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByText('No file selected')).toBeTruthy();
    expect(server.requests).toEqual([]);
  });

  it("says 'Please upload an Excel file (.xlsx).' for a .txt, at once and on Submit, and sends nothing", async () => {
    const server = acceptingServer();
    const { user, dialog, fileInput } = await openModal();

    await user.upload(fileInput, new File(['a,b\n1,2\n'], 'notices.txt', { type: 'text/plain' }));
    expect(within(dialog).getByText('Please upload an Excel file (.xlsx).')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    expect(within(dialog).getAllByText('Please upload an Excel file (.xlsx).')).toHaveLength(1);
    expect(within(dialog).getByText('Not an Excel file')).toBeTruthy();
    expect(server.requests).toEqual([]);
  });

  it('accepts an .xlsx and shows its size in MB with 2 decimals', async () => {
    acceptingServer();
    const { user, dialog, fileInput } = await openModal();

    await user.upload(fileInput, excel('march.xlsx'));

    expect(within(dialog).getByText('0.05 MB')).toBeTruthy();
    expect(within(dialog).getByText('Ready to upload')).toBeTruthy();
    expect(within(dialog).queryByText('Please upload an Excel file (.xlsx).')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Download sample file' })).toBeTruthy();
  });

  it('uploads, starts the import with the stored name and the rename, toasts, sets the flag and closes', async () => {
    const server = acceptingServer();
    const success = vi.spyOn(toast, 'success');
    const { user, dialog, fileInput } = await openModal();

    await user.upload(fileInput, excel('march.xlsx'));
    await user.type(within(dialog).getByLabelText('Rename file (optional)'), 'March notices');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('The import of March notices is in process.'));
    const [upload, start] = server.requests;
    expect(upload?.method).toBe('POST');
    expect(upload?.path).toBe('/temporary-upload');
    const form = await upload!.request.formData();
    expect(form.get('type')).toBe('notice');
    expect(form.get('name')).toBe('March notices.xlsx');
    expect((form.get('file') as File).size).toBe(52_429);
    expect(start?.path).toBe('/api/notices/upload-notice-info');
    expect(await start!.request.json()).toEqual({ file: 'stored-name-1.xlsx', name: 'March notices' });

    expect(localStorage.getItem('noticeImportStatus')).toBe('1');
    expect(localStorage.getItem('noticeImportJob')).toBe('job-7');
    expect(localStorage.getItem('creditCardImportStatus')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('names the import after the file when there is no rename', async () => {
    const server = acceptingServer();
    const { user, dialog, fileInput } = await openModal();

    await user.upload(fileInput, excel('march.xlsx'));
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(server.requests).toHaveLength(2));
    expect((await server.requests[0]!.request.formData()).get('name')).toBe('march.xlsx');
    expect(await server.requests[1]!.request.json()).toEqual({ file: 'stored-name-1.xlsx', name: 'march' });
  });

  it("shows the server's refusal under the file input and keeps the modal open", async () => {
    const refusal =
      'This file is a CSV file renamed to .xlsx. Save it from Excel as an Excel Workbook (.xlsx).';
    const server = stubFetch(() =>
      jsonResponse(400, { statusCode: 400, code: 'BAD_REQUEST', message: refusal, error: { file: refusal } }),
    );
    const { user, dialog, fileInput } = await openModal();

    await user.upload(fileInput, excel('renamed.xlsx'));
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    expect(await within(dialog).findByText(refusal)).toBeTruthy();
    expect(fileInput.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(dialog).getByText('Not imported')).toBeTruthy();
    expect(server.requests).toHaveLength(1);
    expect(localStorage.getItem('noticeImportStatus')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Import Excel' })).toBeTruthy();
  });

  it('shows a message for the whole file (too large) in the modal', async () => {
    const tooLarge = 'The file is larger than 50 MB, the most an upload may be.';
    stubFetch(() =>
      jsonResponse(413, { statusCode: 413, code: 'FILE_TOO_LARGE', message: tooLarge, error: tooLarge }),
    );
    const { user, dialog, fileInput } = await openModal();

    await user.upload(fileInput, excel('big.xlsx'));
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    expect((await within(dialog).findByRole('alert')).textContent).toBe(tooLarge);
  });

  it('starts again empty when opened again', async () => {
    acceptingServer();
    const { user, dialog, fileInput } = await openModal();
    await user.upload(fileInput, excel('march.xlsx'));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Import Excel' }));
    expect(within(screen.getByRole('dialog')).getByText('No file selected')).toBeTruthy();
  });
});
