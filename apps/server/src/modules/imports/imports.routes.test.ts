import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { creditCardFields } from '@notice-desk/contract/credit-card';
import { noticeFields } from '@notice-desk/contract/notice';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import {
  handWrittenSheet,
  importReportLines,
  multipart,
  recordSheet,
  workbookOf,
  workbookWithSheet,
  writeSheet,
  zipOf,
} from '../../test/xlsx.ts';

let t: TestApp;
let asha: SignedIn;
let ravi: SignedIn;
beforeEach(async () => {
  t = await createTestApp({ IMPORT_MAX_ROWS: '50', IMPORT_MAX_UNPACKED_MB: '2', UPLOAD_MAX_MB: '1' });
  asha = await signUp(t.app, 'asha');
  ravi = await signUp(t.app, 'ravi');
});
afterEach(async () => t.close());

async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const file = path.join(t.config.dataDir, `fixture-${Math.random()}.xlsx`);
  await writeSheet(file, rows);
  return fs.readFileSync(file);
}

async function upload(who: SignedIn, data: Buffer, name = 'march notices.xlsx') {
  const form = multipart({ type: 'notice', name }, { name, data });
  return t.app.inject({
    method: 'POST',
    url: '/temporary-upload',
    headers: { ...who.headers, ...form.headers },
    payload: form.payload,
  });
}

async function startNoticeImport(who: SignedIn, data: Buffer, name?: string) {
  const stored = await upload(who, data);
  expect(stored.statusCode, stored.body).toBe(200);
  const start = await t.app.inject({
    method: 'POST',
    url: '/api/notices/upload-notice-info',
    headers: who.headers,
    payload: { file: stored.json().data, ...(name ? { name } : {}) },
  });
  expect(start.statusCode, start.body).toBe(202);
  return start.json<{ jobId: string }>().jobId;
}

