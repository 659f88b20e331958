import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { creditCardFields } from '@notice-desk/contract/credit-card';
import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditCardKind, noticeKind, type RecordKindInfo } from './modules/records/record-kinds.ts';
import { createTestApp, signUp, uploadFile, type SignedIn, type TestApp } from './test/app.ts';
import { multipart, recordSheet, writeSheet } from './test/xlsx.ts';
import { openDatabase } from './db/database.ts';

/**
 * Owners apart: another user, plain or ADMIN, who calls any route with the owner's ids gets a 404
 * (a 403 for the signed PDF link) or has those ids ignored, and the owner's data stays exactly as it was.
 */

type Kind = 'notice' | 'credit-card';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Everything the owner has that carries an id. */
interface Owned {
  records: Record<Kind, string[]>;
  /** One per kind from an import, plus the 'Manual entries' campaign of each kind. */
  campaigns: Record<Kind, string[]>;
  importJobs: string[];
  /** A stored upload name the owner has not imported yet. */
  upload: string;
  /** The notice page codes of the owner's sent records, and the answers a visitor left on one. */
  codes: string[];
  responses: string[];
}

interface Attacker {
  who: SignedIn;
  role: 'USER' | 'ADMIN';
  /** The attacker's own signed PDF link per kind, for grafting the owner's id onto. */
  ownPdfLink: Record<Kind, string>;
}

/** An answer the attacker got that it should not have; listed together, so one run names every gap. */
type Finding = string;
type Attack = (attacker: Attacker) => Promise<Finding[]>;

const kinds: Record<Kind, RecordKindInfo> = { notice: noticeKind, 'credit-card': creditCardKind };

let t: TestApp;
let owner: SignedIn;
let owned: Owned;
const attackers: Attacker[] = [];

