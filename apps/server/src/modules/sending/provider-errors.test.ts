import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { startSmtpListener, startWhatsappPeer, type PeerError } from '../../test/peers.ts';
import { noticeKind } from '../records/record-kinds.ts';

const APP_SECRET = 'peer-app-secret';
let t: TestApp;
let db: Database;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let peer: Awaited<ReturnType<typeof startWhatsappPeer>>;
let admin: SignedIn;
let counter = 0;

beforeEach(async () => {
  smtp = await startSmtpListener();
  peer = await startWhatsappPeer();
  peer.templates.push({
    name: 'legal_notice',
    language: 'en',
    status: 'APPROVED',
    body: 'Dear {{1}}, your notice is attached.',
  });
  t = await createTestApp({
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: peer.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_BUSINESS_ACCOUNT_ID: '555000111',
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: 'verify-me',
    JOB_RETRY_BACKOFF: '100ms',
  });
  db = (await openDatabase(t.config)).db;
  admin = await signUp(t.app, 'admin');
  const set = await t.app.inject({
    method: 'PUT',
    url: '/api/whatsapptemplates/approved/notice',
    headers: admin.headers,
    payload: { name: 'legal_notice', language: 'en', bodyFields: ['custName'] },
  });
  expect(set.statusCode).toBe(200);
});
afterEach(async () => {
  await db.destroy();
  await t.close();
  await smtp.close();
  await peer.close();
});