async function finished(who: SignedIn, url = '/api/notices/by-user-id/progress-count') {
  for (let i = 0; i < 200; i++) {
    const progress = (await t.app.inject({ method: 'GET', url, headers: who.headers })).json();
    if (progress.status === 'done' || progress.status === 'failed') return progress;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('import did not finish');
}

const list = async (who: SignedIn) =>
  (
    await t.app.inject({ method: 'GET', url: '/api/notices/by-user-id?limit=100', headers: who.headers })
  ).json();
const campaigns = async (who: SignedIn) =>
  (await t.app.inject({ method: 'GET', url: '/api/campaigns/notice', headers: who.headers })).json();

describe('importing notices from .xlsx', () => {
  it('imports every valid row into one campaign named after the file, and reports the rest', async () => {
    const rows = recordSheet(noticeFields, 6);
    rows[2]![0] = ''; // row 3: no Loan No.
    rows[5]![0] = rows[4]![0]!; // row 6 repeats row 5's Loan No.
    const progressBefore = await t.app.inject({
      method: 'GET',
      url: '/api/notices/by-user-id/progress-count',
      headers: asha.headers,
    });
    expect(progressBefore.json()).toEqual({ progressPercentage: null });

    const jobId = await startNoticeImport(asha, await xlsx(rows));
    const progress = await finished(asha);
    expect(progress).toMatchObject({
      progressPercentage: 100,
      status: 'done',
      imported: 4,
      skipped: 2,
      jobId,
    });

    const notices = await list(asha);
    expect(notices.total).toBe(4);
    expect(notices.items.map((n: { loanNo: string }) => n.loanNo).sort()).toEqual([
      'loanNo r0',
      'loanNo r2',
      'loanNo r3',
      'loanNo r5',
    ]);
    const history = await campaigns(asha);
    expect(history.items).toEqual([
      expect.objectContaining({ name: 'march notices', imported: 4, skipped: 2 }),
    ]);
    expect((await list(ravi)).total).toBe(0);

    expect(await importReportLines(t.app, asha, jobId)).toEqual([
      ['3', 'Loan No.', 'Loan No is required!!'],
      ['6', 'Loan No.', 'Repeats row 5 (same Loan No.).'],
    ]);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/imports/${jobId}/report`, headers: ravi.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('names the campaign as asked, and shows it with its records', async () => {
    await startNoticeImport(asha, await xlsx(recordSheet(noticeFields, 3)), 'Batch A');
    const { campaignId } = await finished(asha);
    const single = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/single-campaign/${campaignId}`,
      headers: asha.headers,
    });
    expect(single.json()).toMatchObject({ name: 'Batch A', total: 3, type: 'notice', completedCounts: 0 });
    expect(single.json().notices[0]).toMatchObject({
      custName: 'custName r0',
      reference: 'loanNo r0',
      emailResponse: '-',
    });
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/campaigns/single-campaign/${campaignId}`,
          headers: ravi.headers,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/campaigns/${campaignId}`, headers: ravi.headers }))
        .statusCode,
    ).toBe(404);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/campaigns/${campaignId}`,
      headers: asha.headers,
    });
    expect(removed.statusCode).toBe(200);
    expect((await list(asha)).total).toBe(0);
  });

  it('uploads and starts in one call for credit cards, mapping staff’s own headers', async () => {
    const headers = [
      'S.NO',
      'HUB',
      'LOCATION',
      'AAN NO.',
      'MASK NO.',
      'PRODUCT',
      'ACTIVITY',
      'CUST NAME',
      'CUSTOMER ADDRESS',
      'EMAIL ID',
      'CUST MOBILE NO.',
      'NOTICE BALANCE',
      'OVERDUE AMOUNT',
      'CLM NAME',
      'CLM NO.',
      'LIMIT',
      'AMOUNT EXCEEDED CREDIT LIMIT',
      'CONCILIATOR NAME',
      'CAMP DATE',
      'CAMP LOCATION',
      'NOTICE DATE',
      'REFERENCE NO',
    ];
    const data = await xlsx([headers, headers.map((h, i) => (i === 0 ? 1 : i === 11 ? 12500.5 : `${h} 1`))]);
    const form = multipart(
      { type: 'credit-card', name: 'cards.xlsx', file_name: 'April cards' },
      { name: 'cards.xlsx', data },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/credit-cards/upload-credit-card--import-file',
      headers: { ...asha.headers, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(await finished(asha, '/api/credit-cards/by-user-id/credit-cards-progress-count')).toMatchObject({
      status: 'done',
      imported: 1,
    });
    const cards = (
      await t.app.inject({ method: 'GET', url: '/api/credit-cards/by-user-id', headers: asha.headers })
    ).json();
    expect(cards.items[0]).toMatchObject({
      hub: 'HUB 1',
      maskNo: 'MASK NO. 1',
      noticeBalance: '12500.5',
      custName: 'CUST NAME 1',
    });
    // Every field staff's headers name is filled; the optional Language has no column in their sheets.
    expect(creditCardFields.filter((f) => cards.items[0][f.key] === '').map((f) => f.key)).toEqual([
      'language',
    ]);
  });

  it('runs two imports by one user one after the other, both complete', async () => {
    await startNoticeImport(asha, await xlsx(recordSheet(noticeFields, 5, 'a')), 'First');
    await startNoticeImport(asha, await xlsx(recordSheet(noticeFields, 7, 'b')), 'Second');
    for (let i = 0; i < 200 && (await campaigns(asha)).total < 2; i++)
      await new Promise((r) => setTimeout(r, 50));
    const history = await campaigns(asha);
    expect(history.items.map((c: { name: string; imported: number }) => [c.name, c.imported])).toEqual([
      ['Second', 7],
      ['First', 5],
    ]);
    expect((await list(asha)).total).toBe(12);
  });

  it('offers a sample sheet per kind with every expected header', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/notices/import-sample',
      headers: asha.headers,
    });
    expect(res.headers['content-disposition']).toContain('notice-import-sample.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect((workbook.worksheets[0]!.getRow(1).values as string[]).slice(1)).toEqual(
      noticeFields.map((f) => f.label),
    );
  });
});

describe('files an import refuses, importing nothing', () => {
  async function failure(data: Buffer) {
    await startNoticeImport(asha, data);
    const progress = await finished(asha);
    expect(progress.status).toBe('failed');
    expect((await list(asha)).total).toBe(0);
    expect((await campaigns(asha)).total).toBe(0);
    return progress.error as string;
  }

  it('an empty workbook', async () => {
    expect(await failure(await xlsx([]))).toBe('The workbook is empty: its first sheet has no rows.');
  });

  it('a header row only', async () => {
    expect(await failure(await xlsx([noticeFields.map((f) => f.label)]))).toBe(
      'The sheet has a header row but no data rows.',
    );
  });

  it('a missing required column', async () => {
    const rows = recordSheet(noticeFields, 2).map((r) =>
      r.filter((_, i) => noticeFields[i]!.key !== 'emailId'),
    );
    expect(await failure(await xlsx(rows))).toMatch(/^The sheet has no column for Mail Id\./);
  });

  it('no header row', async () => {
    expect(
      await failure(
        await xlsx([
          ['a', 'b'],
          ['c', 'd'],
        ]),
      ),
    ).toMatch(/^No header row found in the first 20 rows/);
  });

  it('more rows than the limit', async () => {
    expect(await failure(await xlsx(recordSheet(noticeFields, 51)))).toBe(
      'The sheet has more than 50 rows, the most one import takes; split it into smaller files.',
    );
  });

  it('a sheet that unpacks past the limit (a zip bomb), without exhausting memory', async () => {
    const bomb = workbookWithSheet(Buffer.alloc(30 * 1024 * 1024, ' '));
    expect(bomb.length).toBeLessThan(100 * 1024);
    expect(await failure(bomb)).toMatch(/unpacks to more than 2 MB/);
  });

  it('every row invalid', async () => {
    const rows = recordSheet(noticeFields, 2);
    rows[1]![0] = '';
    rows[2]![0] = '';
    expect(await failure(await xlsx(rows))).toBe(
      'None of the 2 rows could be imported: download the report to see why.',
    );
  });
});

describe('uploads it refuses', () => {
  it.each([
    ['a CSV renamed to .xlsx', Buffer.from('Loan No.,Name\n1,Asha\n'), /text \(CSV or similar\)/],
    [
      'an .xls or password-protected workbook',
      Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(600)]),
      /password-protected/,
    ],
    ['a file that is not a zip', Buffer.from([0, 1, 2, 3, 250, 251, 252, 253]), /not an \.xlsx workbook/],
  ])('%s', async (_, data, message) => {
    const res = await upload(asha, data);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  it('a name that does not end in .xlsx (or .csv, .tsv)', async () => {
    const res = await upload(asha, zipOf([{ name: 'a', data: Buffer.from('b') }]), 'notices.pdf');
    expect(res.json().error).toEqual({ file: 'Please upload an Excel file (.xlsx).' });
  });

  it('a file over the size limit', async () => {
    const res = await upload(
      asha,
      Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(1.5 * 1024 * 1024)]),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('The file is larger than 1 MB, the most an upload may be.');
  });

  it('another user’s stored name, and a stored name with a path in it', async () => {
    const stored = (await upload(asha, await xlsx(recordSheet(noticeFields, 1)))).json().data;
    const steal = await t.app.inject({
      method: 'POST',
      url: '/api/notices/upload-notice-info',
      headers: ravi.headers,
      payload: { file: stored },
    });
    expect(steal.statusCode).toBe(404);
    for (const file of ['../../etc/passwd', `../${stored}`, '/etc/passwd.xlsx']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/notices/upload-notice-info',
        headers: asha.headers,
        payload: { file },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.file).toBe('file must be a name temporary-upload answered, not a path.');
    }
  });

  it('a file_name that is a path', async () => {
    const data = await xlsx(recordSheet(noticeFields, 1));
    const form = multipart({ file_name: '../../etc/passwd' }, { name: 'a.xlsx', data });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/notices/upload-import-file',
      headers: { ...asha.headers, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ file_name: 'The name must be a plain file name, not a path.' });
    expect((await campaigns(asha)).total).toBe(0);
  });

  it('a request without a file, and one without a token', async () => {
    const form = multipart({ type: 'notice' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/temporary-upload',
      headers: { ...asha.headers, ...form.headers },
      payload: form.payload,
    });
    expect(res.json().error).toEqual({ file: 'Please select a file.' });
    expect((await t.app.inject({ method: 'POST', url: '/temporary-upload', ...form })).statusCode).toBe(401);
  });
});

const handWritten = (
  rows: number,
  cell?: (ref: string, key: string) => string | undefined,
  declaration?: string,
) => handWrittenSheet(noticeFields, rows, cell, declaration);

async function jobAttempts(jobId: string): Promise<number> {
  const { db } = await openDatabase(t.config);
  try {
    const job = await db
      .selectFrom('jobs')
      .select('attempts')
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    return job.attempts;
  } finally {
    await db.destroy();
  }
}

const reportLines = (who: SignedIn, jobId: string) => importReportLines(t.app, who, jobId);

describe('hostile workbooks: a clear refusal or a problem of the cell, at once, and the server goes on', () => {
  it.each(['&#x110000;', '&#0;', '&#xD800;', '&#xFFFF;'])(
    'an invalid character reference %s is a problem of its cell: the row is reported with its row and column, the rest imported, nothing retried',
    async (reference) => {
      const data = workbookOf({
        sheet: handWritten(3, (ref, key) =>
          ref === 'B3' && key === 'custName'
            ? `<c r="B3" t="inlineStr"><is><t>Asha ${reference}</t></is></c>`
            : undefined,
        ),
      });
      const jobId = await startNoticeImport(asha, data);
      expect(await finished(asha)).toMatchObject({ status: 'done', imported: 2, skipped: 1 });
      expect(await reportLines(asha, jobId)).toEqual([
        [
          '3',
          'Customer Name',
          `The cell holds the character reference ${reference}, which is not a character a workbook may hold.`,
        ],
      ]);
      expect(await jobAttempts(jobId)).toBe(1);
    },
  );

  it('an invalid character reference in a shared string is a problem of every cell that uses it', async () => {
    const sheet = handWritten(3, (ref) =>
      ref === 'B2' || ref === 'B4' ? `<c r="${ref}" t="s"><v>0</v></c>` : undefined,
    );
    const data = workbookOf({ sheet, sharedStrings: '<sst><si><t>Ravi &#x110000;</t></si></sst>' });
    const jobId = await startNoticeImport(asha, data);
    expect(await finished(asha)).toMatchObject({ status: 'done', imported: 1, skipped: 2 });
    const message =
      'The cell holds the character reference &#x110000;, which is not a character a workbook may hold.';
    expect(await reportLines(asha, jobId)).toEqual([
      ['2', 'Customer Name', message],
      ['4', 'Customer Name', message],
    ]);
  });

  it.each(['99999999999', '-5', '2958466'])(
    'a date serial %s Excel cannot show is a problem of its cell, not a missing value',
    async (serial) => {
      const styles =
        '<styleSheet><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>';
      const data = workbookOf({
        sheet: handWritten(2, (ref, key) =>
          ref.endsWith('3') && key === 'disbursalDate'
            ? `<c r="${ref}" s="1"><v>${serial}</v></c>`
            : undefined,
        ),
        styles,
      });
      const jobId = await startNoticeImport(asha, data);
      expect(await finished(asha)).toMatchObject({ status: 'done', imported: 1, skipped: 1 });
      // The report escapes a leading '-' (Excel would take the text for a formula); the words stay.
      const [line] = await reportLines(asha, jobId);
      expect(line!.slice(0, 2)).toEqual(['3', 'Disb Date']);
      expect(line![2]).toContain(
        `${serial} is not a date Excel can show: its dates run from 1 January 1900 to 31 December 9999.`,
      );
    },
  );

  it.each([
    [
      'ZZZZZZZ2, a column index of about 8 billion',
      (ref: string) => (ref === 'B2' ? '<c r="ZZZZZZZ2"><v>1</v></c>' : undefined),
      /^Cell ZZZZZZZ2 is past column XFD/,
    ],
    [
      'XFE2, one column past the last',
      (ref: string) => (ref === 'B2' ? '<c r="XFE2"><v>1</v></c>' : undefined),
      /^Cell XFE2 is past column XFD/,
    ],
    [
      'a reference that is no reference',
      (ref: string) => (ref === 'B2' ? '<c r="2B"><v>1</v></c>' : undefined),
      /reference "2B" is not one like A1/,
    ],
  ])(
    'a cell %s fails the import at once, naming the cell; the server answers on',
    async (_, cell, message) => {
      const jobId = await startNoticeImport(asha, workbookOf({ sheet: handWritten(2, cell) }));
      const progress = await finished(asha);
      expect(progress.status).toBe('failed');
      expect(progress.error).toMatch(message);
      expect(await jobAttempts(jobId)).toBe(1);
      expect((await list(asha)).total).toBe(0);
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    },
  );

  it('a row numbered past 1,048,576 fails the import, naming the row', async () => {
    const sheet = handWritten(2).replace('<row r="3">', '<row r="1048577">');
    expect(await startNoticeImport(asha, workbookOf({ sheet })).then(() => finished(asha))).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/row numbered 1048577; Excel's rows run from 1 to 1,048,576/),
    });
  });

  it('shared strings past IMPORT_MAX_SHARED_STRINGS_MB are refused as a whole file', async () => {
    await t.close();
    t = await createTestApp({ IMPORT_MAX_SHARED_STRINGS_MB: '1', IMPORT_MAX_UNPACKED_MB: '64' });
    asha = await signUp(t.app, 'asha');
    const sheet = handWritten(2, (ref) => (ref === 'B2' ? '<c r="B2" t="s"><v>0</v></c>' : undefined));
    const sharedStrings = `<sst>${'<si><t>a name that repeats</t></si>'.repeat(100_000)}</sst>`;
    const progress = await startNoticeImport(asha, workbookOf({ sheet, sharedStrings })).then(() =>
      finished(asha),
    );
    expect(progress).toMatchObject({
      status: 'failed',
      error:
        "The workbook's shared strings unpack to more than 1 MB, the most an import may hold in memory; split it into smaller files.",
    });
  });

  it.each([
    [
      'ISO-8859-1',
      (xml: string) => Buffer.from(xml, 'latin1'),
      '<?xml version="1.0" encoding="ISO-8859-1"?>',
    ],
    [
      'UTF-16 with a BOM',
      (xml: string) => Buffer.from(`\ufeff${xml}`, 'utf16le'),
      '<?xml version="1.0" encoding="UTF-16"?>',
    ],
  ])('a sheet in %s imports its names as written', async (_, encode, declaration) => {
    const sheet = handWritten(
      1,
      (ref) => (ref === 'B2' ? '<c r="B2" t="inlineStr"><is><t>José Ñandú</t></is></c>' : undefined),
      declaration,
    );
    await startNoticeImport(asha, workbookOf({ sheet: encode(sheet) }));
    expect(await finished(asha)).toMatchObject({ status: 'done', imported: 1 });
    expect((await list(asha)).items[0].custName).toBe('José Ñandú');
  });

  it('a sheet in ISO-8859-1 that does not say so is refused, not read with its accents replaced', async () => {
    const sheet = handWritten(
      1,
      (ref) => (ref === 'B2' ? '<c r="B2" t="inlineStr"><is><t>José</t></is></c>' : undefined),
      '',
    );
    const progress = await startNoticeImport(asha, workbookOf({ sheet: Buffer.from(sheet, 'latin1') })).then(
      () => finished(asha),
    );
    expect(progress).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/sheet1\.xml is not valid UTF-8 text/),
    });
  });
});

describe('reviewing the column mapping before an import', () => {
  // An older system's export: a title row, HUB and STATE for the wizard's State and 01 State, and
  // the loan number twice (Loan No. and LOAN NO), which only the user can settle.
  const headers = noticeFields.map((f) => (f.key === 'hub' ? 'HUB' : f.key === 'state' ? 'STATE' : f.label));
  const last = headers.length; // LOAN NO, appended
  function olderSystemSheet(): (string | null)[][] {
    const [, ...rows] = recordSheet(noticeFields, 6);
    rows[1]![noticeFields.findIndex((f) => f.key === 'custName')] = ''; // row 4: no name
    rows[2]![noticeFields.findIndex((f) => f.key === 'language')] = 'Klingon'; // row 5: no such language
    return [['March allocation'], [...headers, 'LOAN NO'], ...rows.map((r) => [...r, `  ${r[0]}  `])];
  }
  const preview = (who: SignedIn, file: string, query = 'kind=notice') =>
    t.app.inject({
      method: 'GET',
      url: `/api/imports/uploads/${file}/preview?${query}`,
      headers: who.headers,
    });
  const start = (who: SignedIn, file: string, mapping: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/notices/upload-notice-info',
      headers: who.headers,
      payload: { file, mapping },
    });

  it('previews the mapping by evidence, imports with the confirmed one, keeps it and pre-fills it next time', async () => {
    const data = await xlsx(olderSystemSheet());
    const file = (await upload(asha, data)).json().data as string;
    const first = await preview(asha, file);
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({
      headerRow: 2,
      source: 'automatic',
      complete: false,
      missing: [],
      ambiguous: [{ field: 'loanNo', columns: [0, last] }],
      dataRows: 6,
      // With the loan number undecided, every row lacks it.
      problemRows: 6,
      tooManyRows: false,
    });
    expect(body.headerRows.map((r: { rowNumber: number }) => r.rowNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const fieldOf = (header: string) =>
      body.columns.find((c: { header: string }) => c.header === header).field;
    expect([fieldOf('HUB'), fieldOf('STATE'), fieldOf('Loan No.'), fieldOf('LOAN NO')]).toEqual([
      'hub',
      'state',
      null,
      null,
    ]);
    expect(body.rows).toHaveLength(5);
    expect(body.rows[0]).toMatchObject({ rowNumber: 3 });
    expect(body.rows[0].cells[last]).toBe('loanNo r0'); // trimmed, as stored
    expect(body.fields[0]).toEqual({ key: 'loanNo', label: 'Loan No.', required: true });
    // Without scanning, at once: the same mapping, no count.
    expect((await preview(asha, file, 'kind=notice&scan=false')).json()).toMatchObject({
      problemRows: null,
      dataRows: null,
    });
    // Another header row, as the selector offers.
    expect((await preview(asha, file, 'kind=notice&headerRow=1&scan=false')).json()).toMatchObject({
      headerRow: 1,
      complete: false,
    });

    const started = await start(asha, file, { headerRow: 2, columns: { [last]: null } });
    expect(started.statusCode, started.body).toBe(202);
    const { jobId } = started.json();
    // Noted: every row, as its made-up e-mail and mobile cannot be served (the report's other note is below).
    expect(await finished(asha)).toMatchObject({ status: 'done', imported: 5, skipped: 1, noted: 5 });
    const notices = (await list(asha)).items as { loanNo: string; hub: string; state: string }[];
    expect(notices.find((n) => n.loanNo === 'loanNo r0')).toMatchObject({ hub: 'hub r0', state: 'state r0' });
    expect(await reportLines(asha, jobId)).toEqual([
      ['4', 'Customer Name', 'Name is required!!'],
      [
        '5',
        'Language',
        'Imported, but ‘Klingon’ is not a language the templates know: this record prints the default template.',
      ],
    ]);
    const { db } = await openDatabase(t.config);
    try {
      const campaign = await db
        .selectFrom('campaigns')
        .select('column_mapping')
        .where('job_id', '=', jobId)
        .executeTakeFirstOrThrow();
      const kept = JSON.parse(campaign.column_mapping!);
      expect(kept.headerRow).toBe(2);
      expect([kept.columns['0'], kept.columns[String(last)]]).toEqual(['loanNo', null]);
    } finally {
      await db.destroy();
    }

    // The same headers again: the confirmed mapping is pre-filled, and nothing needs a decision.
    const again = (await upload(asha, data)).json().data as string;
    expect((await preview(asha, again)).json()).toMatchObject({
      source: 'remembered',
      complete: true,
      ambiguous: [],
      // Row 4 has no name; row 5's unknown language is only a note: it imports.
      problemRows: 1,
    });
    // Another user's headers are their own.
    const ravis = (await upload(ravi, data)).json().data as string;
    expect((await preview(ravi, ravis, 'kind=notice&scan=false')).json()).toMatchObject({
      source: 'automatic',
      complete: false,
    });
  });

  it('refuses a mapping that does not fit the file, and a preview it cannot make, with a clear 4xx', async () => {
    const file = (await upload(asha, await xlsx(olderSystemSheet()))).json().data as string;
    const refusals: [unknown, number, RegExp][] = [
      [{ headerRow: 2, columns: { '0': 'shoeSize' } }, 400, /‘shoeSize’ is not a field of this import/],
      [{ headerRow: 2, columns: { '0': 'loanNo', [last]: 'loanNo' } }, 400, /both map to Loan No\./],
      [{ headerRow: 2, columns: { '99': 'loanNo' } }, 400, /Column 99 is not in the header row: it has 39/],
      [{ headerRow: 40, columns: {} }, 400, /Row 40 cannot be the header row/],
      [{ headerRow: 2, columns: { B: 'loanNo' } }, 400, /0-based index/],
      [{ headerRow: 0, columns: {} }, 400, /headerRow must be 1 or more/],
    ];
    for (const [mapping, status, message] of refusals) {
      const res = await start(asha, file, mapping);
      expect(res.statusCode, JSON.stringify(mapping)).toBe(status);
      expect(res.body).toMatch(message);
    }
    const previews: [SignedIn, string, number, RegExp][] = [
      [asha, 'kind=loans', 400, /kind must be 'notice' or 'credit-card'/],
      [asha, 'kind=notice&headerRow=x', 400, /headerRow must be a row number/],
      [asha, 'kind=notice&headerRow=30', 400, /Row 30 cannot be the header row/],
      [ravi, 'kind=notice', 404, /not found/i],
    ];
    for (const [who, query, status, message] of previews) {
      const res = await preview(who, file, query);
      expect(res.statusCode, query).toBe(status);
      expect(res.body).toMatch(message);
    }
    // Nothing was queued by any refusal.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/notices/by-user-id/progress-count',
          headers: asha.headers,
        })
      ).json(),
    ).toEqual({ progressPercentage: null });
  });

  it('fails an import whose automatic mapping is incomplete, naming five fields and how many more', async () => {
    const gone = new Set(['loanNo', 'custName', 'product', 'branchAddress', 'clmMob', 'npaStage', 'amtfin']);
    const rows = recordSheet(noticeFields, 2).map((r) => r.filter((_, i) => !gone.has(noticeFields[i]!.key)));
    await startNoticeImport(asha, await xlsx(rows));
    const progress = await finished(asha);
    expect(progress.status).toBe('failed');
    expect(progress.error).toMatch(
      /^The sheet has no column for Loan No\., Customer Name, Product, Branch, Mobile Clm and 2 more\. /,
    );
  });
});
