import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import type { DeliveryStatus } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { createTestDatabase } from '../../test/app.ts';
import { seedDelivery } from '../../test/deliveries.ts';
import { dovecotMissing, startDovecot, type Dovecot } from '../../test/dovecot.ts';
import * as deliveries from '../sending/deliveries.repository.ts';
import { BounceMailbox } from './bounce-mailbox.ts';
import { BouncesService } from './bounces.service.ts';
import * as undeliverable from './undeliverable.repository.ts';

const DOMAIN = 'notices.example.com';
const OWNER = 'owner-asha';
let dovecot: Dovecot;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
let imap: ImapFlow;
const logLines: string[] = [];
const log = {
  info: (details: object, message: string) => logLines.push(`${message} ${JSON.stringify(details)}`),
  warn: (details: object, message: string) => logLines.push(`${message} ${JSON.stringify(details)}`),
};

if (dovecotMissing) console.warn(dovecotMissing);

const mailbox = (url = dovecot.url) =>
  new BounceMailbox(
    db,
    new BouncesService(db),
    { url, pollIntervalMs: 60_000, messageIdDomain: DOMAIN },
    log,
  );

/** A delivery as the send path leaves it once the mail server took it. */
const sentMail = (recipient: string, status: DeliveryStatus = 'sent') => {
  const id = newId();
  return seedDelivery(
    db,
    {
      id,
      owner_id: OWNER,
      recipient,
      recipient_name: 'Asha',
      attempted_at: new Date().toISOString(),
      record_address_at_send: recipient,
    },
    status,
    { provider_message_id: `<${id}@${DOMAIN}>` },
  );
};

const statusOf = async (id: string) => (await deliveries.findDeliveries(db, [id]))[0]!;

/** An RFC 3464 report as Postfix writes one, returning our message's headers. */
function dsn(deliveryId: string, recipient: string, options: { action?: string; id?: string } = {}) {
  return `Return-Path: <>
From: Mail Delivery System <MAILER-DAEMON@mx.example.org>
To: no-reply@${DOMAIN}
Subject: Undelivered Mail Returned to Sender
Message-ID: <${options.id ?? newId()}@mx.example.org>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="BND"

--BND
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mx.example.org. Your message could not be delivered.

--BND
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org

Final-Recipient: rfc822; ${recipient}
Original-Recipient: rfc822;${recipient}
Action: ${options.action ?? 'failed'}
Status: 5.1.1
Diagnostic-Code: smtp; 550 5.1.1 <${recipient}>: Recipient address
    rejected: User unknown in local recipient table

--BND
Content-Type: text/rfc822-headers

From: Notice Desk <no-reply@${DOMAIN}>
To: ${recipient}
Subject: Legal notice
Message-ID: <${deliveryId}@${DOMAIN}>

--BND--
`.replace(/\n/g, '\r\n');
}

const append = async (raw: string) => {
  await imap.append('INBOX', raw);
};

beforeAll(async () => {
  if (dovecotMissing) return;
  dovecot = await startDovecot();
  database = await createTestDatabase();
  db = database.db;
  imap = new ImapFlow({
    host: '127.0.0.1',
    port: dovecot.port,
    secure: false,
    auth: { user: dovecot.user, pass: dovecot.password },
    logger: false,
  });
  await imap.connect();
}, 15_000);
afterAll(async () => {
  await imap?.logout();
  await database?.close();
  await dovecot?.stop();
});

