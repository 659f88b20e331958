import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceRecord } from '@notice-desk/contract/evidence';
import { openDatabase, type Database } from '../../db/database.ts';
import type { Channel } from '../../db/schema.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { seedDelivery } from '../../test/deliveries.ts';
import { seedPageEvent, seedResponse, type PageOf } from '../../test/notice-page.ts';
import { pdftotext } from '../../test/pdf-text.ts';
import { unzip } from '../../test/zip.ts';
import { noticeKind } from '../records/record-kinds.ts';
import * as deliveries from '../sending/deliveries.repository.ts';
import { addDays, dayIn, ddmmyyyy } from './service-dates.ts';

let t: TestApp;
let db: Database;
let admin: SignedIn;
let users = 0;

beforeAll(async () => {
  t = await createTestApp();
  db = (await openDatabase(t.config, { checkpointer: false })).db;
  // The first account is the ADMIN.
  admin = await signUp(t.app, 'root');
}, 60_000);
afterAll(async () => {
  await db.destroy();
  await t.close();
});

const call = (who: SignedIn, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: who.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function notice(who: SignedIn, i: number): Promise<PageOf> {
  const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${i}`]));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/notices',
    headers: who.headers,
    payload: {
      ...fields,
      custName: `Customer ${i}`,
      emailId: `c${i}@example.com`,
      custMobileNo: `98765${String(i).padStart(5, '0')}`,
      modeOfDispatch: 'Email and WhatsApp',
    },
  });
  const body = res.json<{ _id: string; campaignId: string }>();
  return { owner_id: who.userId, record_id: body._id, campaign_id: body.campaignId };
}

const DAY = 86_400_000;
/** One instant for the file: a trail seeded at the start and checked later (a loaded machine, seconds on) agree. */
const BASE = Date.now();
const ago = (days: number, hours = 0) => new Date(BASE - days * DAY - hours * 3_600_000).toISOString();

/** A send on `channel` as the trail records it: queued, then each status at its time. */
async function sendTrail(
  page: PageOf,
  channel: Channel,
  steps: [status: 'sent' | 'delivered' | 'read', at: string][],
) {
  const id = await seedDelivery(db, { ...page, channel });
  let from: deliveries.DeliveryRow['status'] = 'queued';
  for (const [status, at] of steps) {
    await deliveries.advanceStatus(db, { id, status: from }, status, at);
    from = status;
  }
}

const newUser = () => signUp(t.app, `clerk${++users}`);

describe('legal basis settings', () => {
  it('are none at first; an ADMIN sets a kind’s basis, audited; a plain user may read but not change it', async () => {
    const clerk = await newUser();
    expect((await call(clerk, 'GET', '/api/legal-basis')).json()).toEqual({
      kinds: { notice: null, 'credit-card': null },
      deemedServiceDays: 30,
    });
    const refused = await call(clerk, 'PUT', '/api/legal-basis/kinds/notice', { basis: 'ni-138' });
    expect(refused.statusCode).toBe(403);

    const set = await call(admin, 'PUT', '/api/legal-basis/kinds/notice', { basis: 'ni-138' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({
      basis: 'ni-138',
      label: 'NI Act s.138',
      periodDays: 15,
      source: 'kind',
    });
    const other = await call(admin, 'PUT', '/api/legal-basis/kinds/credit-card', {
      basis: 'other',
      periodDays: 21,
      label: '  Conciliation ',
    });
    expect(other.json()).toMatchObject({ basis: 'other', label: 'Conciliation', periodDays: 21 });
    const settings = (await call(clerk, 'GET', '/api/legal-basis')).json();
    expect(settings.kinds.notice).toMatchObject({ periodDays: 15, servedWhen: 'first-event' });
    expect(settings.kinds['credit-card']).toMatchObject({ label: 'Conciliation' });

    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'subject_id', 'summary', 'actor_id'])
      .where('action', 'like', 'legal-basis.%')
      .orderBy('at')
      .execute();
    expect(audit).toEqual([
      expect.objectContaining({ action: 'legal-basis.set', subject_id: 'notice', actor_id: admin.userId }),
      expect.objectContaining({ action: 'legal-basis.set', subject_id: 'credit-card' }),
    ]);
    expect(audit[1]!.summary).toBe('Legal basis of credit-card records: Conciliation, 21 days from service');

    expect(
      (await call(admin, 'DELETE', '/api/legal-basis/kinds/credit-card')).json().kinds['credit-card'],
    ).toBeNull();
  });

  it('refuses every bad body with a 400 that names what is wrong, and changes nothing', async () => {
    const before = (await call(admin, 'GET', '/api/legal-basis')).json();
    const cases: [string, unknown, string][] = [
      [
        '/api/legal-basis/kinds/notice',
        { basis: 'ni-139' },
        "basis must be 'ni-138', 'sarfaesi-13-2' or 'other'.",
      ],
      ['/api/legal-basis/kinds/notice', {}, "basis must be 'ni-138', 'sarfaesi-13-2' or 'other'."],
      [
        '/api/legal-basis/kinds/notice',
        { basis: 'other', label: 'Conciliation' },
        "periodDays is needed for 'other'",
      ],
      ['/api/legal-basis/kinds/notice', { basis: 'other', periodDays: 10 }, "label is needed for 'other'"],
      [
        '/api/legal-basis/kinds/notice',
        { basis: 'other', periodDays: 10, label: '   ' },
        "label is needed for 'other'",
      ],
      [
        '/api/legal-basis/kinds/notice',
        { basis: 'other', periodDays: 0, label: 'X' },
        'periodDays must be from 1 to 365.',
      ],
      [
        '/api/legal-basis/kinds/notice',
        { basis: 'other', periodDays: 366, label: 'X' },
        'periodDays must be from 1 to 365.',
      ],
      [
        '/api/legal-basis/kinds/notice',
        { basis: 'other', periodDays: 1.5, label: 'X' },
        'periodDays must be a whole number of days.',
      ],
      [
        '/api/legal-basis/kinds/notice',
        { basis: 'other', periodDays: '15', label: 'X' },
        'periodDays must be a whole number of days.',
      ],
      [
        '/api/legal-basis/kinds/notice',
        { basis: 'other', periodDays: 15, label: 'x'.repeat(61) },
        'label must be at most 60 characters.',
      ],
      [
        '/api/legal-basis/kinds/notice',
        { basis: 'ni-138', periodDays: 30 },
        'periodDays is fixed by NI Act s.138 at 15 days',
      ],
      [
        '/api/legal-basis/kinds/notice',
        { basis: 'sarfaesi-13-2', servedWhen: 'never' },
        "servedWhen must be 'first-event'.",
      ],
      ['/api/legal-basis/kinds/notice', [{ basis: 'ni-138' }], 'body'],
      ['/api/legal-basis/kinds/loan', { basis: 'ni-138' }, "type must be 'credit-card' or 'notice'."],
      ['/api/legal-basis/campaigns/%27%20or%201=1', { basis: 'ni-138' }, 'id'],
    ];
    for (const [url, body, words] of cases) {
      const res = await call(admin, 'PUT', url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toContain(words);
    }
    expect((await call(admin, 'GET', '/api/legal-basis')).json()).toEqual(before);
  });

  it('lets an ADMIN give one of their campaigns its own basis over the kind’s, and take it back', async () => {
    await call(admin, 'PUT', '/api/legal-basis/kinds/notice', { basis: 'ni-138' });
    const mine = await notice(admin, 1);
    const campaign = async () =>
      (await call(admin, 'GET', `/api/campaigns/single-campaign/${mine.campaign_id}`)).json().legalBasis;
    expect(await campaign()).toMatchObject({ label: 'NI Act s.138', source: 'kind' });
    const set = await call(admin, 'PUT', `/api/legal-basis/campaigns/${mine.campaign_id}`, {
      basis: 'sarfaesi-13-2',
    });
    expect(set.json()).toMatchObject({
      basis: { label: 'SARFAESI s.13(2)', periodDays: 60, source: 'campaign' },
    });
    expect(await campaign()).toMatchObject({ periodDays: 60, source: 'campaign' });
    await call(admin, 'DELETE', `/api/legal-basis/campaigns/${mine.campaign_id}`);
    expect(await campaign()).toMatchObject({ periodDays: 15, source: 'kind' });

    // Another user's campaign is not the ADMIN's to reach (owners apart), and one that does not exist is not found.
    const clerk = await newUser();
    const theirs = await notice(clerk, 2);
    for (const id of [theirs.campaign_id, '01890000-0000-7000-8000-000000000000']) {
      const res = await call(admin, 'PUT', `/api/legal-basis/campaigns/${id}`, { basis: 'ni-138' });
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('service dates on the campaign', () => {
  let clerk: SignedIn;
  let r: PageOf[];
  const get = (query: string) =>
    call(clerk, 'GET', `/api/campaigns/single-campaign/${r[0]!.campaign_id}${query}`);
  const names = async (query: string) => {
    const res = await get(query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().notices.map((n: { custName: string }) => n.custName);
  };

  beforeAll(async () => {
    await call(admin, 'PUT', '/api/legal-basis/kinds/notice', { basis: 'ni-138' });
    clerk = await newUser();
    r = [];
    for (let i = 1; i <= 6; i++) r.push(await notice(clerk, i));
    // 1: delivered 39 days ago: its 15 days ran out.
    await sendTrail(r[0]!, 'email', [
      ['sent', ago(40)],
      ['delivered', ago(39)],
    ]);
    // 2: read on WhatsApp 10 days ago: 5 days left.
    await sendTrail(r[1]!, 'whatsapp', [
      ['sent', ago(10, 1)],
      ['read', ago(10)],
    ]);
    // 3: its notice page opened, checked and acknowledged 2 days ago; its e-mail still only sent.
    await sendTrail(r[2]!, 'email', [['sent', ago(3)]]);
    await seedPageEvent(db, r[2]!, 'link_opened', ago(2, 1), { channel: 'email' });
    await seedPageEvent(db, r[2]!, 'verified', ago(2));
    await seedPageEvent(db, r[2]!, 'acknowledged', ago(1));
    // 4: sent 45 days ago, nothing came back: deemed served 15 days ago, its last day is today.
    await sendTrail(r[3]!, 'whatsapp', [['sent', ago(45)]]);
    // 5: disputed on the page an hour ago.
    await seedPageEvent(db, r[4]!, 'verified', ago(0, 2));
    await seedPageEvent(db, r[4]!, 'disputed', ago(0, 1));
    // 6: never sent.
  }, 60_000);

  it('shows each record’s served on, by what, and respond by', async () => {
    const rows = (await get('')).json().notices as { custName: string; service: Record<string, unknown> }[];
    const by = Object.fromEntries(rows.map((row) => [row.custName, row.service]));
    const shownDay = (days: number) => ddmmyyyy(dayIn(ago(days), 'Asia/Kolkata'));
    expect(by['Customer 1']).toMatchObject({
      servedBy: 'email: delivered',
      shown: { servedOn: shownDay(39) },
    });
    expect(by['Customer 2']).toMatchObject({ servedBy: 'whatsapp: read' });
    expect(by['Customer 3']).toMatchObject({ servedBy: 'notice page: verified' });
    expect(by['Customer 4']).toMatchObject({
      servedBy: 'deemed (30 days after dispatch)',
      respondBy: dayIn(new Date().toISOString(), 'Asia/Kolkata'),
    });
    expect(by['Customer 5']!.respondBy).toBe(addDays(dayIn(ago(0, 2), 'Asia/Kolkata'), 15));
    // The record's own view says the same.
    const view = await call(clerk, 'GET', `/api/notices/${r[0]!.record_id}`);
    expect(view.json().service).toEqual(by['Customer 1']);
    expect(by['Customer 6']).toEqual({
      servedOn: null,
      servedBy: null,
      respondBy: null,
      shown: { servedOn: null, respondBy: null },
    });
  });

  it('filters and counts by the service statuses, in SQL, alone or with delivery statuses', async () => {
    expect(await names('?status=respond_by_passed')).toEqual(['Customer 1']);
    expect(await names('?status=respond_by_within_7_days')).toEqual(['Customer 2', 'Customer 4']);
    expect(await names('?status=opened')).toEqual(['Customer 3']);
    expect(await names('?status=acknowledged')).toEqual(['Customer 3']);
    expect(await names('?status=disputed')).toEqual(['Customer 5']);
    expect(await names('?status=disputed,respond_by_passed')).toEqual(['Customer 1', 'Customer 5']);
    expect(await names('?status=read,acknowledged&channel=whatsapp')).toEqual(['Customer 2', 'Customer 3']);
    expect(await names('?status=opened&search=Customer')).toEqual(['Customer 3']);
    const ids = await call(
      clerk,
      'GET',
      `/api/campaigns/single-campaign/${r[0]!.campaign_id}/record-ids?status=respond_by_within_7_days`,
    );
    expect(ids.json()).toEqual({ ids: [r[1]!.record_id, r[3]!.record_id], total: 2 });
    expect((await get('')).json().serviceCounts).toEqual({
      opened: 1,
      acknowledged: 1,
      disputed: 1,
      respond_by_passed: 1,
      respond_by_within_7_days: 2,
    });
  });

  it('has no respond-by date, and no record in a respond-by filter, while no legal basis is set', async () => {
    await call(admin, 'DELETE', '/api/legal-basis/kinds/notice');
    try {
      expect(await names('?status=respond_by_passed,respond_by_within_7_days')).toEqual([]);
      const rows = (await get('')).json().notices as {
        service: { servedOn: string | null; respondBy: string | null };
      }[];
      expect(rows[0]!.service.servedOn).not.toBeNull();
      expect(rows.every((row) => row.service.respondBy === null)).toBe(true);
      // The page's own statuses do not need a basis.
      expect(await names('?status=acknowledged,respond_by_passed')).toEqual(['Customer 3']);
    } finally {
      await call(admin, 'PUT', '/api/legal-basis/kinds/notice', { basis: 'ni-138' });
    }
  });

  it('refuses hostile status values with a 400 naming the value, on the table and its record ids', async () => {
    for (const status of [
      'OPENED',
      'opened,',
      'respond_by_within_8_days',
      "opened' or '1'='1",
      'respond_by_passed;drop table notices',
      'acknowledged,%00',
      'x'.repeat(500),
    ])
      for (const path of ['', '/record-ids']) {
        const res = await call(
          clerk,
          'GET',
          `/api/campaigns/single-campaign/${r[0]!.campaign_id}${path}?status=${encodeURIComponent(status)}`,
        );
        expect(res.statusCode, status).toBe(400);
        expect(res.json().message, status).toMatch(
          /^status: status must be one or more of queued, .*, opened, acknowledged, disputed, respond_by_passed, respond_by_within_7_days, separated by commas; '.{0,40}' is none of them\.$/s,
        );
      }
  });

  it('puts both dates in the report', async () => {
    const res = await call(
      clerk,
      'GET',
      `/api/campaigns/export-reports/notice?campaignid=${r[0]!.campaign_id}`,
    );
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    expect(header.slice(-3)).toEqual(['Served On (Asia/Kolkata)', 'Served By', 'Respond By']);
    const cell = (row: number, name: string) => sheet.getRow(row).getCell(header.indexOf(name) + 1);
    // Row 2 is Customer 1: delivered 39 days ago, to respond 15 days after that day.
    expect(cell(2, 'Served By').value).toBe('email: delivered');
    expect(cell(2, 'Served On (Asia/Kolkata)').numFmt).toBe('dd-mm-yyyy hh:mm:ss');
    const servedShown = (cell(2, 'Served On (Asia/Kolkata)').value as Date).getTime() - 5.5 * 3_600_000;
    expect(Math.abs(servedShown - Date.parse(ago(39)))).toBeLessThan(2000);
    expect(cell(2, 'Respond By').numFmt).toBe('dd-mm-yyyy');
    expect((cell(2, 'Respond By').value as Date).toISOString().slice(0, 10)).toBe(
      addDays(dayIn(ago(39), 'Asia/Kolkata'), 15),
    );
    expect(cell(7, 'Served By').value ?? '').toBe('');
  });

  it('puts the dates, the notice page events and the answers in the evidence bundle, in words in its summary', async () => {
    const record = r[2]!;
    await seedPageEvent(db, record, 'pdf_viewed', '2024-05-12T05:12:30.000Z', {
      channel: 'email',
      ip: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (Linux; Android 10)',
      detail: 'a'.repeat(64),
    });
    await seedResponse(db, record, {
      kind: 'dispute',
      text: '<b>I paid</b> on 01-05-2024',
      created_at: '2024-05-12T05:15:00.000Z',
    });
    const res = await call(clerk, 'GET', `/api/notices/${record.record_id}/evidence`);
    expect(res.statusCode).toBe(200);
    const files = await unzip(res.rawPayload);
    const json = JSON.parse(files.find((f) => f.name === 'deliveries.json')!.data.toString()) as {
      records: EvidenceRecord[];
    };
    const [evidence] = json.records;
    expect(evidence!.service).toMatchObject({
      servedBy: 'notice page: verified',
      legalBasis: 'NI Act s.138',
      periodDays: 15,
      respondBy: addDays(dayIn(ago(2), 'Asia/Kolkata'), 15),
    });
    expect(evidence!.noticePage.events.map((e) => e.event)).toEqual([
      'pdf_viewed',
      'link_opened',
      'verified',
      'acknowledged',
    ]);
    expect(evidence!.noticePage.events[0]).toMatchObject({ ip: '203.0.113.7', channel: 'email' });
    expect(evidence!.noticePage.responses).toEqual([
      expect.objectContaining({ kind: 'dispute', text: '<b>I paid</b> on 01-05-2024', file: null }),
    ]);
    const summary = (await pdftotext(files.find((f) => f.name === 'summary.pdf')!.data))
      .replace(/\s+/g, ' ')
      // A line may break after a date's hyphen.
      .replace(/(\d)- (\d)/g, '$1-$2');
    // The hash has a column of its own beside the sentence.
    expect(summary).toContain('Downloaded the PDF on 12-05-2024 at 10:42:30 IST.');
    expect(summary).toContain('a'.repeat(64));
    expect(summary).toContain("after confirming the mobile number's last four digits");
    expect(summary).toContain('Dispute on 12-05-2024 at 10:45:00 IST: "<b>I paid</b> on 01-05-2024".');
    expect(summary).toContain(
      `Respond by ${ddmmyyyy(addDays(dayIn(ago(2), 'Asia/Kolkata'), 15))} (NI Act s.138: 15 days from service).`,
    );
  }, 60_000);
});
