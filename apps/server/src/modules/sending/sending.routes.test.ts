import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { startSmtpListener, startWhatsappPeer } from '../../test/peers.ts';
import { noticeKind } from '../records/record-kinds.ts';

const APP_SECRET = 'peer-app-secret';
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let peer: Awaited<ReturnType<typeof startWhatsappPeer>>;
let asha: SignedIn;
let ravi: SignedIn;

beforeEach(async () => {
  smtp = await startSmtpListener({ rejectTo: ['refused@example.com'] });
  peer = await startWhatsappPeer();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: peer.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_MODE: 'session', // free-form document messages, as these tests read them
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: 'verify-me',
    BOUNCE_RETURN_PATH_DOMAIN: 'bounces.example.com',
  });
  asha = await signUp(t.app, 'asha');
  ravi = await signUp(t.app, 'ravi');
});
afterEach(async () => {
  await t.close();
  await smtp.close();
  await peer.close();
});

async function notice(who: SignedIn, i: number, overrides: Record<string, string> = {}) {
  const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${i}`]));
  const payload = {
    ...fields,
    emailId: `customer${i}@example.com`,
    custMobileNo: `98765${String(i).padStart(5, '0')}`,
    modeOfDispatch: 'Email and WhatsApp',
    ...overrides,
  };
  const res = await t.app.inject({ method: 'POST', url: '/api/notices', headers: who.headers, payload });
  return res.json<{ _id: string; campaignId: string }>();
}

const send = (who: SignedIn, data: string[], extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/campaigns/send-mail',
    headers: who.headers,
    payload: { data, type: 'notice', ...extra },
  });

async function detail(who: SignedIn, campaignId: string) {
  return (
    await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/single-campaign/${campaignId}`,
      headers: who.headers,
    })
  ).json();
}

