import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.ts';
import type { Channel, DeliveryStatus } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { seedDelivery } from '../../test/deliveries.ts';
import { startSmtpListener, startWhatsappPeer } from '../../test/peers.ts';
import { noticeKind } from '../records/record-kinds.ts';
import * as deliveries from './deliveries.repository.ts';

const APP_SECRET = 'peer-app-secret';
const DAY = 86_400;
let t: TestApp;
let db: Database;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let peer: Awaited<ReturnType<typeof startWhatsappPeer>>;
let asha: SignedIn;
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpListener();
  peer = await startWhatsappPeer();
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  t = await createTestApp(
    {
      SMTP_URL: smtp.url,
      WHATSAPP_API_URL: peer.apiUrl,
      WHATSAPP_TOKEN: 'peer-token',
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_MODE: 'session', // free-form document messages, as these tests read them
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: 'verify-me',
      LOG_LEVEL: 'warn',
    },
    { logStream },
  );
  db = (await openDatabase(t.config)).db;
  asha = await signUp(t.app, 'asha');
});
afterAll(async () => {
  await db?.destroy();
  await t?.close();
  await smtp?.close();
  await peer?.close();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);
const sign = (body: string, secret = APP_SECRET) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** POSTs a raw body as Meta would, signed with the app secret unless told otherwise. */
const post = (app: TestApp['app'], body: string, signature = sign(body)) =>
  app.inject({
    method: 'POST',
    url: '/api/webhooks/whatsapp',
    payload: body,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
  });

interface Status {
  id: string;
  status: string;
  timestamp?: number | string;
  errors?: unknown;
}
/** A Cloud API status webhook body (statuses may be split over several entries, as Meta batches them). */
const statusBody = (...entries: Status[][]) =>
  JSON.stringify({
    object: 'whatsapp_business_account',
    entry: entries.map((statuses, i) => ({
      id: String(i + 1),
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { phone_number_id: '1234567890' },
            statuses: statuses.map((s) => ({
              recipient_id: '919876500001',
              ...s,
              timestamp: String(s.timestamp ?? nowSeconds()),
            })),
          },
        },
      ],
    })),
  });
const postStatuses = (...statuses: Status[]) => post(t.app, statusBody(statuses));

/** A delivery as the send path leaves it: claimed, then handed to its provider (or the outbox). */
async function handedOver(
  channel: Channel,
  status: Extract<DeliveryStatus, 'sent' | 'outbox' | 'delivered'>,
  providerMessageId = channel === 'email' ? `<${newId()}@localhost>` : `wamid.${newId()}`,
) {
  const id = await seedDelivery(
    db,
    { owner_id: asha.userId, channel },
    status === 'delivered' ? 'sent' : status,
    {
      provider_message_id: providerMessageId,
    },
  );
  if (status === 'delivered')
    await deliveries.advanceStatus(db, { id, status: 'sent' }, 'delivered', new Date().toISOString());
  return { id, providerMessageId };
}

const deliveryRow = (id: string) =>
  db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/** In the order they reached us, as the evidence lists them (no index gives an order of its own). */
const eventsOf = (id: string) =>
  db
    .selectFrom('delivery_events')
    .select(['status', 'at', 'detail'])
    .where('delivery_id', '=', id)
    .orderBy((eb) => eb.fn.coalesce('recorded_at', 'at'))
    .orderBy('at')
    .execute();