const call = (who: SignedIn, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

/** Calls `url` with each of `ids` in place of `:id` and expects every answer to be `status`. */
async function expectEach(
  who: SignedIn,
  method: Method,
  route: string,
  ids: string[],
  status: number,
  payload?: (id: string) => object,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const id of ids) {
    const url = route.replace(/:(id|file)\b/, id);
    const res = await call(who, method, url, payload?.(id));
    if (res.statusCode !== status)
      findings.push(`${method} ${route} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
    else if (status >= 400 && res.json().statusCode !== status)
      findings.push(`${method} ${route} answered an error body without its status: ${res.body}`);
  }
  return findings;
}

const sample = (info: RecordKindInfo, tag: string) =>
  Object.fromEntries(info.fields.map((f) => [f.key, `${f.key} ${tag}`]));

/** Routes with an id-like `:param`, and how a non-owner calls each with the owner's ids. */
const idRoutes: Record<string, Attack> = {
  'GET /api/notices/:id': ({ who }) => expectEach(who, 'GET', '/api/notices/:id', owned.records.notice, 404),
  'PUT /api/notices/:id': ({ who }) =>
    expectEach(who, 'PUT', '/api/notices/:id', owned.records.notice, 404, () => sample(noticeKind, 'hijack')),
  'DELETE /api/notices/:id': ({ who }) =>
    expectEach(who, 'DELETE', '/api/notices/:id', owned.records.notice, 404),
  'GET /api/credit-cards/:id': ({ who }) =>
    expectEach(who, 'GET', '/api/credit-cards/:id', owned.records['credit-card'], 404),
  'PUT /api/credit-cards/:id': ({ who }) =>
    expectEach(who, 'PUT', '/api/credit-cards/:id', owned.records['credit-card'], 404, () =>
      sample(creditCardKind, 'hijack'),
    ),
  'DELETE /api/credit-cards/:id': ({ who }) =>
    expectEach(who, 'DELETE', '/api/credit-cards/:id', owned.records['credit-card'], 404),
  'GET /api/imports/:id/report': ({ who }) =>
    expectEach(who, 'GET', '/api/imports/:id/report', owned.importJobs, 404),
  // The upload's stored name is its id: another user's preview is as unknown as a missing one.
  'GET /api/imports/uploads/:file/preview': ({ who }) =>
    expectEach(who, 'GET', '/api/imports/uploads/:file/preview?kind=notice', [owned.upload], 404),
  'GET /api/campaigns/single-campaign/:id': ({ who }) =>
    expectEach(who, 'GET', '/api/campaigns/single-campaign/:id', allCampaigns(), 404),
  'GET /api/campaigns/single-campaign/:id/record-ids': ({ who }) =>
    expectEach(who, 'GET', '/api/campaigns/single-campaign/:id/record-ids', allCampaigns(), 404),
  'DELETE /api/campaigns/:id': ({ who }) =>
    expectEach(who, 'DELETE', '/api/campaigns/:id', allCampaigns(), 404),
  // Evidence bundles (being added): the same owner check as the record and the campaign.
  'GET /api/notices/:id/evidence': ({ who }) =>
    expectEach(who, 'GET', '/api/notices/:id/evidence', owned.records.notice, 404),
  'GET /api/credit-cards/:id/evidence': ({ who }) =>
    expectEach(who, 'GET', '/api/credit-cards/:id/evidence', owned.records['credit-card'], 404),
  'GET /api/campaigns/:id/evidence': ({ who }) =>
    expectEach(who, 'GET', '/api/campaigns/:id/evidence', allCampaigns(), 404),
  'GET /api/campaigns/:id/post': ({ who }) =>
    expectEach(who, 'GET', '/api/campaigns/:id/post', allCampaigns(), 404),
  'GET /api/campaigns/:id/post/print.pdf': ({ who }) =>
    expectEach(who, 'GET', '/api/campaigns/:id/post/print.pdf', allCampaigns(), 404),
  'GET /api/campaigns/:id/post/labels.pdf': ({ who }) =>
    expectEach(who, 'GET', '/api/campaigns/:id/post/labels.pdf', allCampaigns(), 404),
  'GET /api/campaigns/:id/post/booking.xlsx': ({ who }) =>
    expectEach(who, 'GET', '/api/campaigns/:id/post/booking.xlsx', allCampaigns(), 404),
  'GET /api/campaigns/:id/post/booking.csv': ({ who }) =>
    expectEach(who, 'GET', '/api/campaigns/:id/post/booking.csv', allCampaigns(), 404),
  'POST /api/campaigns/:id/post/articles': ({ who }) =>
    expectEach(who, 'POST', '/api/campaigns/:id/post/articles', allCampaigns(), 404, () => [
      { loanNo: 'loanNo owned', articleNumber: 'EE123456785IN' },
    ]),
  'POST /api/campaigns/:id/post/proofs': ({ who }) =>
    expectEach(who, 'POST', '/api/campaigns/:id/post/proofs', allCampaigns(), 404),
  'POST /api/notices/:id/post/proof': ({ who }) =>
    expectEach(who, 'POST', '/api/notices/:id/post/proof', owned.records.notice, 404),
  'POST /api/credit-cards/:id/post/proof': ({ who }) =>
    expectEach(who, 'POST', '/api/credit-cards/:id/post/proof', owned.records['credit-card'], 404),
  // What a delete would archive and erase: the same owner check as the delete itself.
  'GET /api/notices/:id/delete-preview': ({ who }) =>
    expectEach(who, 'GET', '/api/notices/:id/delete-preview', owned.records.notice, 404),
  'GET /api/credit-cards/:id/delete-preview': ({ who }) =>
    expectEach(who, 'GET', '/api/credit-cards/:id/delete-preview', owned.records['credit-card'], 404),
  'GET /api/campaigns/:id/delete-preview': ({ who }) =>
    expectEach(who, 'GET', '/api/campaigns/:id/delete-preview', allCampaigns(), 404),
  'GET /api/campaigns/:id/funnel': ({ who }) =>
    expectEach(who, 'GET', '/api/campaigns/:id/funnel', allCampaigns(), 404),
  // A campaign's fallback ladder (issue 31): read and set by its owner only.
  'GET /api/campaigns/:id/ladder': ({ who }) =>
    expectEach(who, 'GET', '/api/campaigns/:id/ladder', allCampaigns(), 404),
  'PUT /api/campaigns/:id/ladder': ({ who }) =>
    expectEach(who, 'PUT', '/api/campaigns/:id/ladder', allCampaigns(), 404, () => ({
      channels: ['email'],
      steps: [],
    })),
  // A campaign's own legal basis is an ADMIN's to set (a plain user is refused), and only on their own campaigns.
  'PUT /api/legal-basis/campaigns/:id': ({ who, role }) =>
    expectEach(
      who,
      'PUT',
      '/api/legal-basis/campaigns/:id',
      allCampaigns(),
      role === 'ADMIN' ? 404 : 403,
      () => ({
        basis: 'ni-138',
      }),
    ),
  'DELETE /api/legal-basis/campaigns/:id': ({ who, role }) =>
    expectEach(who, 'DELETE', '/api/legal-basis/campaigns/:id', allCampaigns(), role === 'ADMIN' ? 404 : 403),
  // Before a send (issue 28): the counts, the test send, the failed rows and Edit and resend check
  // the campaign's owner as the send does.
  'GET /api/campaigns/:id/send-summary': ({ who }) =>
    expectEach(who, 'GET', '/api/campaigns/:id/send-summary?channel=email', allCampaigns(), 404),
  'POST /api/campaigns/:id/send-summary': ({ who }) =>
    expectEach(who, 'POST', '/api/campaigns/:id/send-summary', allCampaigns(), 404, () => ({
      data: owned.records.notice.slice(0, 1),
    })),
  'POST /api/campaigns/:id/test-send': ({ who }) =>
    expectEach(who, 'POST', '/api/campaigns/:id/test-send', allCampaigns(), 404, () => ({
      channel: 'email',
      to: 'colleague@example.com',
    })),
  'GET /api/campaigns/:campaignId/failed-rows': ({ who }) =>
    expectEach(who, 'GET', '/api/campaigns/:id/failed-rows', allCampaigns(), 404),
  'POST /api/campaigns/:campaignId/records/:recordId/edit-and-resend': ({ who }) =>
    expectEach(
      who,
      'POST',
      `/api/campaigns/:id/records/${owned.records.notice[0]}/edit-and-resend`,
      allCampaigns(),
      404,
      () => ({ channel: 'email', emailId: 'attacker@example.com' }),
    ),
  // The ADMIN's archive: a plain user is refused; an ADMIN finds only archived records and campaigns
  // there, and the owner's are live.
  'GET /api/archive/notices/:id/evidence': ({ who, role }) =>
    expectEach(
      who,
      'GET',
      '/api/archive/notices/:id/evidence',
      owned.records.notice,
      role === 'ADMIN' ? 404 : 403,
    ),
  'GET /api/archive/credit-cards/:id/evidence': ({ who, role }) =>
    expectEach(
      who,
      'GET',
      '/api/archive/credit-cards/:id/evidence',
      owned.records['credit-card'],
      role === 'ADMIN' ? 404 : 403,
    ),
  'GET /api/archive/campaigns/:id/evidence': ({ who, role }) =>
    expectEach(
      who,
      'GET',
      '/api/archive/campaigns/:id/evidence',
      allCampaigns(),
      role === 'ADMIN' ? 404 : 403,
    ),
  // No bearer header here: the link is the permission. The attacker's own valid signature with the
  // owner's id in it must not open the owner's PDF (a 403, as for any link that does not match).
  'GET /api/pdf/:kind/:id': async ({ ownPdfLink }) => {
    const findings: Finding[] = [];
    for (const kind of ['notice', 'credit-card'] as const) {
      for (const id of owned.records[kind]) {
        const url = ownPdfLink[kind].replace(/\/[0-9a-f-]{36}\?/, `/${id}?`);
        const res = await t.app.inject({ method: 'GET', url });
        if (res.statusCode !== 403) findings.push(`GET ${url} answered ${res.statusCode}`);
      }
    }
    return findings;
  },
  // Notice pages: a borrower's answers are their owner's alone, an ADMIN's too (records are never shared).
  'POST /api/responses/:id/handled': ({ who }) =>
    expectEach(who, 'POST', '/api/responses/:id/handled', owned.responses, 404),
  'GET /api/responses/:id/file': ({ who }) =>
    expectEach(who, 'GET', '/api/responses/:id/file', owned.responses, 404),
  // Revoking is an ADMIN's, on any owner's link (notice-pages.routes.test.ts revokes one); a plain user is refused.
  'POST /api/notice-links/:code/revoke': ({ who, role }) =>
    role === 'ADMIN'
      ? Promise.resolve([])
      : expectEach(who, 'POST', '/api/notice-links/:id/revoke', owned.codes, 403),
  // The public page: the code is known to whoever got the message, so it opens only the check. A session,
  // however strong, is no token for a code: everything past the check answers 401.
  'GET /api/public/notices/:code': async () => [],
  // The verification page (issue 30): public by design, it shows no personal data but the account's
  // last four characters (modules/verify/verify.test.ts checks what it answers).
  'GET /api/public/verify/:code': async () => [],
  'POST /api/public/notices/:code/verify': async () => [],
  'GET /api/public/notices/:code/details': ({ who }) =>
    expectEach(who, 'GET', '/api/public/notices/:id/details', owned.codes, 401),
  'GET /api/public/notices/:code/pdf': ({ who }) =>
    expectEach(who, 'GET', '/api/public/notices/:id/pdf', owned.codes, 401),
  'POST /api/public/notices/:code/acknowledge': ({ who }) =>
    expectEach(who, 'POST', '/api/public/notices/:id/acknowledge', owned.codes, 401),
  'POST /api/public/notices/:code/payment-link': ({ who }) =>
    expectEach(who, 'POST', '/api/public/notices/:id/payment-link', owned.codes, 401),
  'POST /api/public/notices/:code/respond': ({ who }) =>
    expectEach(who, 'POST', '/api/public/notices/:id/respond', owned.codes, 401, () => ({
      kind: 'dispute',
      text: 'not mine',
    })),
  // Templates belong to no user: anyone signed in reads them, and only an ADMIN writes them
  // (security.test.ts proves the 403 for every template write).
  'GET /api/whatsapptemplates/:id': async () => [],
  'PUT /api/whatsapptemplates/update/:id': async () => [],
  'GET /api/emailTemplates/:id': async () => [],
  'PUT /api/emailTemplates/update/:id': async () => [],
  // A template's language variants are templates too (template-languages.routes.test.ts: 403 for a plain user).
  'POST /api/whatsapptemplates/:id/variants': async () => [],
  'POST /api/emailTemplates/:id/variants': async () => [],
  // A password-reset token is a secret mailed to the account, not the id of something owned
  // (auth.routes.test.ts: used, expired and unknown tokens are refused).
  'PUT /api/auth/reset-password/:token': async () => [],
  // Accounts are the ADMINs' to manage (users.routes.test.ts): a plain user is refused on the owner's id.
  'PATCH /api/users/:id': ({ who, role }) =>
    role === 'ADMIN'
      ? Promise.resolve([])
      : expectEach(who, 'PATCH', '/api/users/:id', [owner.userId], 403, () => ({ disabled: true })),
  'POST /api/users/:id/password': ({ who, role }) =>
    role === 'ADMIN'
      ? Promise.resolve([])
      : expectEach(who, 'POST', '/api/users/:id/password', [owner.userId], 403, () => ({})),
  // sessions.routes.test.ts: a plain user ending anyone's sessions, their own included, gets 403.
  'POST /api/users/:id/end-sessions': ({ who, role }) =>
    role === 'ADMIN'
      ? Promise.resolve([])
      : expectEach(who, 'POST', '/api/users/:id/end-sessions', [owner.userId], 403),
};

/** Routes that take the owner's ids in a body or query, and bulk deletes: the owner's ids are ignored. */
const idBodyRoutes: Record<string, Attack> = {
  'POST /api/campaigns/send-mail': async ({ who }) => {
    const findings: Finding[] = [];
    for (const type of ['notice', 'credit-card'] as const) {
      for (const resend of [false, true]) {
        const data = owned.records[type];
        const res = await call(who, 'POST', '/api/campaigns/send-mail', { data, type, resend });
        const answer = res.json();
        if (res.statusCode !== 200 || answer.ignored !== data.length || answer.sent + answer.queued > 0)
          findings.push(`send-mail ${type} resend=${resend} answered ${res.statusCode}: ${res.body}`);
      }
    }
    return findings;
  },
  'POST /api/notices/delete-all-notices': ({ who }) => deleteAll(who, noticeKind),
  'POST /api/credit-cards/delete-all-credit-cards': ({ who }) => deleteAll(who, creditCardKind),
  'POST /api/notices/upload-notice-info': ({ who }) =>
    expectEach(who, 'POST', '/api/notices/upload-notice-info', [owned.upload], 404, (file) => ({ file })),
  'POST /api/credit-cards/upload-credit-card-info': ({ who }) =>
    expectEach(who, 'POST', '/api/credit-cards/upload-credit-card-info', [owned.upload], 404, (file) => ({
      file,
    })),
  'GET /api/campaigns/export-reports/:type': ({ who }) => exportEach(who, 'export-reports'),
  'GET /api/campaigns/export-campaign/:type': ({ who }) => exportEach(who, 'export-campaign'),
};

function allCampaigns(): string[] {
  return [...owned.campaigns.notice, ...owned.campaigns['credit-card']];
}

async function deleteAll(who: SignedIn, info: RecordKindInfo): Promise<Finding[]> {
  const res = await call(who, 'POST', info.routes.deleteAll);
  // The attacker's own records (one per kind) may go; none of the owner's.
  return res.statusCode === 200 && res.json().deleted <= 1
    ? []
    : [`POST ${info.routes.deleteAll} answered ${res.statusCode}: ${res.body}`];
}

async function exportEach(who: SignedIn, what: 'export-reports' | 'export-campaign'): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const type of ['notice', 'credit-card'] as const) {
    for (const id of owned.campaigns[type]) {
      const res = await call(who, 'GET', `/api/campaigns/${what}/${type}?campaignid=${id}`);
      if (res.statusCode !== 404) findings.push(`GET ${what}/${type} answered ${res.statusCode}`);
    }
  }
  return findings;
}

/** A `:param` that names a thing (an id, a token), not one of a fixed set of words such as `:type`. */
const takesId = (url: string) => /:(?!type\b|kind\b)\w+/.test(url);
const routeKeys = () => t.app.routeTable.map((r) => `${r.method} ${r.url}`);

async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const file = path.join(t.config.dataDir, `fixture-${Math.random()}.xlsx`);
  await writeSheet(file, rows);
  const data = fs.readFileSync(file);
  fs.rmSync(file);
  return data;
}

const upload = (who: SignedIn, data: Buffer, name: string) => uploadFile(t.app, who, name, data);

async function importFinished(who: SignedIn, kind: Kind): Promise<{ jobId: string; campaignId: string }> {
  const url =
    kind === 'notice'
      ? '/api/notices/by-user-id/progress-count'
      : '/api/credit-cards/by-user-id/credit-cards-progress-count';
  for (let i = 0; i < 400; i++) {
    const progress = (await call(who, 'GET', url)).json();
    if (progress.status === 'done') return progress;
    if (progress.status === 'failed') throw new Error(`import failed: ${progress.error}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('import did not finish');
}

/** Imports `count` rows (the second one invalid, for a non-empty report) into a campaign of `kind`. */
async function importRecords(who: SignedIn, kind: Kind, count: number): Promise<void> {
  const rows = recordSheet(kind === 'notice' ? noticeFields : creditCardFields, count, `imp-${kind}-`);
  rows[2]![0] = '';
  const stored = await upload(who, await xlsx(rows), `${kind} batch.xlsx`);
  const start =
    kind === 'notice' ? '/api/notices/upload-notice-info' : '/api/credit-cards/upload-credit-card-info';
  const res = await call(who, 'POST', start, { file: stored, name: `Imported ${kind}` });
  expect(res.statusCode, res.body).toBe(202);
}

async function createRecord(who: SignedIn, info: RecordKindInfo, tag: string, extra: object = {}) {
  const res = await call(who, 'POST', info.routes.base, { ...sample(info, tag), ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ _id: string; campaignId: string }>();
}

async function pdfLinkOf(who: SignedIn, info: RecordKindInfo): Promise<string> {
  const list = (await call(who, 'GET', info.routes.list)).json();
  return `${list.pdfUrl}${list.items[0].pdfLink}`;
}

/** A signed link's expiry and signature are made at read time, not stored: they are left out of the comparison. */
const unsigned = (body: string) => body.replace(/expires=\d+&signature=[\w-]+/g, 'expires=…&signature=…');

/** Everything the owner can read back, and the bytes of every file under DATA_DIR but the database. */
async function ownerSnapshot(): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  const read = async (url: string) => {
    const res = await call(owner, 'GET', url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    const json = res.headers['content-type']?.toString().startsWith('application/json');
    snapshot[url] = json ? unsigned(res.body) : createHash('sha256').update(res.rawPayload).digest('hex');
  };
  for (const kind of ['notice', 'credit-card'] as const) {
    const info = kinds[kind];
    for (const id of owned.records[kind]) await read(`${info.routes.base}/${id}`);
    await read(`${info.routes.list}?limit=100`);
    await read(`/api/campaigns/${kind}?limit=100`);
    for (const id of owned.campaigns[kind]) await read(`/api/campaigns/single-campaign/${id}?limit=100`);
    const link = await pdfLinkOf(owner, info);
    const pdf = await t.app.inject({ method: 'GET', url: link });
    expect(pdf.statusCode).toBe(200);
    snapshot[`pdf ${kind}`] = createHash('sha256').update(pdf.rawPayload).digest('hex');
  }
  await read('/api/dashboard');
  await read('/api/responses?limit=100');
  await read('/api/notices/by-user-id/progress-count');
  await read('/api/credit-cards/by-user-id/credit-cards-progress-count');
  // A report is written afresh on each read (its zip carries the time): its rows are compared.
  for (const id of owned.importJobs) {
    const res = await call(owner, 'GET', `/api/imports/${id}/report`);
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    snapshot[`report ${id}`] = JSON.stringify(workbook.worksheets[0]!.getSheetValues());
  }
  for (const file of filesUnder(t.config.dataDir)) {
    if (/\.sqlite/.test(file)) continue;
    snapshot[`file ${path.relative(t.config.dataDir, file)}`] = createHash('sha256')
      .update(fs.readFileSync(file))
      .digest('hex');
  }
  return snapshot;
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    )
    .sort();
}

/** Reads until two snapshots in a row agree: background work (renders, sends) has settled. */
async function settledSnapshot(): Promise<Record<string, string>> {
  let previous = await ownerSnapshot();
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 200));
    const next = await ownerSnapshot();
    if (JSON.stringify(next) === JSON.stringify(previous)) return next;
    previous = next;
  }
  throw new Error('the owner’s data kept changing with no one calling');
}

