import fs from 'node:fs';
import path from 'node:path';
import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.ts';
import { createTestApp, signUp, uploadFile, type SignedIn, type TestApp } from '../../test/app.ts';
import { handWrittenSheet, importReportLines, recordSheet, workbookOf, zipOf } from '../../test/xlsx.ts';

const MAX_ROWS = 1000;

let t: TestApp;
let db: Database;
let users = 0;
beforeAll(async () => {
  t = await createTestApp({ IMPORT_MAX_ROWS: String(MAX_ROWS), UPLOAD_MAX_MB: '20' });
  ({ db } = await openDatabase(t.config));
});
afterAll(async () => {
  await db?.destroy();
  await t?.close();
});

/** Each test imports as a user of its own: a user's imports of a kind run one after another. */
const someone = () => signUp(t.app, `importer${++users}`);

const upload = (who: SignedIn, name: string, data: Buffer) => uploadFile(t.app, who, name, data);

const start = (who: SignedIn, file: string, mapping?: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/notices/upload-notice-info',
    headers: who.headers,
    payload: { file, ...(mapping !== undefined && { mapping }) },
  });

async function finished(who: SignedIn) {
  for (let i = 0; i < 400; i++) {
    const progress = (
      await t.app.inject({
        method: 'GET',
        url: '/api/notices/by-user-id/progress-count',
        headers: who.headers,
      })
    ).json();
    if (progress.status === 'done' || progress.status === 'failed') return progress;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('import did not finish');
}

async function importFile(who: SignedIn, name: string, data: Buffer) {
  const started = await start(who, await upload(who, name, data));
  expect(started.statusCode, started.body).toBe(202);
  return { jobId: started.json().jobId as string, progress: await finished(who) };
}

/** Everything an import writes besides its problem report: campaigns, records (hidden ones too) and search terms. */
async function written(): Promise<Record<string, number>> {
  const count = async (table: 'campaigns' | 'notices' | 'record_search') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    campaigns: await count('campaigns'),
    notices: await count('notices'),
    terms: await count('record_search'),
  };
}

const reportLines = (who: SignedIn, jobId: string) => importReportLines(t.app, who, jobId);

const cp1252 = (text: string) => Buffer.from(text, 'latin1');
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const column = (key: string) => noticeFields.findIndex((f) => f.key === key);

