import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s10CheckDigit, type PostOverview } from '@notice-desk/contract/post';
import { openDatabase, type Database } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { parseSendWindow, type SendWindow } from '../../lib/send-window.ts';
import { createServices, type Services } from '../../services.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { startMsg91Peer, startWhatsappPeer } from '../../test/peers.ts';
import { multipart } from '../../test/xlsx.ts';
import { unzip } from '../../test/zip.ts';
import { creditCardKind, noticeKind } from '../records/record-kinds.ts';
import * as deliveries from '../sending/deliveries.repository.ts';
import * as fallback from './fallback.repository.ts';
import { FallbackService } from './fallback.service.ts';

const HOUR = 3_600_000;
const AUTH_KEY = 'msg91-peer-auth-key';
const REGISTERED =
  'Dear {#var#}, a legal notice on loan {#var#} is served on you. View: https://notices.example.in/n/{#var#} -ACME LAW';
const TEXT =
  'Dear {{custName}}, a legal notice on loan {{loanNo}} is served on you. View: https://notices.example.in/n/{{noticeCode}} -ACME LAW';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let t: TestApp;
let db: Database;
let wa: Awaited<ReturnType<typeof startWhatsappPeer>>;
let sms: Awaited<ReturnType<typeof startMsg91Peer>>;
let admin: SignedIn;
/** Another worker on the same database: its sending service is the one the steps go through. */
let worker: Services;
let counter = 0;

beforeAll(async () => {
  wa = await startWhatsappPeer();
  wa.templates.push({ name: 'legal_notice', language: 'en', status: 'APPROVED', body: 'Dear {{1}}.' });
  sms = await startMsg91Peer({ authKey: AUTH_KEY });
  t = await createTestApp({
    WHATSAPP_API_URL: wa.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_BUSINESS_ACCOUNT_ID: '555000111',
    SMS_API_URL: sms.apiUrl,
    MSG91_AUTH_KEY: AUTH_KEY,
    SMS_SENDER: 'ACMELW',
    SMS_DLT_ENTITY_ID: '1101234567890123456',
  });
  db = (await openDatabase(t.config)).db;
  admin = await signUp(t.app, 'admin');
  const approved = await t.app.inject({
    method: 'PUT',
    url: '/api/whatsapptemplates/approved/notice',
    headers: admin.headers,
    payload: { name: 'legal_notice', language: 'en', bodyFields: ['custName'] },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const dlt = await t.app.inject({
    method: 'PUT',
    url: '/api/smstemplates/dlt/notice',
    headers: admin.headers,
    payload: { dltTemplateId: '1107161234567890123', registeredText: REGISTERED, text: TEXT },
  });
  expect(dlt.statusCode, dlt.body).toBe(200);
  worker = await createServices(t.config, pino({ level: 'silent' }));
}, 60_000);
afterAll(async () => {
  await worker?.close();
  await db?.destroy();
  await t?.close();
  await wa?.close();
  await sms?.close();
});

const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown, who = admin) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload: payload as object } : {}) });