let before: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  // The first account is the ADMIN: an ADMIN may not reach another user's records either.
  const admin = await signUp(t.app, 'root');
  owner = await signUp(t.app, 'asha');
  const plain = await signUp(t.app, 'ravi');

  const manualNotice = await createRecord(owner, noticeKind, 'manual', {
    emailId: 'asha.customer@example.com',
    custMobileNo: '9876543210',
    modeOfDispatch: 'Email and WhatsApp',
  });
  const manualCard = await createRecord(owner, creditCardKind, 'manual', {
    emailId: 'card.customer@example.com',
    custMobileNo: '9876543211',
  });
  await importRecords(owner, 'notice', 3);
  const notices = await importFinished(owner, 'notice');
  await importRecords(owner, 'credit-card', 3);
  const cards = await importFinished(owner, 'credit-card');
  const upload_ = await upload(owner, await xlsx(recordSheet(noticeFields, 1)), 'not yet imported.xlsx');

  const ids = async (info: RecordKindInfo) =>
    (await call(owner, 'GET', `${info.routes.list}?limit=100`))
      .json()
      .items.map((r: { _id: string }) => r._id);
  owned = {
    records: { notice: await ids(noticeKind), 'credit-card': await ids(creditCardKind) },
    campaigns: {
      notice: [manualNotice.campaignId, notices.campaignId],
      'credit-card': [manualCard.campaignId, cards.campaignId],
    },
    importJobs: [notices.jobId, cards.jobId],
    upload: upload_,
    codes: [],
    responses: [],
  };
  expect(owned.records.notice).toHaveLength(3);
  expect(owned.records['credit-card']).toHaveLength(3);

  // Deliveries: the owner sends a notice and a credit card (to the outbox: no SMTP or WhatsApp here).
  for (const [type, id] of [
    ['notice', manualNotice._id],
    ['credit-card', manualCard._id],
  ] as const) {
    const sent = await call(owner, 'POST', '/api/campaigns/send-mail', { data: [id], type });
    expect(sent.json(), sent.body).toMatchObject({ sent: 2, failed: 0 });
  }
  // Each send made its record's notice page code; a visitor answers the check and disputes, with a file.
  const { db } = await openDatabase(t.config);
  const links = await db.selectFrom('notice_links').select(['code', 'record_id']).execute();
  owned.codes = links.map((link) => link.code);
  await db.destroy();
  expect(owned.codes).toHaveLength(2);
  const noticeCode = links.find((link) => link.record_id === manualNotice._id)!.code;
  const answer = await t.app.inject({
    method: 'POST',
    url: `/api/public/notices/${noticeCode}/verify`,
    payload: { answer: '3210' },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  const disputed = multipart(
    { kind: 'dispute', text: 'Not my loan.' },
    { name: 'proof.pdf', data: Buffer.from('%PDF-1.4 proof') },
  );
  const dispute = await t.app.inject({
    method: 'POST',
    url: `/api/public/notices/${noticeCode}/respond`,
    headers: { authorization: `Bearer ${answer.json().token}`, ...disputed.headers },
    payload: disputed.payload,
  });
  expect(dispute.statusCode, dispute.body).toBe(200);
  owned.responses = (await call(owner, 'GET', '/api/responses'))
    .json()
    .items.map((r: { id: string }) => r.id);
  expect(owned.responses).toHaveLength(1);

  for (const [who, role] of [
    [plain, 'USER'],
    [admin, 'ADMIN'],
  ] as const) {
    await createRecord(who, noticeKind, `of ${role}`);
    await createRecord(who, creditCardKind, `of ${role}`);
    attackers.push({
      who,
      role,
      ownPdfLink: {
        notice: await pdfLinkOf(who, noticeKind),
        'credit-card': await pdfLinkOf(who, creditCardKind),
      },
    });
  }
  before = await settledSnapshot();
});
afterAll(async () => t.close());