describe('sending notices', () => {
  it('mails each record its own PDF and sends it on WhatsApp, then shows the statuses', async () => {
    const records = [await notice(asha, 1), await notice(asha, 2), await notice(asha, 3)];
    const res = await send(
      asha,
      records.map((r) => r._id),
    );
    expect(res.json()).toMatchObject({
      message: 'Send Mail Successfully.',
      sent: 6,
      failed: 0,
      queued: 0,
      skipped: 0,
      ignored: 0,
    });
    expect(smtp.mails.map((m) => m.to[0]).sort()).toEqual([
      'customer1@example.com',
      'customer2@example.com',
      'customer3@example.com',
    ]);
    for (const mail of smtp.mails) {
      // Our delivery id three ways: the Message-ID, Postmark's metadata and the VERP envelope sender.
      const id = /^<([0-9a-f-]{36})@/.exec(mail.messageId ?? '')?.[1];
      expect(mail.raw).toMatch(new RegExp(`^X-PM-Metadata-delivery: ${id}\r?$`, 'im'));
      expect(mail.from).toBe(`bounce+${id}@bounces.example.com`);
      expect(mail.raw).toContain('Content-Type: application/pdf');
      expect(mail.raw).toMatch(/filename="?loanNo-\d custName-\d\.pdf/);
    }
    expect(peer.messages.map((m) => m.to).sort()).toEqual(['919876500001', '919876500002', '919876500003']);
    expect(peer.messages[0]!.caption).toMatch(
      /^Dear custName-\d, a notice for conciliation about loan account loanNo-\d/,
    );
    const campaign = await detail(asha, records[0]!.campaignId);
    expect(campaign.completedCounts).toBe(3);
    expect(
      campaign.notices.map((n: { emailResponse: string; whatsappResponse: string }) => [
        n.emailResponse,
        n.whatsappResponse,
      ]),
    ).toEqual([
      ['sent', 'sent'],
      ['sent', 'sent'],
      ['sent', 'sent'],
    ]);
  });

  it('sends a record once per channel: a repeat is skipped unless a resend is asked, and two requests at once send once', async () => {
    const record = await notice(asha, 1, { modeOfDispatch: 'Email' });
    const [a, b] = await Promise.all([send(asha, [record._id]), send(asha, [record._id])]);
    expect(a.json().sent + b.json().sent).toBe(1);
    expect(a.json().skipped + b.json().skipped).toBe(1);
    expect(smtp.mails).toHaveLength(1);
    expect(peer.messages).toHaveLength(0);
    expect((await send(asha, [record._id])).json()).toMatchObject({ sent: 0, skipped: 1 });
    expect((await send(asha, [record._id], { resend: true })).json()).toMatchObject({ sent: 1, skipped: 0 });
    expect(smtp.mails).toHaveLength(2);
  });

  it('fails or leaves out only the record with a bad address or number, with the reason, and sends the others', async () => {
    const good = await notice(asha, 1);
    const badMail = await notice(asha, 2, { emailId: 'not an address', modeOfDispatch: 'email' });
    const refused = await notice(asha, 3, { emailId: 'refused@example.com', modeOfDispatch: 'email' });
    const badNumber = await notice(asha, 4, { custMobileNo: '12', modeOfDispatch: 'whatsapp' });
    // A number WhatsApp refuses (131026) though its form is an Indian mobile's.
    const undeliverable = await notice(asha, 5, {
      custMobileNo: '+91 90000 00000',
      modeOfDispatch: 'whatsapp',
    });
    const res = await send(
      asha,
      [good, badMail, refused, badNumber, undeliverable].map((r) => r._id),
    );
    // The address and number that cannot be served by their form are left out, not failed at the provider.
    expect(res.json()).toMatchObject({ sent: 2, failed: 2, notServiceable: 2 });
    const rows = (await detail(asha, good.campaignId)).notices as Record<string, string>[];
    const byName = Object.fromEntries(rows.map((r) => [r.custName, r]));
    expect(byName['custName-2']).toMatchObject({
      emailResponse: 'not_serviceable',
      emailError: 'the address contains a space',
    });
    expect(byName['custName-3']!.emailError).toMatch(/^The mail server refused the message: 550/);
    expect(byName['custName-4']).toMatchObject({
      whatsappResponse: 'not_serviceable',
      whatsappError: 'not a mobile number (too short or too long)',
    });
    expect(byName['custName-5']!.whatsappError).toMatch(/WhatsApp refused the message: \(#131026\)/);
    expect(byName['custName-1']).toMatchObject({ emailResponse: 'sent', whatsappResponse: 'sent' });
  });

  it('filters the campaign on the server, and resends only the channels that failed', async () => {
    const fine = await notice(asha, 1);
    // The e-mail goes; WhatsApp refuses the number (131026, for good).
    const halfFailed = await notice(asha, 2, { custMobileNo: '+91 9000000000' });
    const unsent = await notice(asha, 3);
    expect((await send(asha, [fine._id, halfFailed._id])).json()).toMatchObject({ sent: 3, failed: 1 });
    const campaignId = fine.campaignId;
    const get = async (query: string, who = asha) =>
      t.app.inject({
        method: 'GET',
        url: `/api/campaigns/single-campaign/${campaignId}${query}`,
        headers: who.headers,
      });
    const names = async (query: string) => {
      const body = (await get(query)).json();
      return { total: body.total, names: body.notices.map((n: { custName: string }) => n.custName) };
    };
    expect(await names('?status=failed,bounced')).toEqual({ total: 1, names: ['custName-2'] });
    expect(await names('?status=failed&channel=email')).toEqual({ total: 0, names: [] });
    expect(await names('?status=sent&channel=email&limit=1&page=2')).toEqual({
      total: 2,
      names: ['custName-2'],
    });
    expect(await names('?status=sent&search=custName-1')).toEqual({ total: 1, names: ['custName-1'] });
    expect(await names('')).toMatchObject({ total: 3 });
    // Every failed or bounced record of the campaign, whatever page the table shows: what 'Resend failed' sends.
    const failed = (await get('/record-ids?status=failed,bounced')).json();
    expect(failed).toEqual({ ids: [halfFailed._id], total: 1 });
    expect((await get('/record-ids')).json().ids).toEqual([fine._id, halfFailed._id, unsent._id]);
    expect((await get('/record-ids?status=failed', ravi)).statusCode).toBe(404);
    for (const [query, words] of [
      [
        '?status=lost',
        "status must be one or more of queued, outbox, sent, delivered, read, failed, bounced, not_serviceable, opened, acknowledged, disputed, respond_by_passed, respond_by_within_7_days, separated by commas; 'lost' is none of them.",
      ],
      ['?status=failed&status=sent', 'status must be given once.'],
      ['?status=failed&channel=fax', 'channel must be one of email, whatsapp, sms.'],
      [
        '/record-ids?status=failed,',
        "status must be one or more of queued, outbox, sent, delivered, read, failed, bounced, not_serviceable, opened, acknowledged, disputed, respond_by_passed, respond_by_within_7_days, separated by commas; '' is none of them.",
      ],
    ]) {
      const res = await get(query!);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toContain(words);
    }

    // The resend sends WhatsApp again (refused again) and never a second e-mail.
    const mails = smtp.mails.length;
    const resent = (await send(asha, failed.ids, { resend: true })).json();
    expect(resent).toMatchObject({ sent: 0, failed: 1, skipped: 1 });
    expect(smtp.mails).toHaveLength(mails);
    // A record none of whose channels failed is sent again on every one.
    expect((await send(asha, [fine._id], { resend: true })).json()).toMatchObject({ sent: 2, skipped: 0 });
    expect(smtp.mails).toHaveLength(mails + 1);
  });

  it('retries a WhatsApp 429 and a mail server 451 with backoff, sending each once', async () => {
    const record = await notice(asha, 1);
    peer.throttle(1);
    smtp.failNext(1);
    const res = await send(asha, [record._id]);
    expect(res.json()).toMatchObject({ sent: 0, queued: 2 });
    for (let i = 0; i < 100 && (smtp.mails.length < 1 || peer.messages.length < 1); i++)
      await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails).toHaveLength(1);
    expect(peer.messages).toHaveLength(1);
    const [row] = (await detail(asha, record.campaignId)).notices;
    expect(row).toMatchObject({ emailResponse: 'sent', whatsappResponse: 'sent' });
  });

  it('keeps mails queued while the mail server refuses connections, and sends them once it is back', async () => {
    const record = await notice(asha, 1, { modeOfDispatch: 'email' });
    const port = smtp.port;
    await smtp.close();
    const res = await send(asha, [record._id]);
    expect(res.json()).toMatchObject({ sent: 0, failed: 0, queued: 1 });
    const [row] = (await detail(asha, record.campaignId)).notices;
    expect(row.emailResponse).toBe('queued');
    smtp = await startSmtpListener({ port });
    for (let i = 0; i < 100 && smtp.mails.length < 1; i++) await new Promise((r) => setTimeout(r, 100));
    expect(smtp.mails).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 200));
    expect((await detail(asha, record.campaignId)).notices[0].emailResponse).toBe('sent');
    expect((await send(asha, [record._id])).json()).toMatchObject({ sent: 0, skipped: 1 });
  });

  it('fills a caption or subject placeholder only from the record’s own fields, never from Object.prototype', async () => {
    const { db } = await openDatabase(t.config);
    try {
      const hostile = '{{constructor}}{{__proto__}}{{toString}}{{ hasOwnProperty }}{{valueOf}}';
      await db
        .updateTable('whatsapp_templates')
        .set({ value: `Dear {{custName}}${hostile}, see the notice.` })
        .where('kind', '=', 'notice')
        .execute();
      await db
        .updateTable('email_templates')
        .set({ html: `Notice for {{loanNo}}${hostile}` })
        .where('key', '=', 'email-subject-notice')
        .execute();
    } finally {
      await db.destroy();
    }
    const record = await notice(asha, 1);
    expect((await send(asha, [record._id])).json()).toMatchObject({ sent: 2, failed: 0 });
    // The caption as merged, then the notice page's link on a line of its own.
    expect(peer.messages[0]!.caption).toMatch(
      /^Dear custName-1, see the notice\.\n\nView and reply: http\S+\/n\/[\w-]{22}\?c=w$/,
    );
    expect(smtp.mails[0]!.raw).toMatch(/^Subject: Notice for loanNo-1\r?$/m);
  });

  it('ignores and counts another user’s ids, and refuses an empty list', async () => {
    const mine = await notice(asha, 1, { modeOfDispatch: 'email' });
    const theirs = await notice(ravi, 2, { modeOfDispatch: 'email' });
    expect((await send(asha, [mine._id, theirs._id])).json()).toMatchObject({ sent: 1, ignored: 1 });
    expect(smtp.mails.map((m) => m.to[0])).toEqual(['customer1@example.com']);
    const empty = await send(asha, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Please select Items');
  });
});

describe('without SMTP or WhatsApp settings', () => {
  it('writes to the outbox and says so, never delivered', async () => {
    const plain = await createTestApp();
    try {
      const user = await signUp(plain.app, 'solo');
      const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-x`]));
      const created = (
        await plain.app.inject({
          method: 'POST',
          url: '/api/notices',
          headers: user.headers,
          payload: { ...fields, emailId: 'a@example.com', custMobileNo: '9876543210' },
        })
      ).json();
      const res = await plain.app.inject({
        method: 'POST',
        url: '/api/campaigns/send-mail',
        headers: user.headers,
        payload: { data: [created._id], type: 'notice' },
      });
      expect(res.json()).toMatchObject({ sent: 2 });
      const campaign = (
        await plain.app.inject({
          method: 'GET',
          url: `/api/campaigns/single-campaign/${created.campaignId}`,
          headers: user.headers,
        })
      ).json();
      expect(campaign.notices[0]).toMatchObject({ emailResponse: 'outbox', whatsappResponse: 'outbox' });
    } finally {
      await plain.close();
    }
  });
});
