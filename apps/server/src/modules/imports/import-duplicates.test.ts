import fs from 'node:fs';
import path from 'node:path';
import { creditCardFields } from '@notice-desk/contract/credit-card';
import type { ImportPreview } from '@notice-desk/contract/imports';
import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp, signUp, uploadFile, type SignedIn, type TestApp } from '../../test/app.ts';
import { importReportLines, recordSheet, writeSheet } from '../../test/xlsx.ts';

/**
 * Rows already imported (issue 28): the Review mapping's report of them, and the three choices an
 * import makes about them (skip, import as new records, update the unserved records).
 */
let t: TestApp;
let db: Database;
let users = 0;
beforeAll(async () => {
  t = await createTestApp();
  db = (await openDatabase(t.config)).db;
});
afterAll(async () => {
  await db.destroy();
  await t.close();
});

const newUser = () => signUp(t.app, `dup${++users}`);

type Kind = 'notice' | 'credit-card';
const routes = {
  notice: {
    start: '/api/notices/upload-notice-info',
    progress: '/api/notices/by-user-id/progress-count',
    list: '/api/notices/by-user-id',
    fields: noticeFields,
  },
  'credit-card': {
    start: '/api/credit-cards/upload-credit-card-info',
    progress: '/api/credit-cards/by-user-id/credit-cards-progress-count',
    list: '/api/credit-cards/by-user-id',
    fields: creditCardFields,
  },
};

/** A sheet of the kind whose rows have these fields set (the others as recordSheet makes them). */
function sheet(kind: Kind, rows: Record<string, string>[], tag = 'r'): string[][] {
  const fields = routes[kind].fields;
  const [header, ...body] = recordSheet(fields, rows.length, tag);
  return [header!, ...body.map((row, i) => fields.map((f, c) => rows[i]![f.key] ?? row[c]!))];
}

async function xlsx(rows: string[][]): Promise<Buffer> {
  const file = path.join(t.config.dataDir, `fixture-${Math.random()}.xlsx`);
  await writeSheet(file, rows);
  return fs.readFileSync(file);
}

const csv = (rows: string[][]) =>
  Buffer.from(rows.map((row) => row.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(',')).join('\r\n'));

async function preview(who: SignedIn, kind: Kind, stored: string): Promise<ImportPreview> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/imports/uploads/${stored}/preview?kind=${kind}`,
    headers: who.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function start(who: SignedIn, kind: Kind, stored: string, name: string, duplicates?: unknown) {
  return t.app.inject({
    method: 'POST',
    url: routes[kind].start,
    headers: who.headers,
    payload: { file: stored, name, ...(duplicates !== undefined && { duplicates }) },
  });
}

async function finished(who: SignedIn, kind: Kind, jobId: string) {
  for (let i = 0; i < 400; i++) {
    const progress = (
      await t.app.inject({ method: 'GET', url: routes[kind].progress, headers: who.headers })
    ).json();
    if (progress.jobId === jobId && (progress.status === 'done' || progress.status === 'failed'))
      return progress;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('import did not finish');
}

/** Uploads and imports a file; answers the import's progress when done and its job id. */
async function importFile(
  who: SignedIn,
  kind: Kind,
  file: { name: string; data: Buffer },
  duplicates?: string,
) {
  const stored = await uploadFile(t.app, who, file.name, file.data);
  const res = await start(who, kind, stored, file.name.replace(/\.\w+$/, ''), duplicates);
  expect(res.statusCode, res.body).toBe(202);
  const jobId = res.json<{ jobId: string }>().jobId;
  return { progress: await finished(who, kind, jobId), jobId };
}

async function records(who: SignedIn, kind: Kind) {
  const res = await t.app.inject({
    method: 'GET',
    url: `${routes[kind].list}?limit=100`,
    headers: who.headers,
  });
  return res.json<{
    items: (Record<string, string> & { _id: string; campaignId: string })[];
    total: number;
  }>();
}

/** Marks a record served: a delivery of it reached the provider. */
async function serve(who: SignedIn, kind: Kind, record: { _id: string; campaignId: string }) {
  const at = new Date().toISOString();
  await db
    .insertInto('deliveries')
    .values({
      id: newId(),
      owner_id: who.userId,
      record_kind: kind,
      record_id: record._id,
      campaign_id: record.campaignId,
      channel: 'whatsapp',
      active_key: null,
      recipient: '919800000000',
      recipient_name: 'Borrower',
      status: 'sent',
      status_at: at,
      provider_message_id: `wamid.${newId()}`,
      error: null,
      pdf_sha256: null,
      pdf_key: null,
      created_at: at,
      attempted_at: at,
    })
    .execute();
}

async function campaign(who: SignedIn, id: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/campaigns/single-campaign/${id}`,
    headers: who.headers,
  });
  return res.json();
}

const loans = (...numbers: string[]) => numbers.map((loanNo) => ({ loanNo }));