describe('another user’s ids', () => {
  it('have a way to be tried on every route that takes an id, so a new route cannot slip by', () => {
    const routes = routeKeys();
    expect(routes.filter((r) => takesId(r) && !(r in idRoutes))).toEqual([]);
    // The routes that carry ids in a body or query are still there under these names.
    expect(Object.keys(idBodyRoutes).filter((r) => !routes.includes(r))).toEqual([]);
    // Proves the filter sees ids: the records' own routes take one.
    expect(routes.filter(takesId)).toEqual(expect.arrayContaining(['GET /api/notices/:id']));
  });

  it.each(['USER', 'ADMIN'] as const)(
    'answer 404 (403 for a signed PDF link) to a signed-in %s on every route, and are ignored in bulk',
    async (role) => {
      const attacker = attackers.find((a) => a.role === role)!;
      const routes = routeKeys();
      const findings: Finding[] = [];
      for (const route of routes.filter((r) => takesId(r) && r in idRoutes))
        findings.push(...(await idRoutes[route]!(attacker)));
      for (const [route, attack] of Object.entries(idBodyRoutes))
        if (routes.includes(route)) findings.push(...(await attack(attacker)));
      expect(findings).toEqual([]);
    },
  );

  it('leave the owner’s records, campaigns, deliveries, reports, PDFs and files exactly as they were', async () => {
    const after = await settledSnapshot();
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const key of Object.keys(before)) expect(after[key], key).toBe(before[key]);
    // The snapshot holds what it should: the deliveries of the sends, the upload, the PDFs.
    expect(before['/api/dashboard']).toMatch(/"status":"outbox"/);
    expect(Object.keys(before).some((k) => k.includes(owned.upload))).toBe(true);
    expect(Object.keys(before).filter((k) => k.startsWith('file pdfs')).length).toBeGreaterThan(0);
  });
});
