import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, uploadFile, type SignedIn, type TestApp } from '../../test/app.ts';

const MAX_ROWS = 1000;

let t: TestApp;
let users = 0;
beforeAll(async () => {
  t = await createTestApp({ IMPORT_MAX_ROWS: String(MAX_ROWS), UPLOAD_MAX_MB: '20' });
});
afterAll(async () => {
  await t?.close();
});

/** Each test previews as a user of its own. */
const someone = () => signUp(t.app, `previewer${++users}`);

const preview = (who: SignedIn, file: string, query = '') =>
  t.app.inject({
    method: 'GET',
    url: `/api/imports/uploads/${file}/preview?kind=notice${query}`,
    headers: who.headers,
  });

/** The slowest answer of /api/health, asked every 20 ms while `work` runs. */
async function slowestHealthDuring<T>(work: Promise<T>): Promise<{ result: T; slowestMs: number }> {
  let done = false;
  let slowestMs = 0;
  const watching = (async () => {
    while (!done) {
      const started = performance.now();
      await t.app.inject({ method: 'GET', url: '/api/health' });
      slowestMs = Math.max(slowestMs, performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const result = await work.finally(() => (done = true));
  await watching;
  return { result, slowestMs };
}

describe('previewing a CSV built to stop the server', () => {
  it('refuses a header of millions of cells with a 400 naming the column limit, while /api/health answers', async () => {
    const who = await someone();
    // 5 MB: 2.5 million empty headers after the loan number.
    const file = await uploadFile(
      t.app,
      who,
      'wide.csv',
      Buffer.from(`Loan No.,${'H,'.repeat(2_500_000)}\n1,2\n`),
    );
    const { result, slowestMs } = await slowestHealthDuring(preview(who, file));
    expect(result.statusCode, result.body.slice(0, 500)).toBe(400);
    expect(result.json().message).toBe(
      'Row 1 has more than 16,384 columns, the most a sheet of Excel has: the file is not a sheet saved as CSV. Check it in Excel and save it again, keeping only the columns the import needs.',
    );
    expect(slowestMs).toBeLessThan(1000);
  }, 60_000);

  it('lists the first 100 columns and every column that fills a field, and says how many there are', async () => {
    const who = await someone();
    // 16,384 columns, Excel's most: 19 rows of fillers above the header row (each looked at for the
    // header), the wizard's headers at the far end of it.
    const fillers = Array.from({ length: 16_384 - noticeFields.length }, (_, i) => `Extra ${i + 1}`);
    const above = Array.from({ length: 19 }, () => [...fillers, ...noticeFields.map(() => 'x')].join(','));
    const headers = [...fillers, ...noticeFields.map((f) => f.label)];
    const row = [...fillers.map(() => 'x'), ...noticeFields.map((f) => `${f.key} r1`)];
    const csv = [...above, headers.join(','), row.join(',')].join('\n');
    const file = await uploadFile(t.app, who, 'wide.csv', Buffer.from(`${csv}\n`));
    const { result, slowestMs } = await slowestHealthDuring(preview(who, file));
    expect(result.statusCode, result.body.slice(0, 500)).toBe(200);
    const body = result.json();
    expect(body.headerRow).toBe(20);
    expect(body.columnCount).toBe(16_384);
    expect(body.columns).toHaveLength(100 + noticeFields.length);
    expect(body.columns.at(-1)).toMatchObject({ index: 16_383, header: noticeFields.at(-1)!.label });
    expect(body).toMatchObject({ complete: true, dataRows: 1, problemRows: 0 });
    expect(body.rows[0].cells[16_384 - noticeFields.length]).toBe(`${noticeFields[0]!.key} r1`);
    expect(body.rows[0].cells[200]).toBe(''); // a column not listed
    expect(result.body.length).toBeLessThan(200_000);
    expect(slowestMs).toBeLessThan(1000);
  }, 60_000);

  it('stops reading a million short lines at the import limit instead of running out of memory', async () => {
    const who = await someone();
    const headers = noticeFields.map((f) => f.label).join(',');
    const file = await uploadFile(
      t.app,
      who,
      'long.csv',
      Buffer.from(`${headers}\n${'1\n'.repeat(1_000_000)}`),
    );
    const started = performance.now();
    const { result, slowestMs } = await slowestHealthDuring(preview(who, file));
    expect(result.statusCode, result.body.slice(0, 500)).toBe(200);
    expect(result.json()).toMatchObject({ tooManyRows: true, dataRows: MAX_ROWS });
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(slowestMs).toBeLessThan(1000);
  }, 60_000);
});

describe('column keys of a mapping', () => {
  const csv = () =>
    Buffer.from(
      `${noticeFields.map((f) => f.label).join(',')}\n${noticeFields.map((f) => `${f.key} r1`).join(',')}\n`,
    );
  const columnKey = (key: string) =>
    `Column "${key}" is not a column index: a column is named by its 0-based index, such as "0" or "12".`;

  it('refuses "00" beside "0" and a "__proto__" key with a 400 naming the key, in the preview and the start', async () => {
    const who = await someone();
    const file = await uploadFile(t.app, who, 'keys.csv', csv());
    for (const [columns, key] of [
      ['{"0":null,"00":"loanNo"}', '00'],
      ['{"__proto__":"loanNo"}', '__proto__'],
    ] as const) {
      const answer = await preview(who, file, `&columns=${encodeURIComponent(columns)}`);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().message).toContain(columnKey(key));
    }
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/notices/upload-notice-info',
      headers: { ...who.headers, 'content-type': 'application/json' },
      payload: `{"file":"${file}","mapping":{"headerRow":1,"columns":{"0":"loanNo","00":null}}}`,
    });
    expect(started.statusCode, started.body).toBe(400);
    expect(started.json().message).toContain(columnKey('00'));
    const proto = await t.app.inject({
      method: 'POST',
      url: '/api/notices/upload-notice-info',
      headers: { ...who.headers, 'content-type': 'application/json' },
      payload: `{"file":"${file}","mapping":{"headerRow":1,"columns":{"__proto__":"loanNo"}}}`,
    });
    expect(proto.statusCode, proto.body).toBe(400);
    expect(proto.json().message).toMatch(/uses __proto__ .* as a key; those keys are not allowed/);
  });
});

describe("Excel's 'Unicode Text' (.txt)", () => {
  it('is uploaded, previewed and imported as tab-separated text; a binary .txt is refused as not text', async () => {
    const who = await someone();
    const lines = [noticeFields.map((f) => f.label), noticeFields.map((f) => `${f.key} r1`)];
    const text = lines.map((cells) => cells.join('\t')).join('\r\n');
    const file = await uploadFile(
      t.app,
      who,
      'March allocation.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    );
    const answer = await preview(who, file);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ fileName: 'March allocation.txt', complete: true, dataRows: 1 });
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/notices/upload-notice-info',
      headers: who.headers,
      payload: { file },
    });
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json().message).toBe('The import of March allocation is in process.');
    await expect(
      uploadFile(t.app, who, 'photo.txt', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 0])),
    ).rejects.toThrow(/400.*not a text file/);
  });
});
