import { generateKeyPairSync, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { seedDelivery } from '../../test/deliveries.ts';
import * as deliveries from '../sending/deliveries.repository.ts';
import * as undeliverable from './undeliverable.repository.ts';

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:ses-bounces';
const POSTMARK_TOKEN = 'postmark-token-0123456789';
const DOMAIN = 'notices.example.com';
const sns = generateKeyPairSync('rsa', { modulusLength: 2048 });
const sendgrid = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
let certPeer: http.Server;
let certUrl: string;
let t: TestApp;
let bare: TestApp;
let db: Database;
let asha: SignedIn;
const logLines: string[] = [];

beforeAll(async () => {
  // The SNS signing certificate, served by a local peer (tests cannot reach AWS).
  certPeer = http.createServer((req, res) => {
    if (req.url === '/SimpleNotificationService-test.pem')
      res.end(sns.publicKey.export({ type: 'spki', format: 'pem' }));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => certPeer.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(certPeer.address() as AddressInfo).port}`;
  certUrl = `http://${host}/SimpleNotificationService-test.pem`;
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  t = await createTestApp(
    {
      APP_URL: `https://${DOMAIN}`,
      SES_SNS_TOPIC_ARN: TOPIC,
      SES_SNS_CERT_HOSTS: `sns.*.amazonaws.com,http://${host}`,
      SENDGRID_WEBHOOK_PUBLIC_KEY: sendgrid.publicKey
        .export({ type: 'spki', format: 'der' })
        .toString('base64'),
      POSTMARK_WEBHOOK_TOKEN: POSTMARK_TOKEN,
      LOG_LEVEL: 'warn',
    },
    { logStream },
  );
  bare = await createTestApp();
  db = (await openDatabase(t.config)).db;
  asha = await signUp(t.app, 'asha');
});
afterAll(async () => {
  await db?.destroy();
  await t?.close();
  await bare?.close();
  certPeer?.close();
});

const sentMail = (recipient: string) => {
  const id = newId();
  return seedDelivery(
    db,
    {
      id,
      owner_id: asha.userId,
      recipient,
      recipient_name: 'Asha',
      attempted_at: new Date().toISOString(),
      record_address_at_send: recipient,
    },
    'sent',
    { provider_message_id: `<${id}@${DOMAIN}>` },
  );
};
const delivery = async (id: string) => (await deliveries.findDeliveries(db, [id]))[0]!;

/** An SNS notification carrying an SES event, signed (version 2) as SNS signs. */
function snsBody(message: object, options: { topic?: string; cert?: string; tamper?: boolean } = {}) {
  const fields: Record<string, string> = {
    Type: 'Notification',
    MessageId: newId(),
    TopicArn: options.topic ?? TOPIC,
    Message: JSON.stringify(message),
    Timestamp: new Date().toISOString(),
    SignatureVersion: '2',
    SigningCertURL: options.cert ?? certUrl,
  };
  const canonical = ['Message', 'MessageId', 'Timestamp', 'TopicArn', 'Type']
    .map((name) => `${name}\n${fields[name]}\n`)
    .join('');
  fields.Signature = sign('RSA-SHA256', Buffer.from(canonical), sns.privateKey).toString('base64');
  if (options.tamper) fields.Message = fields.Message!.replace('Permanent', 'Permanent ');
  return JSON.stringify(fields);
}
const sesBounce = (id: string, recipient: string, bounceType = 'Permanent') => ({
  notificationType: 'Bounce',
  bounce: {
    bounceType,
    bouncedRecipients: [
      { emailAddress: recipient, status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' },
    ],
  },
  mail: { messageId: 'ses-own-id', commonHeaders: { messageId: `<${id}@${DOMAIN}>` } },
});
const postSes = (app: TestApp['app'], body: string) =>
  app.inject({
    method: 'POST',
    url: '/api/webhooks/email',
    payload: body,
    headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': 'Notification' },
  });

function sendgridRequest(events: unknown, key = sendgrid.privateKey) {
  const body = JSON.stringify(events);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = sign('sha256', Buffer.from(timestamp + body), key).toString('base64');
  return {
    method: 'POST' as const,
    url: '/api/webhooks/email',
    payload: body,
    headers: {
      'content-type': 'application/json',
      'x-twilio-email-event-webhook-signature': signature,
      'x-twilio-email-event-webhook-timestamp': timestamp,
    },
  };
}

const postmarkRequest = (event: unknown, password = POSTMARK_TOKEN) => ({
  method: 'POST' as const,
  url: '/api/webhooks/email',
  payload: JSON.stringify(event),
  headers: {
    'content-type': 'application/json',
    authorization: `Basic ${Buffer.from(`postmark:${password}`).toString('base64')}`,
  },
});

describe('POST /api/webhooks/email', () => {
  it('SES: a signed permanent bounce turns the delivery bounced with the reason, once; a complaint remembers the address', async () => {
    const id = await sentMail('gone@example.org');
    const body = snsBody(sesBounce(id, 'gone@example.org'));
    const res = await postSes(t.app, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ applied: 1 });
    expect(await delivery(id)).toMatchObject({
      status: 'bounced',
      error: 'The mail server returned it (5.1.1): smtp; 550 5.1.1 user unknown',
    });
    expect((await postSes(t.app, body)).json()).toMatchObject({ applied: 0, replayed: 1 });

    const complained = await sentMail('angry@example.org');
    const complaint = await postSes(
      t.app,
      snsBody({
        notificationType: 'Complaint',
        complaint: { complainedRecipients: [{ emailAddress: 'angry@example.org' }] },
        mail: { commonHeaders: { messageId: `<${complained}@${DOMAIN}>` } },
      }),
    );
    expect(complaint.json()).toMatchObject({ unchanged: 1 });
    expect((await delivery(complained)).status).toBe('sent');
    expect(await undeliverable.findRemembered(db, asha.userId, 'email', ['angry@example.org'])).toHaveLength(
      1,
    );
  });

  it('SES: a transient bounce, another recipient or an unknown message changes nothing', async () => {
    const id = await sentMail('soft@example.org');
    expect(
      (await postSes(t.app, snsBody(sesBounce(id, 'soft@example.org', 'Transient')))).json(),
    ).toMatchObject({
      applied: 0,
    });
    expect((await postSes(t.app, snsBody(sesBounce(id, 'other@example.org')))).json()).toMatchObject({
      mismatched: 1,
    });
    expect((await postSes(t.app, snsBody(sesBounce(newId(), 'soft@example.org')))).json()).toMatchObject({
      unmatched: 1,
    });
    expect((await delivery(id)).status).toBe('sent');
  });

  it('SES: refuses a changed message, a certificate from a host not allowed, another topic and a malformed message', async () => {
    const id = await sentMail('hostile@example.org');
    const cases: [string, number, RegExp][] = [
      [snsBody(sesBounce(id, 'hostile@example.org'), { tamper: true }), 401, /signature does not match/],
      [
        snsBody(sesBounce(id, 'hostile@example.org'), { cert: 'https://evil.example.com/cert.pem' }),
        401,
        /not one of SES_SNS_CERT_HOSTS/,
      ],
      [
        snsBody(sesBounce(id, 'hostile@example.org'), {
          cert: 'https://sns.eu-west-1.amazonaws.com.evil.com/x.pem',
        }),
        401,
        /not one of SES_SNS_CERT_HOSTS/,
      ],
      [snsBody(sesBounce(id, 'hostile@example.org'), { topic: `${TOPIC}-other` }), 401, /topic/],
      [snsBody({ notificationType: 'Bounce' }), 400, /not an SES notification/],
      ['{"Type":"Notification"', 400, /not JSON/],
    ];
    for (const [body, status, message] of cases) {
      const res = await postSes(t.app, body);
      expect(res.statusCode, body.slice(0, 80)).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    expect((await delivery(id)).status).toBe('sent');
  });

  it('SendGrid: a signed bounce applies; a wrong signature or a body not a list is refused', async () => {
    const id = await sentMail('sg@example.org');
    const events = [
      {
        email: 'sg@example.org',
        event: 'bounce',
        type: 'bounce',
        status: '5.0.0',
        reason: '550 no such user',
        'smtp-id': `<${id}@${DOMAIN}>`,
        sg_event_id: 'e1',
      },
      // Delivered after the bounce in the same batch: kept in the trail as refused.
      {
        email: 'sg@example.org',
        event: 'delivered',
        timestamp: 1513299569,
        'smtp-id': `<${id}@${DOMAIN}>`,
        sg_event_id: 'e2',
      },
    ];
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const forged = await t.app.inject(sendgridRequest(events, other.privateKey));
    expect(forged.statusCode).toBe(401);
    expect((await delivery(id)).status).toBe('sent');
    const notList = await t.app.inject(sendgridRequest({ event: 'bounce' }));
    expect(notList.statusCode).toBe(400);
    const res = await t.app.inject(sendgridRequest(events));
    expect(res.json()).toMatchObject({ applied: 1, unchanged: 1 });
    expect(await delivery(id)).toMatchObject({
      status: 'bounced',
      error: 'The mail server returned it (5.0.0): 550 no such user',
    });
  });

  it('Postmark: a hard bounce with basic auth applies; wrong or missing credentials are refused', async () => {
    const id = await sentMail('pm@example.org');
    const event = {
      RecordType: 'Bounce',
      Type: 'HardBounce',
      ID: 42,
      Email: 'pm@example.org',
      Description: 'The server was unable to deliver your message.',
      Details: 'smtp;550 5.1.1 unknown',
      Metadata: { delivery: id },
    };
    expect((await t.app.inject(postmarkRequest(event, 'wrong-token-0123456789'))).statusCode).toBe(401);
    const { authorization: _, ...unsigned } = postmarkRequest(event).headers;
    expect((await t.app.inject({ ...postmarkRequest(event), headers: unsigned })).statusCode).toBe(401);
    expect((await t.app.inject(postmarkRequest({ Type: 'HardBounce' }))).statusCode).toBe(400);
    expect((await delivery(id)).status).toBe('sent');
    expect((await t.app.inject(postmarkRequest(event))).json()).toMatchObject({ applied: 1 });
    expect((await delivery(id)).status).toBe('bounced');
    // The metadata key as our X-Pm-Metadata-Delivery header names it.
    const other = await sentMail('pm2@example.org');
    const capitalised = { ...event, ID: 43, Email: 'pm2@example.org', Metadata: { Delivery: other } };
    expect((await t.app.inject(postmarkRequest(capitalised))).json()).toMatchObject({ applied: 1 });
    expect((await delivery(other)).status).toBe('bounced');
  });

  it('answers 404 for each provider until its setting is set', async () => {
    const id = newId();
    expect((await postSes(bare.app, snsBody(sesBounce(id, 'x@example.org')))).statusCode).toBe(404);
    expect((await bare.app.inject(sendgridRequest([]))).statusCode).toBe(404);
    expect((await bare.app.inject(postmarkRequest({ RecordType: 'Bounce' }))).statusCode).toBe(404);
  });
});

const trail = async (id: string) =>
  (await deliveries.eventsForDeliveries(db, [id])).filter((e) => e.status !== 'queued');

/** Amazon SES's documented Delivery notification, for one of our messages. */
const sesDelivery = (id: string, recipient: string, timestamp = '2016-01-27T14:59:38.237Z') => ({
  notificationType: 'Delivery',
  mail: {
    timestamp: '2016-01-27T14:59:38.237Z',
    messageId: '0000014644fe5ef6-9a483358-9170-4cb4-a269-f5dcdf415321-000000',
    source: 'john@example.com',
    sourceArn: 'arn:aws:ses:us-east-1:888888888888:identity/example.com',
    sourceIp: '127.0.3.0',
    sendingAccountId: '123456789012',
    destination: [recipient],
    headersTruncated: false,
    headers: [{ name: 'Message-ID', value: `<${id}@${DOMAIN}>` }],
    commonHeaders: {
      from: ['John Doe <john@example.com>'],
      date: 'Mon, 08 Oct 2018 14:05:45 +0000',
      to: [recipient],
      messageId: `<${id}@${DOMAIN}>`,
      subject: 'Message sent using Amazon SES',
    },
  },
  delivery: {
    timestamp,
    recipients: [recipient],
    processingTimeMillis: 546,
    reportingMTA: 'a8-70.smtp-out.amazonses.com',
    smtpResponse: '250 ok:  Message 64111812 accepted',
    remoteMtaIp: '127.0.2.0',
  },
});

/** SendGrid's documented delivered event. */
const sendgridDelivered = (id: string, recipient: string, eventId: string, timestamp = 1513299569) => ({
  email: recipient,
  timestamp,
  'smtp-id': `<${id}@${DOMAIN}>`,
  event: 'delivered',
  category: 'cat facts',
  sg_event_id: eventId,
  sg_message_id: '14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0',
  response: '250 OK',
});

/** Postmark's documented Delivery webhook, with the metadata our mailer sets. */
const postmarkDelivery = (id: string, recipient: string, deliveredAt = '2019-11-05T16:33:54.9070259Z') => ({
  RecordType: 'Delivery',
  ServerID: 23,
  MessageStream: 'outbound',
  MessageID: '00000000-0000-0000-0000-000000000000',
  Recipient: recipient,
  Tag: 'welcome-email',
  DeliveredAt: deliveredAt,
  Details: 'Test delivery webhook details',
  Metadata: { delivery: id },
});

describe('POST /api/webhooks/email: delivery events', () => {
  it('SES: a Delivery notification moves the delivery to delivered at the provider’s time, once', async () => {
    const id = await sentMail('ses-ok@example.org');
    const body = snsBody(sesDelivery(id, 'ses-ok@example.org'));
    const res = await postSes(t.app, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ applied: 1 });
    expect(await delivery(id)).toMatchObject({ status: 'delivered', status_at: '2016-01-27T14:59:38.237Z' });
    // SNS retries deliver the same message again: recorded once.
    expect((await postSes(t.app, body)).json()).toMatchObject({ applied: 0, replayed: 1 });
    expect((await postSes(t.app, body)).json()).toMatchObject({ replayed: 1 });
    expect(await trail(id)).toMatchObject([
      { status: 'sent' },
      { status: 'delivered', at: '2016-01-27T14:59:38.237Z', refused: null },
    ]);
  });

  it('SendGrid: a signed delivered event applies with its timestamp; a replay and a second event do not move it back', async () => {
    const id = await sentMail('sg-ok@example.org');
    const event = sendgridDelivered(id, 'sg-ok@example.org', 'hqFbp3HH9WxIM0R2-x2M1Q==');
    const res = await t.app.inject(sendgridRequest([event]));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ applied: 1 });
    expect(await delivery(id)).toMatchObject({ status: 'delivered', status_at: '2017-12-15T00:59:29.000Z' });
    expect((await t.app.inject(sendgridRequest([event]))).json()).toMatchObject({ replayed: 1 });
    // A second delivered event (another id) is kept in the trail, refused: it was already delivered.
    const again = sendgridDelivered(id, 'sg-ok@example.org', 'another-event-id', 1513299600);
    expect((await t.app.inject(sendgridRequest([again]))).json()).toMatchObject({ unchanged: 1 });
    const events = await trail(id);
    expect(events).toHaveLength(3);
    expect(events[2]).toMatchObject({
      status: 'delivered',
      refused: 'not applied: the delivery was already delivered',
    });
  });

  it('Postmark: a Delivery webhook with basic auth applies with DeliveredAt, found by the delivery metadata', async () => {
    const id = await sentMail('pm-ok@example.org');
    const event = postmarkDelivery(id, 'pm-ok@example.org');
    expect((await t.app.inject(postmarkRequest(event, 'wrong-token-0123456789'))).statusCode).toBe(401);
    expect((await delivery(id)).status).toBe('sent');
    const res = await t.app.inject(postmarkRequest(event));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ applied: 1 });
    expect(await delivery(id)).toMatchObject({ status: 'delivered', status_at: '2019-11-05T16:33:54.907Z' });
    expect((await t.app.inject(postmarkRequest(event))).json()).toMatchObject({ replayed: 1 });
    const capitalised = { ...event, Metadata: { Delivery: id } };
    expect((await t.app.inject(postmarkRequest(capitalised))).json()).toMatchObject({ replayed: 1 });
  });

  it('out of order: a delivered after a bounce is kept as refused; a bounce after delivered moves nothing', async () => {
    const bouncedFirst = await sentMail('order1@example.org');
    await postSes(t.app, snsBody(sesBounce(bouncedFirst, 'order1@example.org')));
    const late = await postSes(t.app, snsBody(sesDelivery(bouncedFirst, 'order1@example.org')));
    expect(late.json()).toMatchObject({ applied: 0, unchanged: 1 });
    expect((await delivery(bouncedFirst)).status).toBe('bounced');
    expect((await trail(bouncedFirst)).at(-1)).toMatchObject({
      status: 'delivered',
      refused: 'not applied: the delivery had already bounced, which is final',
    });

    const deliveredFirst = await sentMail('order2@example.org');
    await t.app.inject(postmarkRequest(postmarkDelivery(deliveredFirst, 'order2@example.org')));
    const bounce = {
      RecordType: 'Bounce',
      Type: 'HardBounce',
      ID: 4242,
      Email: 'order2@example.org',
      Metadata: { delivery: deliveredFirst },
    };
    expect((await t.app.inject(postmarkRequest(bounce))).json()).toMatchObject({ unchanged: 1 });
    expect((await delivery(deliveredFirst)).status).toBe('delivered');

    // Read (on a channel that has it) is past delivered: a late delivered never undoes it.
    const read = await seedDelivery(
      db,
      {
        owner_id: asha.userId,
        recipient: 'order3@example.org',
        record_address_at_send: 'order3@example.org',
      },
      'sent',
    );
    await deliveries.advanceStatus(db, { id: read, status: 'sent' }, 'read', new Date().toISOString());
    expect(
      (await t.app.inject(sendgridRequest([sendgridDelivered(read, 'order3@example.org', 'late-1')]))).json(),
    ).toMatchObject({ unchanged: 1 });
    expect((await delivery(read)).status).toBe('read');
  });

  it('answers 200 for messages not ours, another recipient, an outbox delivery, and changes nothing', async () => {
    const id = await sentMail('mine@example.org');
    const outbox = await seedDelivery(
      db,
      { owner_id: asha.userId, recipient: 'outbox@example.org' },
      'outbox',
      { provider_message_id: 'outbox' },
    );
    const cases: [Promise<{ statusCode: number; json: () => unknown }>, object][] = [
      // Another domain's Message-ID: not ours at all.
      [
        t.app.inject(
          sendgridRequest([
            { ...sendgridDelivered(id, 'mine@example.org', 'x1'), 'smtp-id': '<abc@ismtpd-555>' },
          ]),
        ),
        { ignored: 1 },
      ],
      // Our domain, but no such delivery.
      [postSes(t.app, snsBody(sesDelivery(newId(), 'mine@example.org'))), { unmatched: 1 }],
      [t.app.inject(postmarkRequest(postmarkDelivery(newId(), 'mine@example.org'))), { unmatched: 1 }],
      [t.app.inject(postmarkRequest({ ...postmarkDelivery(id, 'x'), Metadata: {} })), { ignored: 1 }],
      [postSes(t.app, snsBody(sesDelivery(id, 'someone-else@example.org'))), { mismatched: 1 }],
      [t.app.inject(postmarkRequest(postmarkDelivery(outbox, 'outbox@example.org'))), { unmatched: 1 }],
    ];
    for (const [response, counts] of cases) {
      const res = await response;
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ applied: 0, ...counts });
    }
    expect((await delivery(id)).status).toBe('sent');
    expect((await delivery(outbox)).status).toBe('outbox');
    // Skipped, but logged, each with what it was.
    const skipped = (words: string) => logLines.filter((line) => line.includes(words)).length;
    expect(skipped('delivered names no message of ours: skipped')).toBeGreaterThanOrEqual(2);
    expect(skipped('delivered for no delivery of ours: skipped')).toBeGreaterThanOrEqual(3);
    expect(skipped('delivered names another recipient than its delivery')).toBeGreaterThanOrEqual(1);
  });

  it('refuses malformed delivery events with a 400 that names the problem, and applies none of the batch', async () => {
    const id = await sentMail('bad@example.org');
    const good = sendgridDelivered(id, 'bad@example.org', 'good-1');
    const cases: [Promise<{ statusCode: number; json: () => { message: string } }>, RegExp][] = [
      [
        postSes(t.app, snsBody({ ...sesDelivery(id, 'bad@example.org'), delivery: undefined })),
        /delivery object with timestamp and recipients/,
      ],
      [
        postSes(t.app, snsBody(sesDelivery(id, 'bad@example.org', 'yesterday'))),
        /delivery.timestamp is not a time: 'yesterday'/,
      ],
      [
        postSes(
          t.app,
          snsBody({ ...sesDelivery(id, 'bad@example.org'), delivery: { timestamp: 1, recipients: 'x' } }),
        ),
        /not an SES notification/,
      ],
      [
        t.app.inject(sendgridRequest([good, { ...good, sg_event_id: 'bad-2', timestamp: '1513299569' }])),
        /timestamp in seconds/,
      ],
      [
        t.app.inject(sendgridRequest([good, { ...good, sg_event_id: 'bad-3', timestamp: 1e15 }])),
        /timestamp is not a time/,
      ],
      [
        t.app.inject(postmarkRequest({ ...postmarkDelivery(id, 'bad@example.org'), DeliveredAt: undefined })),
        /has DeliveredAt and Recipient/,
      ],
      [
        t.app.inject(postmarkRequest({ ...postmarkDelivery(id, 'bad@example.org'), DeliveredAt: 'soon' })),
        /DeliveredAt is not a time: 'soon'/,
      ],
      [
        t.app.inject(postmarkRequest({ ...postmarkDelivery(id, 'bad@example.org'), Recipient: ['a'] })),
        /a JSON object with a RecordType/,
      ],
    ];
    for (const [response, message] of cases) {
      const res = await response;
      expect(res.statusCode, message.source).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await delivery(id)).status).toBe('sent');
    expect(await trail(id)).toHaveLength(1);
  });
});
