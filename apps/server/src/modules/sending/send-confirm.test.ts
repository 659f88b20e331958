import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendSummary } from '@notice-desk/contract/sending';
import { noticeFields } from '@notice-desk/contract/notice';
import { openDatabase, type Database } from '../../db/database.ts';
import { createTestApp, signUp, uploadFile, type SignedIn, type TestApp } from '../../test/app.ts';
import { startSmtpListener, startWhatsappPeer } from '../../test/peers.ts';

/**
 * Issue 28: addresses that cannot be served are left out of a send (recorded as not_serviceable), a
 * send to borrowers another campaign served within RESERVE_WARN_DAYS asks first (409 SERVED_RECENTLY),
 * and the pre-send confirmation's counts and test send.
 */
let t: TestApp;
let db: Database;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let peer: Awaited<ReturnType<typeof startWhatsappPeer>>;
let users = 0;

beforeAll(async () => {
  smtp = await startSmtpListener();
  peer = await startWhatsappPeer();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: peer.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_MODE: 'session',
    BULK_SEND_CONFIRM_THRESHOLD: '3',
    RESERVE_WARN_DAYS: '30',
  });
  db = (await openDatabase(t.config)).db;
});
afterAll(async () => {
  await db.destroy();
  await t.close();
  await smtp.close();
  await peer.close();
});

const UNKNOWN_ID = '01900000-0000-7000-8000-000000000000';
const newUser = () => signUp(t.app, `confirm${++users}`);

const noticeFieldsOf = (loanNo: string, overrides: Record<string, string> = {}) => ({
  ...Object.fromEntries(noticeFields.map((f) => [f.key, `${f.key}-${loanNo}`])),
  loanNo,
  emailId: `${loanNo.toLowerCase()}@example.com`,
  custMobileNo: '9876543210',
  modeOfDispatch: 'Email and WhatsApp',
  ...overrides,
});

async function notice(who: SignedIn, loanNo: string, overrides: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/notices',
    headers: who.headers,
    payload: noticeFieldsOf(loanNo, overrides),
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json<{ _id: string; campaignId: string }>();
}

const send = (who: SignedIn, data: string[], extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/campaigns/send-mail',
    headers: who.headers,
    payload: { data, type: 'notice', ...extra },
  });

