import { generateKeyPairSync, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
  t = await createTestApp({
    APP_URL: `https://${DOMAIN}`,
    SES_SNS_TOPIC_ARN: TOPIC,
    SES_SNS_CERT_HOSTS: `sns.*.amazonaws.com,http://${host}`,
    SENDGRID_WEBHOOK_PUBLIC_KEY: sendgrid.publicKey
      .export({ type: 'spki', format: 'der' })
      .toString('base64'),
    POSTMARK_WEBHOOK_TOKEN: POSTMARK_TOKEN,
  });
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
      { email: 'sg@example.org', event: 'delivered', 'smtp-id': `<${id}@${DOMAIN}>` },
    ];
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const forged = await t.app.inject(sendgridRequest(events, other.privateKey));
    expect(forged.statusCode).toBe(401);
    expect((await delivery(id)).status).toBe('sent');
    const notList = await t.app.inject(sendgridRequest({ event: 'bounce' }));
    expect(notList.statusCode).toBe(400);
    const res = await t.app.inject(sendgridRequest(events));
    expect(res.json()).toMatchObject({ applied: 1 });
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
