import ExcelJS from 'exceljs';
import type {
  ImportProgress,
  StartImportResponse,
  TemporaryUploadResponse,
} from '@notice-desk/contract/imports';
import { noticeFields } from '@notice-desk/contract/notice';
import type { Account } from './accounts.ts';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A cell of a generated notice row: the field's key and the row's number (from 1). */
export type NoticeCell = (key: string, n: number) => string | undefined;

/**
 * An .xlsx of `rows` notices as staff would fill one: the notice form's labels as the header row,
 * every field set, a distinct Loan No. per row. `cell` may set any field's value (undefined keeps
 * the default).
 */
export async function noticeWorkbook(
  rows: number,
  tag: string,
  cell: NoticeCell = () => undefined,
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Notices');
  sheet.addRow(noticeFields.map((field) => field.label));
  for (let n = 1; n <= rows; n += 1) {
    sheet.addRow(
      noticeFields.map(({ key }) => {
        const value = cell(key, n);
        if (value !== undefined) return value;
        if (key === 'loanNo') return `LN-${tag}-${n}`;
        if (key === 'custName') return `Customer ${n}`;
        return `${key} ${n}`;
      }),
    );
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * Imports a notice workbook over the API as the modal does (temporary upload, then start), and
 * waits for the job to finish. Answers the new campaign's id.
 */
export async function importNoticesOverApi(
  baseUrl: string,
  account: Account,
  workbook: Buffer,
  name: string,
): Promise<string> {
  const authorization = `Bearer ${account.token}`;
  const form = new FormData();
  form.append('type', 'notice');
  form.append('name', `${name}.xlsx`);
  form.append('file', new Blob([new Uint8Array(workbook)], { type: XLSX_TYPE }), `${name}.xlsx`);
  const uploaded = await fetch(`${baseUrl}/temporary-upload`, {
    method: 'POST',
    headers: { authorization },
    body: form,
  });
  if (!uploaded.ok) throw new Error(`temporary-upload answered ${uploaded.status}: ${await uploaded.text()}`);
  const { data: storedName } = (await uploaded.json()) as TemporaryUploadResponse;

  const started = await fetch(`${baseUrl}/api/notices/upload-notice-info`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ file: storedName, name }),
  });
  if (started.status !== 202) throw new Error(`upload-notice-info answered ${started.status}`);
  const { jobId } = (await started.json()) as StartImportResponse;

  const deadline = Date.now() + 120_000;
  for (;;) {
    const answer = await fetch(`${baseUrl}/api/notices/by-user-id/progress-count`, {
      headers: { authorization },
    });
    const progress = (await answer.json()) as ImportProgress;
    if (progress.jobId === jobId && progress.status === 'done' && progress.campaignId)
      return progress.campaignId;
    if (progress.jobId === jobId && progress.status === 'failed')
      throw new Error(`import failed: ${progress.error}`);
    if (Date.now() > deadline) throw new Error(`import did not finish: ${JSON.stringify(progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