/** recordSheet's rows as delimited text: quoted where a cell holds the delimiter, a quote or a line end. */
function delimited(rows: string[][], delimiter: string, lineEnd = '\r\n'): string {
  const quote = (cell: string) =>
    cell.includes(delimiter) || /["\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
  return rows.map((row) => row.map(quote).join(delimiter)).join(lineEnd) + lineEnd;
}

describe('CSV and TSV imports: the same mapping, row report and hand-over as .xlsx', () => {
  it('imports a Windows-1252 CSV with semicolons (Excel on Windows), reporting and noting rows as for .xlsx', async () => {
    const who = await someone();
    const rows = recordSheet(noticeFields, 4);
    rows[1]![column('custName')] = 'José Müller';
    rows[1]![column('address')] = 'Flat 4; MG Road\nPune'; // the delimiter and a line break, quoted
    rows[2]![column('custName')] = ''; // row 3: no name
    rows[3]![column('language')] = 'Klingon'; // row 4: no template knows it
    rows[4]![column('loanNo')] = '00123'; // a CSV has no formats: kept as written
    const { jobId, progress } = await importFile(who, 'March allocation.csv', cp1252(delimited(rows, ';')));
    // Noted: every row, as its made-up e-mail and mobile cannot be served (the report's other note is below).
    expect(progress).toMatchObject({ status: 'done', imported: 3, skipped: 1, noted: 3 });

    const notices = (
      await t.app.inject({ method: 'GET', url: '/api/notices/by-user-id?limit=10', headers: who.headers })
    ).json().items as Record<string, string>[];
    expect(notices.find((n) => n.loanNo === 'loanNo r0')).toMatchObject({
      custName: 'José Müller',
      address: 'Flat 4; MG Road\nPune',
    });
    expect(notices.some((n) => n.loanNo === '00123')).toBe(true);
    expect(await reportLines(who, jobId)).toEqual([
      ['3', 'Customer Name', 'Name is required!!'],
      [
        '4',
        'Language',
        'Imported, but ‘Klingon’ is not a language the templates know: this record prints the default template.',
      ],
    ]);
    const campaigns = (
      await t.app.inject({ method: 'GET', url: '/api/campaigns/notice', headers: who.headers })
    ).json();
    expect(campaigns.items).toEqual([expect.objectContaining({ name: 'March allocation', imported: 3 })]);
  });

  it("previews and imports a UTF-16LE TSV (Excel's 'Unicode Text') with a title row, by a confirmed mapping", async () => {
    const who = await someone();
    const headers = noticeFields.map((f) => (f.key === 'custName' ? 'BORROWER' : f.label));
    const [, ...rows] = recordSheet(noticeFields, 2);
    rows[0]![column('custName')] = 'रवि कुमार';
    const file = await upload(who, 'march.tsv', utf16le(delimited([['March'], headers, ...rows], '\t')));
    const preview = await t.app.inject({
      method: 'GET',
      url: `/api/imports/uploads/${file}/preview?kind=notice`,
      headers: who.headers,
    });
    expect(preview.json()).toMatchObject({
      sheetName: null,
      headerRow: 2,
      missing: ['custName'],
      complete: false,
      dataRows: 2,
    });
    const custName = String(column('custName'));
    const chosen = await t.app.inject({
      method: 'GET',
      url: `/api/imports/uploads/${file}/preview?kind=notice&columns=${encodeURIComponent(JSON.stringify({ [custName]: 'custName' }))}`,
      headers: who.headers,
    });
    expect(chosen.json()).toMatchObject({ source: 'chosen', complete: true, problemRows: 0 });
    expect(chosen.json().rows[0].cells[column('custName')]).toBe('रवि कुमार');

    const started = await start(who, file, { headerRow: 2, columns: { [custName]: 'custName' } });
    expect(started.statusCode, started.body).toBe(202);
    expect(await finished(who)).toMatchObject({ status: 'done', imported: 2, skipped: 0 });
  });
});

describe('the sheet read', () => {
  it('is named in the preview and kept with the campaign when the workbook has others', async () => {
    const who = await someone();
    const data = zipOf([
      {
        name: 'xl/workbook.xml',
        data: Buffer.from(
          '<workbook><sheets><sheet name="Lookup" sheetId="2" state="hidden" r:id="rId2"/><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>',
        ),
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: Buffer.from(
          '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Target="worksheets/sheet2.xml"/></Relationships>',
        ),
      },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(handWrittenSheet(noticeFields, 2)) },
      { name: 'xl/worksheets/sheet2.xml', data: Buffer.from('<worksheet><sheetData/></worksheet>') },
    ]);
    const file = await upload(who, 'two tabs.xlsx', data);
    const preview = await t.app.inject({
      method: 'GET',
      url: `/api/imports/uploads/${file}/preview?kind=notice&scan=false`,
      headers: who.headers,
    });
    expect(preview.json()).toMatchObject({ sheetName: 'Data', complete: true });
    const started = await start(who, file);
    expect(started.statusCode, started.body).toBe(202);
    expect(await finished(who)).toMatchObject({ status: 'done', imported: 2 });
    const campaign = await db
      .selectFrom('campaigns')
      .select('column_mapping')
      .where('job_id', '=', started.json().jobId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(campaign.column_mapping!)).toMatchObject({ sheet: 'Data', headerRow: 1 });
  });
});