async function notice(): Promise<{ id: string; campaignId: string }> {
  const i = ++counter;
  const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${i}`]));
  const res = await call('POST', '/api/notices', {
    ...fields,
    custName: `Ravi ${i}`,
    loanNo: `LN${i}`,
    custMobileNo: `98765${String(i).padStart(5, '0')}`,
    modeOfDispatch: 'WhatsApp',
    address: `${i} MG Road`,
    zipCode: '560001',
  });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json<{ _id: string }>()._id, campaignId: res.json<{ campaignId: string }>().campaignId };
}

/** A task on the worker, whose clock reads `at`. */
const task = (at: Date, sendWindow?: SendWindow) =>
  new FallbackService({
    db: worker.db,
    sending: worker.sending,
    sendWindow,
    timeZone: 'Asia/Kolkata',
    everyMs: HOUR,
    clock: () => at,
    log: { warn: () => undefined },
  });

const latest = (recordId: string, channel: string) =>
  db
    .selectFrom('deliveries')
    .selectAll()
    .where('record_id', '=', recordId)
    .where('channel', '=', channel as 'sms')
    .orderBy('id', 'desc')
    .executeTakeFirst();

const trail = async (recordId: string) =>
  (
    await db
      .selectFrom('delivery_events as e')
      .innerJoin('deliveries as d', 'd.id', 'e.delivery_id')
      .select(['e.detail'])
      .where('d.record_id', '=', recordId)
      .orderBy('e.recorded_at')
      .orderBy('e.at')
      .execute()
  ).map((e) => e.detail ?? '');

/** WhatsApp at once, SMS `smsAfter` hours on unless delivered, Speed Post after 7 days unless opened. */
const ladder = (smsAfter: number) => ({
  channels: ['whatsapp', 'sms', 'post'],
  steps: [
    { channel: 'whatsapp', after: 0 },
    { channel: 'sms', after: smsAfter, unless: 'delivered' },
    { channel: 'post', after: 168, unless: 'opened' },
  ],
});

describe('a ladder WhatsApp → SMS → post on a clock the test moves', () => {
  it('sends SMS where WhatsApp failed, skips what was delivered, then makes the unopened records post records, each step once', async () => {
    const [a, c] = [await notice(), await notice()];
    const b = await notice();
    const campaignId = a.campaignId;
    const put = await call('PUT', `/api/campaigns/${campaignId}/ladder`, ladder(24));
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      source: 'campaign',
      ladder: { steps: [{}, { unless: 'delivered' }, {}] },
    });

    // WhatsApp refuses two numbers for good (131026); the third goes and is delivered.
    const failure = { status: 400, code: 131026, message: 'Message undeliverable' };
    wa.failNext(failure);
    wa.failNext(failure);
    const first = await call('POST', '/api/campaigns/send-mail', { data: [a.id, c.id], type: 'notice' });
    expect(first.json()).toMatchObject({ failed: 2 });
    expect(
      (await call('POST', '/api/campaigns/send-mail', { data: [b.id], type: 'notice' })).json(),
    ).toMatchObject({ sent: 1 });
    const delivered = (await latest(b.id, 'whatsapp'))!;
    await deliveries.recordProviderEvent(db, delivered, {
      status: 'delivered',
      at: new Date().toISOString(),
      eventKey: 'delivered@1',
    });
    const start = Date.now();

    // An hour on: WhatsApp now was the first send itself; SMS is not due.
    const early = await task(new Date(start + HOUR)).runDue();
    expect(early).toMatchObject({ taken: 0, skipped: 3 });
    expect(sms.messages).toHaveLength(0);

    // Outside the sending hours nothing is taken, however late.
    const closed = await task(
      new Date('2026-12-30T21:00:00Z'),
      parseSendWindow('08:00-19:00', 'Asia/Kolkata') as SendWindow,
    ).runDue();
    expect(closed).toMatchObject({ closed: true, taken: 0, skipped: 0 });

    // 25 hours on, two workers' turns at once: the SMS step is taken once per record.
    const day = new Date(start + 25 * HOUR);
    const turns = await Promise.all([task(day).runDue(), task(day).runDue()]);
    expect(turns.reduce((n, r) => n + r.taken, 0)).toBe(2);
    expect(turns.reduce((n, r) => n + r.skipped, 0)).toBe(1);
    expect(sms.messages.map((m) => m.to).sort()).toEqual(['919876500001', '919876500002']);
    const smsA = (await latest(a.id, 'sms'))!;
    expect(smsA.status).toBe('sent');
    expect(await trail(a.id)).toContainEqual(
      expect.stringMatching(/^SMS sent because WhatsApp failed: 131026$/),
    );
    expect(await latest(b.id, 'sms')).toBeUndefined();
    expect(await trail(b.id)).toContainEqual(
      expect.stringMatching(/^SMS skipped: delivered by WhatsApp on \d\d-\d\d-\d{4} [\d:]{8} IST$/),
    );
    // Nothing is due again.
    expect(await task(day).runDue()).toMatchObject({ taken: 0, skipped: 0 });

    // C's notice page is opened; eight days on, the others become post records.
    await db
      .insertInto('notice_page_events')
      .values({
        id: newId(),
        code: 'fallback-test-code',
        owner_id: admin.userId,
        record_kind: 'notice',
        record_id: c.id,
        campaign_id: campaignId,
        event: 'verified',
        channel: 's',
        at: new Date(start + 30 * HOUR).toISOString(),
        ip: null,
        user_agent: null,
        detail: null,
      })
      .execute();
    const week = await task(new Date(start + 8 * 24 * HOUR)).runDue();
    expect(week).toMatchObject({ taken: 2, skipped: 1 });
    expect(await trail(a.id)).toContain('Speed Post because the notice was not opened within 7 days');
    expect(await trail(c.id)).toContainEqual(
      expect.stringMatching(/^Speed Post skipped: the notice was opened on its page on /),
    );
    const overview = (await call('GET', `/api/campaigns/${campaignId}/post`)).json<PostOverview>();
    expect(overview.records.map((r) => r._id).sort()).toEqual([a.id, b.id].sort());
    expect(sms.messages).toHaveLength(2);
    // The evidence bundle's delivery log carries each decision in the trail of its delivery.
    const bundle = await call('GET', `/api/notices/${a.id}/evidence`);
    const log = (await unzip(bundle.rawPayload)).find((f) => f.name === 'deliveries.json')!.data.toString();
    const history = (
      JSON.parse(log) as {
        records: { deliveries: { channel: string; history: { detail: string | null }[] }[] }[];
      }
    ).records[0]!.deliveries.flatMap((d) => d.history.map((h) => `${d.channel}: ${h.detail ?? ''}`));
    expect(history).toEqual(
      expect.arrayContaining([
        'sms: SMS sent because WhatsApp failed: 131026',
        'sms: Speed Post because the notice was not opened within 7 days',
        expect.stringMatching(
          /^whatsapp: WhatsApp skipped: the record went by WhatsApp on .* already \(failed\)$/,
        ),
      ]),
    );

    // Every step is decided for every record: a turn finds the campaign finished, and turns read it no more.
    const read = async () => (await fallback.campaignsWithLadders(db)).map((c) => c.id);
    const later = new Date(start + 9 * 24 * HOUR);
    expect((await task(later).runDue()).finished).toBeGreaterThanOrEqual(1);
    expect(await read()).not.toContain(campaignId);
    expect(await task(later).runDue()).toMatchObject({ taken: 0, skipped: 0, finished: 0 });
    // A record added and not yet sent starts no step; once sent, its ladder starts, so it is read again.
    const d = await notice();
    expect(d.campaignId).toBe(campaignId);
    expect(await read()).not.toContain(campaignId);
    wa.failNext(failure);
    await call('POST', '/api/campaigns/send-mail', { data: [d.id], type: 'notice' });
    expect(await read()).toContain(campaignId);
    const dSent = Date.parse((await latest(d.id, 'whatsapp'))!.created_at);
    expect(await task(new Date(dSent + HOUR)).runDue()).toMatchObject({ skipped: 1, finished: 0 });
    expect(await read()).toContain(campaignId);
    // Finished again once D's steps are decided; a changed ladder (SMS a day later) is read again.
    const dLater = new Date(dSent + 9 * 24 * HOUR);
    expect(await task(dLater).runDue()).toMatchObject({ taken: 2 });
    expect((await task(dLater).runDue()).finished).toBeGreaterThanOrEqual(1);
    expect(await read()).not.toContain(campaignId);
    const changed = await call('PUT', `/api/campaigns/${campaignId}/ladder`, ladder(48));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await read()).toContain(campaignId);
    expect((await task(dLater).runDue()).finished).toBeGreaterThanOrEqual(1);
    expect(await read()).not.toContain(campaignId);
  }, 90_000);
});

describe('credit cards by post through the ladder', () => {
  it('makes every record of a campaign with post among its channels a post record, and takes its AD card', async () => {
    const fields = Object.fromEntries(creditCardKind.fields.map((f) => [f.key, `${f.key}-cc`]));
    const res = await call('POST', '/api/credit-cards', {
      ...fields,
      aanNo: 'AAN-77',
      customerAddress: '12 Residency Road, Bengaluru 560025',
    });
    expect(res.statusCode, res.body).toBe(201);
    const { _id: id, campaignId } = res.json<{ _id: string; campaignId: string }>();
    const proof = () => {
      const form = multipart({ deliveredOn: '2026-11-25' }, { name: 'card.png', data: PNG });
      return t.app.inject({
        method: 'POST',
        url: `/api/credit-cards/${id}/post/proof`,
        headers: { ...admin.headers, ...form.headers },
        payload: form.payload,
      });
    };
    expect((await proof()).statusCode).toBe(409);
    const put = await call('PUT', `/api/campaigns/${campaignId}/ladder`, {
      channels: ['email', 'post'],
      steps: [],
    });
    expect(put.statusCode, put.body).toBe(200);
    const overview = (await call('GET', `/api/campaigns/${campaignId}/post`)).json<PostOverview>();
    expect(overview.records).toMatchObject([{ _id: id, loanNo: 'AAN-77', pinCode: '560025' }]);
    const number = `EE10000077${s10CheckDigit('10000077')}IN`;
    const booked = await call('POST', `/api/campaigns/${campaignId}/post/articles`, [
      { loanNo: 'AAN-77', articleNumber: number },
    ]);
    expect(booked.statusCode, booked.body).toBe(200);
    const kept = await proof();
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ articleNumber: number, deliveredOn: '2026-11-25' });
  }, 60_000);
});

describe('ladder settings', () => {
  it('lets only an ADMIN set a kind’s default, which a campaign without its own follows', async () => {
    const asha = await signUp(t.app, 'ashafallback');
    const body = { channels: ['email', 'sms'], steps: [{ channel: 'sms', after: 24, unless: 'read' }] };
    expect((await call('PUT', '/api/ladder-defaults/credit-card', body, asha)).statusCode).toBe(403);
    const set = await call('PUT', '/api/ladder-defaults/credit-card', body);
    expect(set.statusCode, set.body).toBe(200);
    expect((await call('GET', '/api/ladder-defaults/credit-card', undefined, asha)).json()).toMatchObject({
      kind: 'credit-card',
      ladder: { channels: ['email', 'sms'], steps: [{ channel: 'sms', after: 24, unless: 'read' }] },
    });
    const fields = Object.fromEntries(creditCardKind.fields.map((f) => [f.key, `${f.key}-asha`]));
    const made = await call('POST', '/api/credit-cards', fields, asha);
    const campaignId = made.json<{ campaignId: string }>().campaignId;
    expect((await call('GET', `/api/campaigns/${campaignId}/ladder`, undefined, asha)).json()).toMatchObject({
      source: 'kind',
      ladder: { channels: ['email', 'sms'] },
    });
    // Another user's campaign is not found.
    expect((await call('GET', `/api/campaigns/${campaignId}/ladder`)).statusCode).toBe(404);
  });
});