async function notice(modeOfDispatch: string, overrides: Record<string, string> = {}) {
  const i = ++counter;
  const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${i}`]));
  const payload = {
    ...fields,
    emailId: `customer${i}@example.com`,
    custMobileNo: `98765${String(i).padStart(5, '0')}`,
    modeOfDispatch,
    ...overrides,
  };
  const res = await t.app.inject({ method: 'POST', url: '/api/notices', headers: admin.headers, payload });
  return res.json<{ _id: string }>()._id;
}

const send = (ids: string[]) =>
  t.app.inject({
    method: 'POST',
    url: '/api/campaigns/send-mail',
    headers: admin.headers,
    payload: { data: ids, type: 'notice' },
  });

/** The record's delivery on a channel once it has settled (not queued), waiting for retries. */
async function settled(recordId: string, channel: 'email' | 'whatsapp', withinMs = 15_000) {
  const until = Date.now() + withinMs;
  for (;;) {
    const row = await db
      .selectFrom('deliveries')
      .selectAll()
      .where('record_id', '=', recordId)
      .where('channel', '=', channel)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    if (row.status !== 'queued' || Date.now() > until) return row;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function eventsOf(deliveryId: string) {
  return db
    .selectFrom('delivery_events')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('at')
    .execute();
}

describe('WhatsApp errors as the Cloud API defines them', () => {
  const retried: [PeerError, RegExp][] = [
    [
      { status: 429, code: 130429, message: '(#130429) Rate limit hit' },
      /WhatsApp asked to slow down: \(#130429\)/,
    ],
    [{ status: 400, code: 80007, message: 'Rate limit issues' }, /WhatsApp asked to slow down: \(#80007\)/],
    [{ status: 500 }, /WhatsApp asked to try later: HTTP 500/],
    [
      { status: 503, code: 131016, message: 'Service unavailable' },
      /WhatsApp asked to try later: \(#131016\)/,
    ],
    [
      { status: 400, code: 131000, message: 'Something went wrong' },
      /WhatsApp asked to try later: \(#131000\)/,
    ],
  ];
  it.each(retried)('retries %o with backoff, then sends it once', async (error, reason) => {
    const id = await notice('WhatsApp');
    peer.failNext(error);
    await send([id]);
    const delivery = await settled(id, 'whatsapp');
    expect(delivery.status).toBe('sent');
    expect(delivery.error).toBeNull();
    expect(peer.messages).toHaveLength(1);
    const details = (await eventsOf(delivery.id)).map((e) => e.detail ?? '');
    expect(
      details.some((detail) => reason.test(detail)),
      details.join(' | '),
    ).toBe(true);
  });

  it('waits out one number’s window (131056) before it tries that message again', async () => {
    const id = await notice('WhatsApp');
    peer.failNext({
      status: 400,
      code: 131056,
      message: '(#131056) (Business Account, Consumer Account) pair rate limit hit',
    });
    const started = Date.now();
    await send([id]);
    const delivery = await settled(id, 'whatsapp');
    expect(delivery.status).toBe('sent');
    expect(peer.messages[0]!.at - started).toBeGreaterThanOrEqual(5_500);
  }, 20_000);

  it('fails at once, with a reason a person can read, what WhatsApp will never take', async () => {
    const permanent: [PeerError | { to: string }, string][] = [
      [
        { status: 400, code: 131047, message: 'Re-engagement message' },
        'WhatsApp refused the message: (#131047) WhatsApp refuses a message outside the 24-hour window; use an approved template (Re-engagement message)',
      ],
      [
        { status: 400, code: 470, message: 'Message failed to send because more than 24 hours have passed' },
        '(#470) WhatsApp refuses a message outside the 24-hour window; use an approved template',
      ],
      [
        { status: 400, code: 131026, message: 'Message undeliverable' },
        '(#131026) The number is not a WhatsApp user (or cannot receive this message) (Message undeliverable)',
      ],
      [
        { status: 400, code: 132000, message: 'Number of parameters does not match' },
        '(#132000) The template’s body parameters do not match the fields mapped to it',
      ],
      [
        { status: 400, code: 132001, message: 'Template name does not exist in the translation' },
        '(#132001) The template does not exist in that language (or is not approved yet)',
      ],
      [
        { status: 400, code: 132015, message: 'Template is paused' },
        '(#132015) The template is paused for low quality',
      ],
      [
        { status: 400, code: 132010, message: 'Template issue' },
        '(#132010) WhatsApp refused the template (Template issue)',
      ],
      [
        { status: 400, code: 100, message: 'Invalid parameter', details: 'Invalid phone number' },
        '(#100) Invalid parameter: Invalid phone number',
      ],
    ];
    for (const [error, reason] of permanent) {
      const id = await notice('WhatsApp');
      peer.failNext(error as PeerError);
      const answer = (await send([id])).json();
      expect(answer, JSON.stringify(error)).toMatchObject({ failed: 1, queued: 0 });
      const delivery = await settled(id, 'whatsapp');
      expect(delivery.status).toBe('failed');
      expect(delivery.error).toContain(reason);
    }
    // Numbers that are no phone number never reach WhatsApp: the send leaves them out as not serviceable.
    for (const [number, reason] of [
      ['12', 'not a mobile number (too short or too long)'],
      ['not-a-number', 'the number contains letters or symbols'],
      ['+0123456789', 'not a mobile number (too short or too long)'],
    ] as const) {
      const id = await notice('WhatsApp', { custMobileNo: number });
      expect((await send([id])).json()).toMatchObject({ failed: 0, notServiceable: 1 });
      expect(await settled(id, 'whatsapp')).toMatchObject({ status: 'not_serviceable', error: reason });
    }
    expect(peer.messages).toHaveLength(0);
  });

  it('turns a delivery failed from a webhook’s failed status with its errors, forward only', async () => {
    const ids = [await notice('WhatsApp'), await notice('WhatsApp')];
    await send(ids);
    const wamid = async (recordId: string) => ({
      id: (await settled(recordId, 'whatsapp')).provider_message_id!,
    });
    const [first, second] = [await wamid(ids[0]!), await wamid(ids[1]!)];
    const post = (statuses: Parameters<typeof peer.statusWebhook>[1]) => {
      const { body, signature } = peer.statusWebhook(APP_SECRET, statuses);
      return t.app.inject({
        method: 'POST',
        url: '/api/webhooks/whatsapp',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        payload: body,
      });
    };
    const now = Math.floor(Date.now() / 1000);
    await post([
      {
        id: first!.id,
        status: 'failed',
        timestamp: now,
        errors: [
          {
            code: 131047,
            title: 'Re-engagement message',
            error_data: {
              details:
                'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
            },
          },
        ],
      },
      { id: second!.id, status: 'delivered', timestamp: now },
    ]);
    await post([
      {
        id: second!.id,
        status: 'failed',
        timestamp: now + 1,
        errors: [{ code: 131026, title: 'Message undeliverable' }],
      },
    ]);
    const failed = await settled(ids[0]!, 'whatsapp');
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe(
      'WhatsApp could not deliver the message: (#131047) WhatsApp refuses a message outside the 24-hour window; use an approved template (Re-engagement message: Message failed to send because more than 24 hours have passed since the customer last replied to this number.)',
    );
    // A message already delivered cannot fail any more.
    expect(await settled(ids[1]!, 'whatsapp')).toMatchObject({ status: 'delivered', error: null });
  });
});

describe('SMTP errors', () => {
  it.each([421, 450, 451, 452])('retries a %i reply with backoff, then sends it once', async (code) => {
    const id = await notice('Email');
    smtp.failNext(1, code);
    await send([id]);
    const delivery = await settled(id, 'email');
    expect(delivery.status).toBe('sent');
    expect(smtp.mails).toHaveLength(1);
    const details = (await eventsOf(delivery.id)).map((e) => e.detail ?? '');
    expect(details.some((detail) => detail.includes(`The mail server asked to try later: ${code}`))).toBe(
      true,
    );
  });

  it('fails 5xx replies and invalid addresses at once, with the server’s words', async () => {
    for (const code of [550, 552, 554]) {
      const id = await notice('Email');
      smtp.failNext(1, code, 'Message rejected as spam');
      expect((await send([id])).json()).toMatchObject({ failed: 1 });
      const delivery = await settled(id, 'email');
      expect(delivery.status).toBe('failed');
      expect(delivery.error).toBe(`The mail server refused the message: ${code} Message rejected as spam`);
    }
    // Addresses that cannot be served by their form never reach the mail server: left out, with why.
    for (const [address, reason] of [
      ['no-at-sign', 'no @ in the address'],
      ['a@b', 'no dot in the domain'],
      ['two@@example.com', 'more than one @'],
    ] as const) {
      const id = await notice('Email', { emailId: address });
      expect((await send([id])).json()).toMatchObject({ failed: 0, notServiceable: 1 });
      expect(await settled(id, 'email')).toMatchObject({ status: 'not_serviceable', error: reason });
    }
  });
});
