import { screen, waitFor, within } from '@testing-library/react';
import type { ImportPreview } from '@notice-desk/contract/imports';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { ImportExcel } from './import-excel.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const excel = (name: string, bytes = 52_429) => new File([new Uint8Array(bytes)], name, { type: XLSX_TYPE });

const fields: ImportPreview['fields'] = [
  { key: 'loanNo', label: 'Loan No.', required: true },
  { key: 'custName', label: 'Customer Name', required: true },
  { key: 'region', label: 'Region', required: false },
];

/** How the upload maps: by default every required field has a column. */
function previewOf(overrides: Partial<ImportPreview> = {}): ImportPreview {
  return {
    fileName: 'march.xlsx',
    sheetName: null,
    headerRow: 1,
    headerRows: [
      { rowNumber: 1, text: 'LOAN NO | CUSTOMER NAME | NOTES' },
      { rowNumber: 2, text: 'LN1 | Asha | call after 5' },
    ],
    columns: [
      { index: 0, header: 'LOAN NO', field: 'loanNo', candidates: ['loanNo'] },
      { index: 1, header: 'CUSTOMER NAME', field: 'custName', candidates: ['custName'] },
      { index: 2, header: 'NOTES', field: null, candidates: [] },
    ],
    columnCount: 3,
    fields,
    source: 'automatic',
    rows: [{ rowNumber: 2, cells: ['LN1', 'Asha', 'call after 5'] }],
    dataRows: null,
    problemRows: null,
    tooManyRows: false,
    missing: [],
    ambiguous: [],
    complete: true,
    duplicates: null,
    ...overrides,
  };
}
const completeMapping = { headerRow: 1, columns: { '0': 'loanNo', '1': 'custName', '2': null } };