describe('WhatsApp status webhooks', () => {
  it('answers the verification handshake only with the right token', async () => {
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=12345',
    });
    expect(ok.body).toBe('12345');
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1',
    });
    expect(bad.statusCode).toBe(403);
  });

  it('applies signed updates of a real send forward only, refuses a forged one, and never touches the e-mail', async () => {
    const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-1`]));
    const created = (
      await t.app.inject({
        method: 'POST',
        url: '/api/notices',
        headers: asha.headers,
        payload: {
          ...fields,
          emailId: 'customer1@example.com',
          custMobileNo: '9876500001',
          modeOfDispatch: 'Email and WhatsApp',
        },
      })
    ).json<{ _id: string; campaignId: string }>();
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/send-mail',
      headers: asha.headers,
      payload: { data: [created._id], type: 'notice' },
    });
    expect(sent.json()).toMatchObject({ sent: 2 });
    const statuses = async () => {
      const detail = await t.app.inject({
        method: 'GET',
        url: `/api/campaigns/single-campaign/${created.campaignId}`,
        headers: asha.headers,
      });
      const row = detail.json().notices[0];
      return [row.emailResponse, row.whatsappResponse];
    };
    const wamid = peer.messages.at(-1)!.id;
    const [mail] = await db
      .selectFrom('deliveries')
      .selectAll()
      .where('record_id', '=', created._id)
      .where('channel', '=', 'email')
      .execute();

    const forged = peer.statusWebhook('not-the-secret', [{ id: wamid, status: 'read' }]);
    expect((await post(t.app, forged.body, forged.signature)).statusCode).toBe(401);
    const genuine = peer.statusWebhook(APP_SECRET, [{ id: wamid, status: 'delivered' }]);
    expect((await post(t.app, genuine.body, genuine.signature)).json()).toMatchObject({ applied: 1 });
    expect(await statuses()).toEqual(['sent', 'delivered']);

    // A WhatsApp status carrying the e-mail's Message-ID is no status of that e-mail.
    for (const status of ['delivered', 'read', 'failed'])
      expect((await postStatuses({ id: mail!.provider_message_id!, status })).json()).toMatchObject({
        applied: 0,
        unmatched: 1,
      });
    expect(await statuses()).toEqual(['sent', 'delivered']);
    expect((await eventsOf(mail!.id)).map((e) => e.status)).toEqual(['queued', 'sent']);

    const read = await postStatuses({ id: wamid, status: 'read' });
    expect(read.json()).toMatchObject({ applied: 1 });
    // Out of order: a delivered stamped a minute earlier arrives after the read.
    expect(
      (await postStatuses({ id: wamid, status: 'delivered', timestamp: nowSeconds() - 60 })).json(),
    ).toMatchObject({ applied: 0, unchanged: 1 });
    expect(await statuses()).toEqual(['sent', 'read']);
  });

  it('applies a status only to a WhatsApp delivery the Cloud API sent, never to an e-mail or an outbox one', async () => {
    const mail = await handedOver('email', 'sent');
    const sameIdMail = await handedOver('email', 'sent', `wamid.${newId()}`);
    const outbox = await handedOver('whatsapp', 'outbox', `outbox-${newId()}`);
    const targets = [mail, sameIdMail, outbox];
    const answers = [];
    for (const target of targets)
      for (const status of ['sent', 'delivered', 'read', 'failed'])
        answers.push(await postStatuses({ id: target.providerMessageId, status }));
    expect((await deliveryRow(mail.id)).status).toBe('sent');
    expect((await deliveryRow(sameIdMail.id)).status).toBe('sent');
    expect((await deliveryRow(outbox.id)).status).toBe('outbox');
    for (const target of targets) expect(await eventsOf(target.id)).toHaveLength(2);
    for (const res of answers) expect(res.json()).toMatchObject({ applied: 0, unmatched: 1 });
  });

  it('never moves an outbox delivery, whoever asks: nothing was sent, so nothing was delivered or read', async () => {
    const outbox = await handedOver('whatsapp', 'outbox', `outbox-${newId()}`);
    for (const status of ['sent', 'delivered', 'read', 'failed'] as const)
      expect(
        await deliveries.advanceStatus(
          db,
          { id: outbox.id, status: 'outbox' },
          status,
          new Date().toISOString(),
        ),
      ).toBe(false);
    expect((await deliveryRow(outbox.id)).status).toBe('outbox');
  });

  it('applies a replayed event once: the same message, status and timestamp adds no row, even 50 at once', async () => {
    const { id, providerMessageId } = await handedOver('whatsapp', 'sent');
    const at = nowSeconds() - 60;
    const delivered = statusBody([{ id: providerMessageId, status: 'delivered', timestamp: at }]);
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(t.app, delivered)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(200));
    expect((await eventsOf(id)).map((e) => e.status)).toEqual(['queued', 'sent', 'delivered']);
    const sum = (key: string) => answers.reduce((n, a) => n + (a.json()[key] as number), 0);
    expect([sum('applied'), sum('replayed')]).toEqual([1, 49]);

    // A replayed read in the same batch twice, and a batch of read and delivered replays, 50 at once.
    const read = { id: providerMessageId, status: 'read', timestamp: at + 1 };
    const twice = await postStatuses(read, read);
    expect(twice.json()).toMatchObject({ applied: 1, replayed: 1 });
    const mixed = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? postStatuses(read)
          : post(t.app, statusBody([read], [{ ...read, status: 'delivered', timestamp: at }])),
      ),
    );
    expect(
      mixed.every((a) => a.statusCode === 200 && a.json().applied === 0 && a.json().unchanged === 0),
    ).toBe(true);

    expect((await deliveryRow(id)).status).toBe('read');
    const events = await eventsOf(id);
    expect(events.map((e) => e.status)).toEqual(['queued', 'sent', 'delivered', 'read']);
    expect(events.filter((e) => e.status === 'delivered')[0]!.at).toBe(new Date(at * 1000).toISOString());

    // The same status at another time is another event: recorded, but the status stays where it is.
    expect(
      (await postStatuses({ id: providerMessageId, status: 'delivered', timestamp: at + 5 })).json(),
    ).toMatchObject({ applied: 0, unchanged: 1 });
    expect((await deliveryRow(id)).status).toBe('read');
  });

  it('fails a delivery with the reason WhatsApp gives, and only before it was delivered', async () => {
    const failing = await handedOver('whatsapp', 'sent');
    const failed = await postStatuses({
      id: failing.providerMessageId,
      status: 'failed',
      errors: [
        {
          code: 131026,
          title: 'Message undeliverable',
          message: 'Message undeliverable',
          error_data: { details: 'Message could not be delivered' },
        },
      ],
    });
    expect(failed.json()).toMatchObject({ applied: 1 });
    expect(await deliveryRow(failing.id)).toMatchObject({
      status: 'failed',
      error:
        'WhatsApp could not deliver the message: (#131026) The number is not a WhatsApp user (or cannot receive this message) (Message undeliverable: Message could not be delivered)',
      active_key: null,
    });
    // Failed is final: a late delivered or read changes nothing but the history.
    for (const status of ['delivered', 'read'])
      expect((await postStatuses({ id: failing.providerMessageId, status })).json()).toMatchObject({
        applied: 0,
        unchanged: 1,
      });
    expect((await deliveryRow(failing.id)).status).toBe('failed');

    const bare = await handedOver('whatsapp', 'sent');
    await postStatuses({ id: bare.providerMessageId, status: 'failed', errors: [] });
    expect(await deliveryRow(bare.id)).toMatchObject({
      status: 'failed',
      error: 'WhatsApp could not deliver the message.',
    });

    const delivered = await handedOver('whatsapp', 'delivered');
    expect(
      (
        await postStatuses({
          id: delivered.providerMessageId,
          status: 'failed',
          errors: [{ code: 131000, title: 'Something went wrong' }],
        })
      ).json(),
    ).toMatchObject({ applied: 0, unchanged: 1 });
    expect(await deliveryRow(delivered.id)).toMatchObject({ status: 'delivered', error: null });
  });

  it('ignores the statuses WhatsApp documents that say nothing about delivery, and says so', async () => {
    const { id, providerMessageId } = await handedOver('whatsapp', 'sent');
    const res = await postStatuses(
      ...['deleted', 'warning', 'played'].map((status) => ({ id: providerMessageId, status })),
    );
    expect(res.json()).toEqual({
      applied: 0,
      unchanged: 0,
      replayed: 0,
      refused: 0,
      unmatched: 0,
      ignored: 3,
    });
    expect((await deliveryRow(id)).status).toBe('sent');
    expect(await eventsOf(id)).toHaveLength(2);
  });
});

describe('WhatsApp status webhooks: the time window', () => {
  it('skips, counts and logs a stale or future status in a batch and applies the rest', async () => {
    const stale = await handedOver('whatsapp', 'sent');
    const future = await handedOver('whatsapp', 'sent');
    const fresh = await handedOver('whatsapp', 'sent');
    const res = await postStatuses(
      { id: stale.providerMessageId, status: 'read', timestamp: nowSeconds() - 7 * DAY - 60 },
      { id: future.providerMessageId, status: 'read', timestamp: nowSeconds() + DAY },
      { id: fresh.providerMessageId, status: 'read', timestamp: nowSeconds() - 6 * DAY },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ applied: 1, refused: 2 });
    expect((await deliveryRow(stale.id)).status).toBe('sent');
    expect((await deliveryRow(future.id)).status).toBe('sent');
    expect((await deliveryRow(fresh.id)).status).toBe('read');
    expect(await eventsOf(stale.id)).toHaveLength(2);
    const warnings = logLines.filter((line) => line.includes('outside the accepted window'));
    expect(warnings.some((line) => line.includes(stale.providerMessageId))).toBe(true);
    expect(warnings.some((line) => line.includes(future.providerMessageId))).toBe(true);
  });

  it.each([
    ['eight days old', () => nowSeconds() - 8 * DAY],
    ['a year old', () => nowSeconds() - 365 * DAY],
    ['from 1970', () => 0],
    ['a day in the future', () => nowSeconds() + DAY],
  ])('refuses with 400 a body whose every status is %s', async (_, timestamp) => {
    const { id, providerMessageId } = await handedOver('whatsapp', 'sent');
    const res = await postStatuses(
      { id: providerMessageId, status: 'delivered', timestamp: timestamp() },
      { id: providerMessageId, status: 'read', timestamp: timestamp() },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      statusCode: 400,
      code: 'WEBHOOK_OUTSIDE_WINDOW',
      message: expect.stringMatching(
        /^No status was applied: each one is older than WEBHOOK_MAX_AGE \(7d\) or dated in the future; the first is 'delivered' for wamid\./,
      ),
    });
    expect((await deliveryRow(id)).status).toBe('sent');
    expect(await eventsOf(id)).toHaveLength(2);
  });

  it('follows WEBHOOK_MAX_AGE', async () => {
    const short = await createTestApp({ WHATSAPP_APP_SECRET: APP_SECRET, WEBHOOK_MAX_AGE: '1h' });
    try {
      const body = (age: number) =>
        statusBody([{ id: 'wamid.none', status: 'read', timestamp: nowSeconds() - age }]);
      expect((await post(short.app, body(2 * 3600))).json().message).toMatch(
        /older than WEBHOOK_MAX_AGE \(1h\)/,
      );
      expect((await post(short.app, body(1800))).json()).toMatchObject({ refused: 0, unmatched: 1 });
    } finally {
      await short.close();
    }
  });
});

/** Hostile signed bodies: each answers 400 naming what is wrong, and nothing of it is applied. */
const wrapStatus = (status: Record<string, unknown>) =>
  JSON.stringify({ entry: [{ changes: [{ value: { statuses: [status] } }] }] });
const hostile: [string, (id: string) => string, RegExp][] = [
  ['an empty body', () => '', /webhook body is empty/],
  ['null', () => 'null', /not valid: must be a JSON object/],
  ['a list', () => '[{"entry":[]}]', /not valid: must be a JSON object/],
  ['a string', () => '"entry"', /not valid: must be a JSON object/],
  ['no entry', () => '{"object":"whatsapp_business_account"}', /entry is missing: expected a list/],
  ['entry an object', () => '{"entry":{"changes":[]}}', /entry must be a list/],
  ['entry a string', () => '{"entry":"abc"}', /entry must be a list/],
  ['entry [null]', () => '{"entry":[null]}', /entry\[\d\] must be an object/],
  ['changes an object', () => '{"entry":[{"changes":{"value":{}}}]}', /entry\[\d\]\.changes must be a list/],
  ['changes [null]', () => '{"entry":[{"changes":[null]}]}', /entry\[\d\]\.changes\[0\] must be an object/],
  ['value a list', () => '{"entry":[{"changes":[{"value":[]}]}]}', /changes\[0\]\.value must be an object/],
  [
    'statuses an object',
    () => '{"entry":[{"changes":[{"value":{"statuses":{}}}]}]}',
    /statuses must be a list/,
  ],
  [
    'statuses [null]',
    () => '{"entry":[{"changes":[{"value":{"statuses":[null]}}]}]}',
    /statuses\[0\] must be a status object/,
  ],
  [
    'timestamp "abc"',
    (id) => wrapStatus({ id, status: 'read', timestamp: 'abc' }),
    /timestamp "abc" is not Unix seconds/,
  ],
  [
    'timestamp 1e20',
    (id) => wrapStatus({ id, status: 'read', timestamp: 1e20 }),
    /timestamp 100000000000000000000 is not Unix seconds/,
  ],
  [
    'timestamp "1e20"',
    (id) => wrapStatus({ id, status: 'read', timestamp: '1e20' }),
    /timestamp "1e20" is not Unix seconds/,
  ],
  [
    'timestamp -5',
    (id) => wrapStatus({ id, status: 'read', timestamp: -5 }),
    /timestamp -5 is not Unix seconds/,
  ],
  [
    'timestamp 1.5',
    (id) => wrapStatus({ id, status: 'read', timestamp: 1.5 }),
    /timestamp 1.5 is not Unix seconds/,
  ],
  ['timestamp missing', (id) => wrapStatus({ id, status: 'read' }), /timestamp is missing/],
  [
    'timestamp an object',
    (id) => wrapStatus({ id, status: 'read', timestamp: {} }),
    /timestamp \{\} is not Unix seconds/,
  ],
  [
    'status constructor',
    (id) => wrapStatus({ id, status: 'constructor', timestamp: '1' }),
    /"constructor" is not a WhatsApp status/,
  ],
  [
    'status __proto__',
    (id) => wrapStatus({ id, status: '__proto__', timestamp: '1' }),
    /"__proto__" is not a WhatsApp status/,
  ],
  [
    'status toString',
    (id) => wrapStatus({ id, status: 'toString', timestamp: '1' }),
    /"toString" is not a WhatsApp status/,
  ],
  [
    'status hasOwnProperty',
    (id) => wrapStatus({ id, status: 'hasOwnProperty', timestamp: '1' }),
    /"hasOwnProperty" is not a WhatsApp status/,
  ],
  [
    'status READ',
    (id) => wrapStatus({ id, status: 'READ', timestamp: '1' }),
    /"READ" is not a WhatsApp status/,
  ],
  [
    'status a list',
    (id) => wrapStatus({ id, status: ['read'], timestamp: '1' }),
    /\["read"\] is not a WhatsApp status/,
  ],
  ['status missing', (id) => wrapStatus({ id, timestamp: '1' }), /status is missing/],
  [
    'errors a string',
    (id) => wrapStatus({ id, status: 'failed', timestamp: '1', errors: 'boom' }),
    /errors must be a list of error objects/,
  ],
  [
    'errors an object',
    (id) => wrapStatus({ id, status: 'failed', timestamp: '1', errors: { code: 1 } }),
    /errors must be a list of error objects/,
  ],
  [
    'errors ["x"]',
    (id) => wrapStatus({ id, status: 'failed', timestamp: '1', errors: ['x'] }),
    /errors\[0\] must be an error object/,
  ],
  [
    'an error code "abc"',
    (id) => wrapStatus({ id, status: 'failed', timestamp: '1', errors: [{ code: 'abc' }] }),
    /errors\[0\]\.code must be a number/,
  ],
  [
    'id an object',
    () => wrapStatus({ id: { $ne: null }, status: 'read', timestamp: '1' }),
    /statuses\[0\]\.id must be text/,
  ],
  [
    'id a number',
    () => wrapStatus({ id: 5, status: 'read', timestamp: '1' }),
    /statuses\[0\]\.id must be text/,
  ],
  [
    'id empty',
    () => wrapStatus({ id: '', status: 'read', timestamp: '1' }),
    /statuses\[0\]\.id must not be empty/,
  ],
  [
    'id missing',
    () => wrapStatus({ status: 'read', timestamp: '1' }),
    /statuses\[0\]\.id is missing: expected text/,
  ],
  [
    'id of 1,000 characters',
    () => wrapStatus({ id: 'w'.repeat(1000), status: 'read', timestamp: '1' }),
    /id must be at most 256 characters/,
  ],
];

describe('WhatsApp status webhooks: malformed signed bodies', () => {
  it.each(hostile)('answers 400 to %s, naming the problem, and applies nothing', async (_, make, message) => {
    const { id, providerMessageId } = await handedOver('whatsapp', 'sent');
    // A good status first: a body with a problem anywhere is refused whole.
    const bad = JSON.parse(make(providerMessageId) || 'null') as { entry?: unknown[] } | null;
    const body =
      bad && Array.isArray(bad.entry)
        ? JSON.stringify({
            ...bad,
            entry: [
              {
                changes: [
                  {
                    value: {
                      statuses: [{ id: providerMessageId, status: 'read', timestamp: String(nowSeconds()) }],
                    },
                  },
                ],
              },
              ...bad.entry,
            ],
          })
        : make(providerMessageId);
    const res = await post(t.app, body);
    expect(res.statusCode, res.body).toBe(400);
    const answer = res.json();
    expect(Object.keys(answer).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
    expect(answer.message).toMatch(message);
    expect(answer.error).toBe(answer.message);
    expect((await deliveryRow(id)).status).toBe('sent');
    expect(await eventsOf(id)).toHaveLength(2);
  });

  it('answers 401, not 500, to a body without a content type or signature', async () => {
    for (const headers of [{}, { 'content-type': 'text/plain' }, { 'x-hub-signature-256': sign('') }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/whatsapp', headers, payload: '' });
      expect(res.statusCode, JSON.stringify(headers)).toBe(
        Object.keys(headers).includes('x-hub-signature-256') ? 400 : 401,
      );
    }
  });
});