describe("issue 15's bad inputs: a clear message, and nothing written", () => {
  /** Imports an upload, expecting the import to fail with `message` and to leave nothing behind. */
  async function refusedUpload(who: SignedIn, file: string, message: RegExp) {
    const before = await written();
    const started = await start(who, file);
    expect(started.statusCode, started.body).toBe(202);
    const progress = await finished(who);
    expect(progress.status).toBe('failed');
    expect(progress.error).toMatch(message);
    expect(await written()).toEqual(before);
  }
  async function refused(name: string, data: Buffer, message: RegExp) {
    const who = await someone();
    await refusedUpload(who, await upload(who, name, data), message);
  }
  const manyRows = (count: number, cell?: (ref: string, key: string) => string | undefined) =>
    handWrittenSheet(noticeFields, count, cell);

  it('malformed XML in the sheet after 600 rows were written (each batch is removed)', async () => {
    const sheet = manyRows(600).replace('<row r="590">', '<row r="590"><c r="A590"><v>1</c></v>');
    await refused('broken.xlsx', workbookOf({ sheet }), /sheet1\.xml is not well-formed XML/);
    const cut = manyRows(600).slice(0, -60);
    await refused('cut.xlsx', workbookOf({ sheet: cut }), /sheet1\.xml is not well-formed XML/);
  });

  it('malformed XML in the shared strings and the styles', async () => {
    await refused(
      'strings.xlsx',
      workbookOf({ sheet: manyRows(2), sharedStrings: '<sst><si><t>a</si></sst>' }),
      /xl\/sharedStrings\.xml is not well-formed XML/,
    );
    await refused(
      'styles.xlsx',
      workbookOf({
        sheet: manyRows(2),
        styles: '<styleSheet><cellXfs><xf numFmtId="0"></cellXfs></styleSheet>',
      }),
      /xl\/styles\.xml is not well-formed XML/,
    );
  });

  it('a sheet missing from the relationships', async () => {
    const data = zipOf([
      {
        name: 'xl/workbook.xml',
        data: Buffer.from(
          '<workbook><sheets><sheet name="Data" sheetId="1" r:id="rId7"/></sheets></workbook>',
        ),
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: Buffer.from(
          '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
        ),
      },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(manyRows(2)) },
    ]);
    await refused(
      'norel.xlsx',
      data,
      /lists a sheet 'Data' that xl\/_rels\/workbook\.xml\.rels does not lead to/,
    );
  });

  it('a CSV with a lone surrogate (UTF-16, or written as UTF-8) or two encodings, however far down', async () => {
    const text = delimited(recordSheet(noticeFields, 600), ',');
    await refused('lone16.csv', utf16le(`${text}Ravi\ud800,x\r\n`), /^Line 602 holds half of a character/);
    const wtf8 = Buffer.concat([
      Buffer.from(`${text}Ravi`),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('\r\n'),
    ]);
    await refused('lone8.csv', wtf8, /^Line 602 holds half of a character/);
    const mixed = Buffer.concat([Buffer.from(`${text}José\r\n`), cp1252('Jos\xe9\r\n')]);
    await refused('mixed.csv', mixed, /mixes two text encodings: line 602 is UTF-8 but line 603 is not/);
  });

  it('a million-line CSV past IMPORT_MAX_ROWS: refused without reading it to its end', async () => {
    const file = path.join(t.config.dataDir, 'million.csv');
    const out = fs.createWriteStream(file);
    const write = (text: string) =>
      out.write(text) ? undefined : new Promise<void>((resolve) => out.once('drain', resolve));
    const [header, ...valid] = recordSheet(noticeFields, MAX_ROWS + 50);
    await write(delimited([header!, ...valid], ','));
    // The rest are rows with a loan number only: the file is 1,000,001 lines, about 8 MB.
    for (let line = valid.length; line < 1_000_000; line += 10_000) {
      let chunk = '';
      for (let i = line; i < Math.min(line + 10_000, 1_000_000); i++) chunk += `LN${i}\r\n`;
      await write(chunk);
    }
    await new Promise<void>((resolve, reject) =>
      out.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
    const data = fs.readFileSync(file);
    expect(data.toString('latin1').match(/\n/g)).toHaveLength(1_000_001);

    const who = await someone();
    const stored = await upload(who, 'million.csv', data);
    const preview = await t.app.inject({
      method: 'GET',
      url: `/api/imports/uploads/${stored}/preview?kind=notice`,
      headers: who.headers,
    });
    expect(preview.json()).toMatchObject({ tooManyRows: true, dataRows: MAX_ROWS });
    // 1,000 rows are written (in batches) before the row past the limit: all of them go.
    await refusedUpload(
      who,
      stored,
      /^The sheet has more than 1,000 rows, the most one import takes; split it into smaller files\.$/,
    );
  }, 60_000);

  it('a mapping naming an unknown field, or two columns for one field: 400, nothing queued', async () => {
    const who = await someone();
    const file = await upload(who, 'march.csv', Buffer.from(delimited(recordSheet(noticeFields, 2), ',')));
    const before = await written();
    const refusals: [unknown, RegExp][] = [
      [
        { headerRow: 1, columns: { '3': 'shoeSize' } },
        /^mapping: ‘shoeSize’ is not a field of this import\.$/,
      ],
      [
        { headerRow: 1, columns: { '0': 'custName', '1': 'custName' } },
        /Columns 0 and 1 both map to Customer Name/,
      ],
      [{ headerRow: 1, columns: { B: 'custName' } }, /Column "B" is not a column index: .*0-based index/],
    ];
    for (const [mapping, message] of refusals) {
      const res = await start(who, file, mapping);
      expect(res.statusCode, JSON.stringify(mapping)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const progress = await t.app.inject({
      method: 'GET',
      url: '/api/notices/by-user-id/progress-count',
      headers: who.headers,
    });
    expect(progress.json()).toEqual({ progressPercentage: null });
    expect(await written()).toEqual(before);
  });
});