/** The server's happy path: the upload is stored, maps as `preview` says, the import starts as job-7. */
function acceptingServer(preview: ImportPreview = previewOf()) {
  return stubFetch(({ path, search }) => {
    if (path === '/temporary-upload') return jsonResponse(200, { data: 'stored-name-1.xlsx' });
    if (path === '/api/imports/uploads/stored-name-1.xlsx/preview') {
      const scanned = search.get('scan') === 'true';
      return jsonResponse(200, { ...preview, ...(scanned && { dataRows: 40, problemRows: 3 }) });
    }
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

  it('names every format the import takes, beside the file field', async () => {
    const { fileInput } = await openModal();
    const formats = document.getElementById(fileInput.getAttribute('aria-describedby')!.split(' ')[0]!);
    expect(formats?.textContent).toBe("Also takes .csv, .tsv and Excel's Unicode Text (.txt).");
    expect(fileInput.accept).toBe('.xlsx,.csv,.tsv,.txt');
  });

  it("says 'Please upload an Excel file (.xlsx).' for a .pdf, at once and on Submit, and sends nothing", async () => {
    const server = acceptingServer();
    const { user, dialog, fileInput } = await openModal();

    await user.upload(fileInput, new File(['%PDF-1.7\n'], 'notices.pdf', { type: 'application/pdf' }));
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
    const [upload, check, scan, start] = server.requests;
    expect(upload?.method).toBe('POST');
    expect(upload?.path).toBe('/temporary-upload');
    const form = await upload!.request.formData();
    expect(form.get('type')).toBe('notice');
    expect(form.get('name')).toBe('March notices.xlsx');
    expect((form.get('file') as File).size).toBe(52_429);
    // Nothing needed a decision: a quick look (no scan), then the import with the mapping it found.
    expect(check?.search.get('kind')).toBe('notice');
    expect(check?.search.get('scan')).toBe('false');
    // Then the whole file, for rows already imported: none, so the import starts, skipping none.
    expect(scan?.search.get('scan')).toBe('true');
    expect(start?.path).toBe('/api/notices/upload-notice-info');
    expect(await start!.request.json()).toEqual({
      file: 'stored-name-1.xlsx',
      name: 'March notices',
      mapping: completeMapping,
      duplicates: 'skip',
    });

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

    await waitFor(() => expect(server.requests).toHaveLength(4));
    expect((await server.requests[0]!.request.formData()).get('name')).toBe('march.xlsx');
    expect(await server.requests[3]!.request.json()).toEqual({
      file: 'stored-name-1.xlsx',
      name: 'march',
      mapping: completeMapping,
      duplicates: 'skip',
    });
  });

  it('stops on rows already imported: lists where each is and whether served, and imports with the choice made', async () => {
    const duplicates = {
      existing: 2,
      served: 1,
      inFile: 1,
      rows: [
        {
          rowNumber: 2,
          number: 'LN1',
          matches: [{ campaignId: 'c1', campaignName: 'February sheet', served: true }],
          repeatsRow: null,
        },
        {
          rowNumber: 3,
          number: 'LN2',
          matches: [{ campaignId: 'c1', campaignName: 'February sheet', served: false }],
          repeatsRow: null,
        },
        { rowNumber: 5, number: 'LN2', matches: [], repeatsRow: 3 },
      ],
    };
    const server = stubFetch(({ path, search }) => {
      if (path === '/temporary-upload') return jsonResponse(200, { data: 'stored-name-1.xlsx' });
      if (path === '/api/imports/uploads/stored-name-1.xlsx/preview') {
        const scanned = search.get('scan') === 'true';
        return jsonResponse(200, previewOf(scanned ? { dataRows: 4, problemRows: 1, duplicates } : {}));
      }
      return jsonResponse(202, { message: 'The import of march is in process.', jobId: 'job-8' });
    });
    const { user, dialog, fileInput } = await openModal();

    await user.upload(fileInput, excel('march.xlsx'));
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    const report = await within(dialog).findByRole('region', { name: 'Rows already imported' });
    expect(
      within(dialog).getByText(
        '2 rows have a loan number you already imported (1 of them served). 1 row repeats an earlier row of this file: it is always skipped.',
      ),
    ).toBeTruthy();
    expect(within(report).getByText('in ‘February sheet’, served')).toBeTruthy();
    expect(within(report).getByText('in ‘February sheet’, not served')).toBeTruthy();
    expect(within(report).getByText('Repeats row 3 of this file')).toBeTruthy();
    // Nothing started yet; Skip them is chosen until the user chooses otherwise.
    expect(server.requests.some((r) => r.path === '/api/notices/upload-notice-info')).toBe(false);
    expect((within(dialog).getByRole('radio', { name: /Skip them/ }) as HTMLInputElement).checked).toBe(true);

    await user.click(within(dialog).getByRole('radio', { name: /Import them as new records/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));

    await waitFor(() =>
      expect(server.requests.some((r) => r.path === '/api/notices/upload-notice-info')).toBe(true),
    );
    const start = server.requests.find((r) => r.path === '/api/notices/upload-notice-info')!;
    expect(await start.request.json()).toMatchObject({ duplicates: 'new', mapping: completeMapping });
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

  it('shows Review mapping unasked when a required field has no column, and imports once it is mapped', async () => {
    const server = acceptingServer(
      previewOf({
        columns: [
          { index: 0, header: 'LOAN NO', field: 'loanNo', candidates: ['loanNo'] },
          { index: 1, header: 'NAME OF BORROWER', field: null, candidates: [] },
          { index: 2, header: 'NOTES', field: null, candidates: [] },
        ],
        missing: ['custName'],
        complete: false,
      }),
    );
    const { user, dialog, fileInput } = await openModal();
    await user.upload(fileInput, excel('march.xlsx'));
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    expect(await within(dialog).findByRole('heading', { name: 'Review mapping' })).toBeTruthy();
    const importButton = within(dialog).getByRole('button', { name: 'Import' }) as HTMLButtonElement;
    expect(importButton.disabled).toBe(true);
    // What blocks Import comes first, before the header row and the columns.
    const blocker = within(dialog).getByText('Map a column to Customer Name to import.');
    const headerRow = within(dialog).getByLabelText('Header row');
    expect(blocker.compareDocumentPosition(headerRow) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Without a column for a required field every row would be a problem: no count until there is one.
    await waitFor(() => expect(server.requests.some((r) => r.search.get('scan') === 'true')).toBe(true));
    expect(
      within(dialog).getByText('The rows with problems are counted once every required field has a column.'),
    ).toBeTruthy();
    expect(within(dialog).queryByText(/rows have problems/)).toBeNull();
    expect(within(dialog).getByRole('region', { name: 'First 5 rows as they will be stored' })).toBeTruthy();
    expect(within(dialog).getByRole('cell', { name: 'LN1' })).toBeTruthy();

    // Keyboard and label reach every choice: the column's select is named by its header.
    await user.selectOptions(within(dialog).getByLabelText('NAME OF BORROWER'), 'custName');
    expect(within(dialog).getByText('Every required field has a column.')).toBeTruthy();
    expect(await within(dialog).findByText(/3 of 40 rows have problems/)).toBeTruthy();
    await waitFor(() => expect(importButton.disabled).toBe(false));
    await user.click(importButton);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const start = server.requests.find((r) => r.path === '/api/notices/upload-notice-info')!;
    expect(await start.request.json()).toEqual({
      file: 'stored-name-1.xlsx',
      name: 'march',
      mapping: { headerRow: 1, columns: { '0': 'loanNo', '1': 'custName', '2': null } },
      duplicates: 'skip',
    });
    // One upload for the whole visit.
    expect(server.requests.filter((r) => r.path === '/temporary-upload')).toHaveLength(1);
    expect(localStorage.getItem('noticeImportJob')).toBe('job-7');
  });

  it('offers Review mapping one click away when nothing needs a decision, with a header row selector', async () => {
    const server = acceptingServer();
    const { user, dialog, fileInput } = await openModal();
    await user.upload(fileInput, excel('march.xlsx'));
    await user.click(within(dialog).getByRole('button', { name: 'Review mapping' }));

    const headerRow = (await within(dialog).findByLabelText('Header row')) as HTMLSelectElement;
    expect(headerRow.value).toBe('1');
    expect(within(dialog).queryByRole('button', { name: 'Submit' })).toBeNull();
    // A field chosen for two columns blocks Import, naming it.
    await user.selectOptions(within(dialog).getByLabelText('NOTES'), 'loanNo');
    expect(within(dialog).getByText('Loan No.: choose one column each.')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Import' }) as HTMLButtonElement).disabled).toBe(true);
    // Another header row is read again.
    await user.selectOptions(headerRow, '2');
    await waitFor(() =>
      expect(
        server.requests.some((r) => r.path.endsWith('/preview') && r.search.get('headerRow') === '2'),
      ).toBe(true),
    );
    expect(server.requests.some((r) => r.path === '/api/notices/upload-notice-info')).toBe(false);
  });

  it('says when the header row has more columns than are listed, and leaves Import enabled', async () => {
    acceptingServer(previewOf({ columnCount: 16_384 }));
    const { user, dialog, fileInput } = await openModal();
    await user.upload(fileInput, excel('march.xlsx'));
    await user.click(within(dialog).getByRole('button', { name: 'Review mapping' }));

    expect(
      await within(dialog).findByText(
        'The header row has 16,384 columns; 3 are listed: the first ones, and any other that fills or could fill a field. Columns not listed are ignored.',
      ),
    ).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Import' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('recounts the rows with problems for the columns as chosen, once the choices settle, and at once for another header row', async () => {
    const incomplete = previewOf({
      columns: [
        { index: 0, header: 'LOAN NO', field: 'loanNo', candidates: ['loanNo'] },
        { index: 1, header: 'NAME OF BORROWER', field: null, candidates: [] },
        { index: 2, header: 'NOTES', field: null, candidates: [] },
      ],
      missing: ['custName'],
      complete: false,
    });
    // The server counts 40 rows with 3 problems as found, none once a column is Customer Name, and
    // reads row 2 as the header row when asked.
    const server = stubFetch(({ path, search }) => {
      if (path === '/temporary-upload') return jsonResponse(200, { data: 'stored-name-1.xlsx' });
      if (path === '/api/imports/uploads/stored-name-1.xlsx/preview') {
        if (search.get('scan') === 'false') return jsonResponse(200, incomplete);
        const columns = search.get('columns');
        if (search.get('headerRow') === '2')
          return jsonResponse(200, {
            ...incomplete,
            headerRow: 2,
            rows: [{ rowNumber: 3, cells: ['LN9', 'Ravi', ''] }],
            dataRows: 39,
            problemRows: 39,
          });
        const named = columns !== null && Object.values(JSON.parse(columns) as object).includes('custName');
        return jsonResponse(200, {
          ...incomplete,
          ...(columns !== null && { source: 'chosen' }),
          dataRows: 40,
          problemRows: named ? 0 : 3,
        });
      }
      return jsonResponse(404, {
        statusCode: 404,
        code: 'NOT_FOUND',
        message: 'Not found.',
        error: 'Not found.',
      });
    });
    const previews = () =>
      server.requests.filter((r) => r.path.endsWith('/preview') && r.search.get('scan') === 'true');
    const { user, dialog, fileInput } = await openModal();
    await user.upload(fileInput, excel('march.xlsx'));
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(previews().map((r) => r.search.get('columns'))).toEqual([null]));
    expect(
      await within(dialog).findByText(
        'The rows with problems are counted once every required field has a column.',
      ),
    ).toBeTruthy();

    // Two choices in quick succession: the table follows each at once, the server is asked once.
    const borrower = within(dialog).getByLabelText('NAME OF BORROWER');
    await user.selectOptions(borrower, 'region');
    await user.selectOptions(borrower, 'custName');
    expect(within(dialog).getByRole('columnheader', { name: 'Customer Name' })).toBeTruthy();
    expect(within(dialog).getByRole('cell', { name: 'Asha' })).toBeTruthy();
    expect(within(dialog).getByText('Counting the rows with problems…')).toBeTruthy();
    expect(await within(dialog).findByText(/0 of 40 rows have problems/)).toBeTruthy();
    expect(previews().map((r) => r.search.get('columns'))).toEqual([
      null,
      JSON.stringify({ '0': 'loanNo', '1': 'custName', '2': null }),
    ]);
    expect(previews()[1]!.search.get('headerRow')).toBe('1');

    // A field chosen for two columns is not sent (the server would refuse it): the count waits for one.
    await user.selectOptions(within(dialog).getByLabelText('NOTES'), 'custName');
    expect(
      within(dialog).getByText('The rows with problems are counted once each field has one column.'),
    ).toBeTruthy();
    await new Promise((r) => setTimeout(r, 600));
    expect(previews()).toHaveLength(2);
    expect(within(dialog).queryByRole('alert')).toBeNull();

    // Another header row: asked at once, with none of the choices made for the old one.
    await user.selectOptions(within(dialog).getByLabelText('Header row'), '2');
    expect(await within(dialog).findByRole('cell', { name: 'LN9' })).toBeTruthy();
    // Its 39 rows all lack a Customer Name: not called problems before a column is chosen for it.
    expect(
      within(dialog).getByText('The rows with problems are counted once every required field has a column.'),
    ).toBeTruthy();
    expect(within(dialog).queryByText(/39 of 39/)).toBeNull();
    expect(previews().at(-1)!.search.get('headerRow')).toBe('2');
    expect(previews().at(-1)!.search.get('columns')).toBeNull();
  });
});