const campaign = async (who: SignedIn, id: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/single-campaign/${id}`,
      headers: who.headers,
    })
  ).json();

/** Imports notices with these loan numbers as a campaign of their own (as new records when repeated). */
async function importNotices(who: SignedIn, name: string, loans: string[]) {
  const header = noticeFields.map((f) => f.label);
  const rows = loans.map((loanNo) =>
    noticeFields.map((f) =>
      f.key === 'loanNo'
        ? loanNo
        : f.key === 'emailId'
          ? `${loanNo.toLowerCase()}@example.com`
          : f.key === 'custMobileNo'
            ? '9876543210'
            : f.key === 'modeOfDispatch'
              ? 'Email and WhatsApp'
              : `${f.key}-${loanNo}`,
    ),
  );
  const csv = [header, ...rows]
    .map((row) => row.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(','))
    .join('\r\n');
  const stored = await uploadFile(t.app, who, `${name}.csv`, Buffer.from(csv));
  const started = await t.app.inject({
    method: 'POST',
    url: '/api/notices/upload-notice-info',
    headers: who.headers,
    payload: { file: stored, name, duplicates: 'new' },
  });
  expect(started.statusCode, started.body).toBe(202);
  const jobId = started.json<{ jobId: string }>().jobId;
  for (let i = 0; i < 400; i++) {
    const progress = (
      await t.app.inject({
        method: 'GET',
        url: '/api/notices/by-user-id/progress-count',
        headers: who.headers,
      })
    ).json();
    if (progress.jobId === jobId && progress.status === 'done') {
      const list = (
        await t.app.inject({
          method: 'GET',
          url: '/api/notices/by-user-id?limit=100',
          headers: who.headers,
        })
      ).json<{ items: { _id: string; campaignId: string; loanNo: string }[] }>();
      return list.items.filter((item) => item.campaignId === progress.campaignId);
    }
    if (progress.jobId === jobId && progress.status === 'failed') throw new Error(progress.error);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the import did not finish');
}

describe('addresses that cannot be served', () => {
  it('are left out of the send on their channel, recorded as not_serviceable with the reason, and not served', async () => {
    const who = await newUser();
    const good = await notice(who, 'NS-1');
    const bad = await notice(who, 'NS-2', { emailId: 'cust23@@example', custMobileNo: '98765' });
    const mails = smtp.mails.length;
    const res = await send(who, [good._id, bad._id]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Send Mail Successfully.',
      sent: 2,
      failed: 0,
      notServiceable: 2,
      notServiceableReasons: expect.arrayContaining([
        { channel: 'email', reason: 'more than one @', count: 1 },
        { channel: 'whatsapp', reason: 'not a mobile number (too short or too long)', count: 1 },
      ]),
    });
    // Only the good record's e-mail reached the mail server.
    expect(smtp.mails.length - mails).toBe(1);
    const detail = await campaign(who, good.campaignId);
    const row = detail.notices.find((r: { _id: string }) => r._id === bad._id);
    expect(row).toMatchObject({
      emailResponse: 'not_serviceable',
      whatsappResponse: 'not_serviceable',
      emailError: 'more than one @',
    });
    expect(detail.notServiceable).toEqual({ email: 1, whatsapp: 1 });
    expect(detail.completedCounts).toBe(1);
    // Not served: a delete erases it rather than archiving it.
    const preview = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/${good.campaignId}/delete-preview`,
      headers: who.headers,
    });
    expect(preview.json()).toMatchObject({ archive: 1, erase: 1 });
  });

  it('goes out once the address is corrected, as a first send (no key was held)', async () => {
    const who = await newUser();
    const bad = await notice(who, 'FIX-1', { emailId: 'no domain@', modeOfDispatch: 'Email' });
    expect((await send(who, [bad._id])).json()).toMatchObject({ sent: 0, notServiceable: 1 });
    const fixed = await t.app.inject({
      method: 'PUT',
      url: `/api/notices/${bad._id}`,
      headers: who.headers,
      payload: noticeFieldsOf('FIX-1', { emailId: 'fixed@example.com', modeOfDispatch: 'Email' }),
    });
    expect(fixed.statusCode, fixed.body).toBeLessThan(300);
    expect((await send(who, [bad._id])).json()).toMatchObject({ sent: 1, notServiceable: 0, skipped: 0 });
  });
});