describe.skipIf(dovecotMissing)('the bounce mailbox, on a real Dovecot', () => {
  it('turns the delivery a DSN names bounced with the code and the words, remembers the address, and marks the DSN seen', async () => {
    const id = await sentMail('nobody@example.org');
    await append(dsn(id, 'nobody@example.org'));
    const result = await mailbox().pollOnce();
    expect(result).toMatchObject({ applied: 1 });
    const delivery = await statusOf(id);
    expect(delivery.status).toBe('bounced');
    expect(delivery.error).toContain('(5.1.1)');
    expect(delivery.error).toContain(
      '550 5.1.1 <nobody@example.org>: Recipient address rejected: User unknown',
    );
    expect(delivery.active_key).toBeNull();
    expect(await undeliverable.findRemembered(db, OWNER, 'email', ['NOBODY@example.org'])).toHaveLength(1);
    // Read once: the next poll finds nothing unread.
    expect(await mailbox().pollOnce()).toMatchObject({ applied: 0, unreadable: 0, ignored: 0 });
  });

  it('reads provider notices that are not RFC 3464: a mailer-daemon text quoting our Message-ID, and a VERP address', async () => {
    const quoted = await sentMail('gone@example.net');
    await append(
      `From: MAILER-DAEMON@mail.example.net\r\nTo: no-reply@${DOMAIN}\r\nSubject: Mail delivery failed: returning message to sender\r\nMessage-ID: <${newId()}@mail.example.net>\r\n\r\nThis message was created automatically by mail delivery software.\r\n\r\nA message that you sent could not be delivered to one or more of its recipients.\r\n\r\n  gone@example.net\r\n    550 No such user here\r\n\r\n------ This is a copy of the message's headers. ------\r\n\r\nMessage-ID: <${quoted}@${DOMAIN}>\r\nSubject: Legal notice\r\n`,
    );
    const verp = await sentMail('verp@example.net');
    await append(
      `From: postmaster@example.net\r\nTo: bounces+${verp}@${DOMAIN}\r\nSubject: Undeliverable: Legal notice\r\nMessage-ID: <${newId()}@example.net>\r\n\r\nDelivery has failed to these recipients: verp@example.net\r\n550 5.4.1 Recipient address rejected: Access denied\r\n`,
    );
    expect(await mailbox().pollOnce()).toMatchObject({ applied: 2 });
    expect((await statusOf(quoted)).status).toBe('bounced');
    expect((await statusOf(quoted)).error).toContain('550 No such user here');
    expect((await statusOf(verp)).status).toBe('bounced');
  });

  it('changes nothing for a delay, an unknown message, another recipient, a delivery not sent, a replay or a malformed message', async () => {
    const delayed = await sentMail('slow@example.org');
    const other = await sentMail('real@example.org');
    const failed = await sentMail('failed@example.org', 'failed');
    const replayed = await sentMail('twice@example.org');
    const twiceId = newId();
    await append(dsn(delayed, 'slow@example.org', { action: 'delayed' }));
    await append(dsn(newId(), 'ghost@example.org'));
    await append(dsn(other, 'someone-else@example.org'));
    await append(dsn(failed, 'failed@example.org'));
    await append(dsn(replayed, 'twice@example.org', { id: twiceId }));
    await append(dsn(replayed, 'twice@example.org', { id: twiceId }));
    await append('this is not a message at all \u0000\u0001\r\n\r\n--');
    await append(
      'From: MAILER-DAEMON@x.example\r\nSubject: Undelivered Mail\r\nContent-Type: multipart/report; report-type=delivery-status; boundary="x"\r\n\r\n--x\r\nContent-Type: message/delivery-status\r\n\r\nAction: failed\r\n',
    );
    const result = await mailbox().pollOnce();
    expect(result).toEqual({
      applied: 1,
      unchanged: 1,
      replayed: 1,
      unmatched: 1,
      mismatched: 1,
      ignored: 2,
      unreadable: 1,
    });
    expect((await statusOf(delayed)).status).toBe('sent');
    expect((await statusOf(other)).status).toBe('sent');
    expect((await statusOf(failed)).status).toBe('failed');
    expect((await statusOf(replayed)).status).toBe('bounced');
    expect(await undeliverable.findRemembered(db, OWNER, 'email', ['real@example.org'])).toHaveLength(0);
    expect(logLines.join('\n')).toMatch(/names another recipient than its delivery's: skipped/);
  });

  it('polls once across processes: of two mailboxes asking at once, one polls', async () => {
    const now = new Date(Date.now() + 3600_000);
    const [a, b] = await Promise.all([mailbox().runIfDue(now), mailbox().runIfDue(now)]);
    expect([a, b].filter((r) => r !== undefined)).toHaveLength(1);
  });

  // Last: Dovecot slows logins from an address after a failed one.
  it('logs and retries later when the mailbox refuses the login or is down, never throwing', async () => {
    const wrong = `imap://${dovecot.user}:wrong-password@127.0.0.1:${dovecot.port}/INBOX`;
    await expect(mailbox(wrong).pollOnce()).resolves.toBeUndefined();
    expect(logLines.join('\n')).toMatch(/refused the login/);
    expect(logLines.join('\n')).not.toContain('wrong-password');
    await expect(mailbox('imap://u:p@127.0.0.1:1/INBOX').pollOnce()).resolves.toBeUndefined();
    expect(logLines.join('\n')).toMatch(/unreachable/);
  });
});