/**
 * The first file (LN-1 … LN-4, LN-2 then served) and, against it, the second: LN-1 in other case and
 * spaces, LN-2 (served), two new loans and a repeat of one of them within the file.
 */
async function twoFiles(who: SignedIn) {
  await importFile(who, 'notice', {
    name: 'bank sheet.xlsx',
    data: await xlsx(sheet('notice', loans('LN-1', 'LN-2', 'LN-3', 'LN-4'))),
  });
  const first = await records(who, 'notice');
  await serve(
    who,
    'notice',
    first.items.find((r) => r.loanNo === 'LN-2')!,
  );
  const second = sheet(
    'notice',
    [
      { loanNo: '  ln-1 ', custName: 'Asha Rao' },
      { loanNo: 'LN-2', custName: 'Served Name' },
      { loanNo: 'LN-5' },
      { loanNo: 'LN-6' },
      { loanNo: 'ln-5 ' },
    ],
    's',
  );
  return { first, second };
}

describe('rows already imported, at import', () => {
  it('the Review mapping reports them with their campaign and service, and repeats within the file', async () => {
    const who = await newUser();
    const { second } = await twoFiles(who);
    const stored = await uploadFile(t.app, who, 'bank sheet.csv', csv(second));
    const report = (await preview(who, 'notice', stored)).duplicates;
    expect(report).toEqual({
      existing: 2,
      served: 1,
      inFile: 1,
      rows: [
        {
          rowNumber: 2,
          number: 'ln-1',
          matches: [{ campaignId: expect.any(String), campaignName: 'bank sheet', served: false }],
          repeatsRow: null,
        },
        {
          rowNumber: 3,
          number: 'LN-2',
          matches: [{ campaignId: expect.any(String), campaignName: 'bank sheet', served: true }],
          repeatsRow: null,
        },
        { rowNumber: 6, number: 'ln-5', matches: [], repeatsRow: 4 },
      ],
    });
    // Without scanning the file, nothing is looked up.
    const quick = await t.app.inject({
      method: 'GET',
      url: `/api/imports/uploads/${stored}/preview?kind=notice&scan=false`,
      headers: who.headers,
    });
    expect(quick.json().duplicates).toBeNull();
    // Another owner's records are never duplicates.
    const other = await newUser();
    const theirs = await uploadFile(t.app, other, 'bank sheet.csv', csv(second));
    expect((await preview(other, 'notice', theirs)).duplicates).toMatchObject({ existing: 0, inFile: 1 });
  });

  it('skips them by default, each in the report as already imported in its campaign, and says so on the campaign', async () => {
    const who = await newUser();
    const { second } = await twoFiles(who);
    const { progress, jobId } = await importFile(who, 'notice', { name: 'again.csv', data: csv(second) });
    expect(progress).toMatchObject({ status: 'done', imported: 2, skipped: 3, duplicates: 2, updated: 0 });
    const lines = await importReportLines(t.app, who, jobId);
    expect(lines).toEqual(
      expect.arrayContaining([
        ['2', 'Loan No.', 'Already imported in ‘bank sheet’.'],
        ['3', 'Loan No.', 'Already imported in ‘bank sheet’.'],
        ['6', 'Loan No.', 'Repeats row 4 (same Loan No.).'],
      ]),
    );
    const all = await records(who, 'notice');
    expect(all.total).toBe(6);
    const single = await campaign(who, progress.campaignId);
    expect(single.duplicates).toEqual({ choice: 'skip', rows: 2 });
    // The first campaign took no choice about duplicates: it had none to make.
    const first = all.items.find((r) => r.loanNo === 'LN-1')!;
    expect((await campaign(who, first.campaignId)).duplicates).toEqual({ choice: 'skip', rows: 0 });
  });

  it('imports them as new records when asked (a new notice round)', async () => {
    const who = await newUser();
    const { second } = await twoFiles(who);
    const { progress } = await importFile(
      who,
      'notice',
      { name: 'round 2.xlsx', data: await xlsx(second) },
      'new',
    );
    expect(progress).toMatchObject({ status: 'done', imported: 4, skipped: 1, duplicates: 2 });
    const all = await records(who, 'notice');
    expect(all.total).toBe(8);
    expect(all.items.filter((r) => r.loanNo!.trim().toLowerCase() === 'ln-1')).toHaveLength(2);
    expect((await campaign(who, progress.campaignId)).duplicates).toEqual({ choice: 'new', rows: 2 });
    // The list and the header search tell the copies apart by their campaign.
    expect(
      all.items
        .filter((r) => r.loanNo!.trim().toLowerCase() === 'ln-1')
        .map((r) => r.campaignName)
        .sort(),
    ).toEqual(['bank sheet', 'round 2']);
    const searched = await t.app.inject({ method: 'GET', url: '/api/search?q=ln-1', headers: who.headers });
    expect(
      searched
        .json<{ results: { campaignName: string }[] }>()
        .results.map((r) => r.campaignName)
        .sort(),
    ).toEqual(['bank sheet', 'round 2']);
    // A third import now finds both copies of LN-1, in both campaigns.
    const stored = await uploadFile(t.app, who, 'third.csv', csv(sheet('notice', loans('LN-1'))));
    const report = (await preview(who, 'notice', stored)).duplicates!;
    expect(report.rows[0]!.matches.map((m) => m.campaignName).sort()).toEqual(['bank sheet', 'round 2']);
  });

  it('updates the unserved records when asked, never a served one', async () => {
    const who = await newUser();
    const { first, second } = await twoFiles(who);
    const { progress, jobId } = await importFile(
      who,
      'notice',
      { name: 'corrections.csv', data: csv(second) },
      'update',
    );
    expect(progress, progress.error).toMatchObject({
      status: 'done',
      imported: 2,
      skipped: 2,
      duplicates: 2,
      updated: 1,
    });
    const lines = await importReportLines(t.app, who, jobId);
    expect(lines).toContainEqual([
      '3',
      'Loan No.',
      'Already imported in ‘bank sheet’, and served: not updated (a served record is never changed).',
    ]);
    const all = await records(who, 'notice');
    expect(all.total).toBe(6);
    const ln1 = all.items.find((r) => r.loanNo === 'LN-1')!;
    const before1 = first.items.find((r) => r.loanNo === 'LN-1')!;
    expect(ln1._id).toBe(before1._id);
    expect(ln1.custName).toBe('Asha Rao'); // the row's values, the record's own number
    const ln2 = all.items.find((r) => r.loanNo === 'LN-2')!;
    expect(ln2).toEqual(first.items.find((r) => r.loanNo === 'LN-2'));
    // The updated record is found by its new name; the old one finds nothing.
    const found = await t.app.inject({
      method: 'GET',
      url: `${routes.notice.list}?search=asha%20rao`,
      headers: who.headers,
    });
    expect(found.json().items.map((r: { _id: string }) => r._id)).toEqual([ln1._id]);
    expect((await campaign(who, progress.campaignId)).duplicates).toEqual({ choice: 'update', rows: 2 });
  });

  it('does not count a deleted record, and fails an import whose every row is already imported', async () => {
    const who = await newUser();
    await importFile(who, 'notice', {
      name: 'bank sheet.xlsx',
      data: await xlsx(sheet('notice', loans('LN-1', 'LN-2'))),
    });
    const ln1 = (await records(who, 'notice')).items.find((r) => r.loanNo === 'LN-1')!;
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/notices/${ln1._id}`,
      headers: who.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const stored = await uploadFile(t.app, who, 'again.csv', csv(sheet('notice', loans('ln-1', 'LN-2 '))));
    expect((await preview(who, 'notice', stored)).duplicates).toMatchObject({ existing: 1, inFile: 0 });
    const { progress } = await importFile(who, 'notice', {
      name: 'all again.csv',
      data: csv(sheet('notice', loans('LN-2'))),
    });
    expect(progress.status).toBe('failed');
    expect(progress.error).toMatch(/already imported/);
    expect((await records(who, 'notice')).total).toBe(1);
  });

  it('takes a credit card as a duplicate by its mask number and AAN together', async () => {
    const who = await newUser();
    const cards = (pairs: [string, string][]) => pairs.map(([maskNo, aanNo]) => ({ maskNo, aanNo }));
    await importFile(who, 'credit-card', {
      name: 'cards.xlsx',
      data: await xlsx(
        sheet(
          'credit-card',
          cards([
            ['XXXX-1234', 'AAN1'],
            ['XXXX-5678', 'AAN2'],
          ]),
        ),
      ),
    });
    const again = sheet(
      'credit-card',
      cards([
        ['xxxx-1234 ', ' aan1'], // the same card, in other case and spaces
        ['XXXX-1234', 'AAN9'], // the same mask, another AAN: a new card
        ['1234', 'AAN1'], // ends with the same digits: not the same mask number
      ]),
    );
    const stored = await uploadFile(t.app, who, 'cards.csv', csv(again));
    expect((await preview(who, 'credit-card', stored)).duplicates).toMatchObject({
      existing: 1,
      rows: [{ rowNumber: 2, number: 'xxxx-1234 / aan1' }],
    });
    const { progress } = await importFile(who, 'credit-card', { name: 'cards again.csv', data: csv(again) });
    expect(progress).toMatchObject({ status: 'done', imported: 2, skipped: 1, duplicates: 1 });
  });

  it('refuses a duplicates choice it does not know, saying which it takes', async () => {
    const who = await newUser();
    const stored = await uploadFile(t.app, who, 'x.csv', csv(sheet('notice', loans('LN-1'))));
    for (const bad of ['SKIP', 'delete', '', ' skip', 1, true, null, ['skip'], { skip: true }]) {
      const res = await start(who, 'notice', stored, 'x', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().message).toMatch(/duplicates must be 'skip'.*'new'.*'update'/);
    }
  });
});