describe('served recently by another campaign', () => {
  it('answers 409 with the count until confirmed, then sends', async () => {
    const who = await newUser();
    const first = [await notice(who, 'SR-1'), await notice(who, 'SR-2'), await notice(who, 'SR-3')];
    expect((await send(who, [first[0]!._id, first[1]!._id])).json()).toMatchObject({ sent: 4 });
    const again = await importNotices(who, 'Round two', ['SR-1', 'SR-2', 'SR-3']);
    expect(again).toHaveLength(3);
    const ids = again.map((r) => r._id);
    const asked = await send(who, ids);
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toMatchObject({
      code: 'SERVED_RECENTLY',
      message: '2 borrowers were served a notice in the last 30 days',
    });
    // Nothing was claimed: the campaign shows no attempt yet.
    const campaignId = (again[0] as { campaignId: string }).campaignId;
    expect((await campaign(who, campaignId)).statusCounts).toEqual([]);
    const summary = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/${campaignId}/send-summary`,
      headers: who.headers,
    });
    expect(summary.json<SendSummary>().channels).toEqual([
      { channel: 'email', records: 3, toSend: 3, notServiceable: 0, servedRecently: 2, sentBefore: 0 },
      { channel: 'whatsapp', records: 3, toSend: 3, notServiceable: 0, servedRecently: 2, sentBefore: 0 },
    ]);
    const confirmed = await send(who, ids, { confirmServedRecently: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ sent: 6 });
  });

  it('says one borrower in the singular, and the same campaign sending again does not ask', async () => {
    const who = await newUser();
    const record = await notice(who, 'ONE-1', { modeOfDispatch: 'WhatsApp' });
    expect((await send(who, [record._id])).json()).toMatchObject({ sent: 1 });
    // A resend within the same campaign is a resend, not a second campaign's service.
    expect((await send(who, [record._id], { resend: true })).statusCode).toBe(200);
    const [copy] = await importNotices(who, 'Copy', ['ONE-1']);
    const res = await send(who, [copy!._id]);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('1 borrower was served a notice in the last 30 days');
  });
});

describe('the pre-send summary', () => {
  it('counts per channel what would go, what is not serviceable and what was sent before', async () => {
    const who = await newUser();
    const a = await notice(who, 'SUM-1');
    const b = await notice(who, 'SUM-2', { emailId: 'cust23@example' });
    const c = await notice(who, 'SUM-3', { custMobileNo: '12345', modeOfDispatch: 'WhatsApp' });
    await send(who, [a._id], { confirmServedRecently: true });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${a.campaignId}/send-summary`,
      headers: who.headers,
      payload: { data: [a._id, b._id, c._id] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      records: 3,
      threshold: 3,
      reserveWarnDays: 30,
      channels: [
        { channel: 'email', records: 2, toSend: 0, notServiceable: 1, servedRecently: 0, sentBefore: 1 },
        { channel: 'whatsapp', records: 3, toSend: 1, notServiceable: 1, servedRecently: 0, sentBefore: 1 },
      ],
    });
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/${a.campaignId}/send-summary?channel=whatsapp`,
      headers: who.headers,
    });
    expect(one.json<SendSummary>().channels.map((x) => x.channel)).toEqual(['whatsapp']);
  });

  it('refuses a bad channel, an unknown campaign and another owner’s campaign', async () => {
    const who = await newUser();
    const other = await newUser();
    const a = await notice(who, 'HOST-1');
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/${a.campaignId}/send-summary?channel=fax`,
      headers: who.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('channel must be one of email, whatsapp, sms.');
    for (const [headers, id] of [
      [who.headers, UNKNOWN_ID],
      [other.headers, a.campaignId],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/campaigns/${id}/send-summary`,
        headers,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Campaign not found.');
    }
    const tooMany = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${a.campaignId}/send-summary`,
      headers: who.headers,
      payload: { data: Array.from({ length: 10_001 }, (_, i) => `id${i}`) },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toContain('Count at most 10000 records at once.');
  });
});

describe('the test send', () => {
  it('sends one rendered notice to the typed address by the real channel, records no delivery, and audits it', async () => {
    const who = await newUser();
    const a = await notice(who, 'TEST-1');
    const mails = smtp.mails.length;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${a.campaignId}/test-send`,
      headers: who.headers,
      payload: { channel: 'email', to: 'colleague@example.com' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ channel: 'email', to: 'colleague@example.com', via: 'provider' });
    expect(smtp.mails.length - mails).toBe(1);
    expect(smtp.mails.at(-1)!.to).toContain('colleague@example.com');
    const messages = peer.messages.length;
    const wa = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${a.campaignId}/test-send`,
      headers: who.headers,
      payload: { channel: 'whatsapp', to: '+91 99887 76655', recordId: a._id },
    });
    expect(wa.statusCode, wa.body).toBe(200);
    expect(peer.messages.length - messages).toBe(1);
    expect(peer.messages.at(-1)!.to).toBe('919988776655');
    const deliveries = await db.selectFrom('deliveries').selectAll().where('record_id', '=', a._id).execute();
    expect(deliveries).toEqual([]);
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'summary'])
      .where('actor_id', '=', who.userId)
      .where('action', '=', 'notice.test-send')
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit[0]!.summary).toContain('colleague@example.com');
  });

  it('refuses an address a test cannot go to, naming it, and an unknown campaign or record', async () => {
    const who = await newUser();
    const a = await notice(who, 'TBAD-1');
    const post = (id: string, payload: object) =>
      t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/test-send`, headers: who.headers, payload });
    const mail = await post(a.campaignId, { channel: 'email', to: 'cust23@@example' });
    expect(mail.statusCode).toBe(400);
    expect(mail.json()).toMatchObject({
      message: 'to is not an e-mail address a test can go to: more than one @.',
    });
    const mobile = await post(a.campaignId, { channel: 'whatsapp', to: '98765' });
    expect(mobile.statusCode).toBe(400);
    expect(mobile.json().message).toContain('to is not a mobile number a test can go to');
    const channel = await post(a.campaignId, { channel: 'fax', to: 'x@example.com' });
    expect(channel.statusCode).toBe(400);
    expect(channel.json().message).toContain('channel must be one of email, whatsapp, sms.');
    expect((await post(UNKNOWN_ID, { channel: 'email', to: 'x@example.com' })).statusCode).toBe(404);
    const record = await post(a.campaignId, { channel: 'email', to: 'x@example.com', recordId: UNKNOWN_ID });
    expect(record.statusCode).toBe(404);
    expect(record.json().message).toBe('Record not found.');
  });
});
