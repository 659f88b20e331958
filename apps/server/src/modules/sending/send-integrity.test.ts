import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.ts';
import type { Channel } from '../../db/schema.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { startSmtpListener, startWhatsappPeer } from '../../test/peers.ts';
import { noticeKind } from '../records/record-kinds.ts';

// Section 7 of issue 13: a double click sends once, and a delivery goes to the address it recorded.
let t: TestApp;
let db: Database;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let peer: Awaited<ReturnType<typeof startWhatsappPeer>>;
const APP_SECRET = 'peer-app-secret';
let asha: SignedIn;
/** How long both providers take to answer; read at each message, so a test may slow them mid-way. */
let providers: { answerAfterMs: number };

beforeEach(async () => {
  providers = { answerAfterMs: 0 };
  smtp = await startSmtpListener(providers);
  peer = await startWhatsappPeer(providers);
  t = await createTestApp({
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: peer.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_MODE: 'session', // free-form document messages, as these tests read them
    WHATSAPP_APP_SECRET: APP_SECRET,
  });
  db = (await openDatabase(t.config)).db;
  asha = await signUp(t.app, 'asha');
});
afterEach(async () => {
  await db.destroy();
  await t.close();
  await smtp.close();
  await peer.close();
});

function noticeFields(i: number, overrides: Record<string, string> = {}) {
  return {
    ...Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${i}`])),
    emailId: `customer${i}@example.com`,
    custMobileNo: `98765${String(i).padStart(5, '0')}`,
    modeOfDispatch: 'Email and WhatsApp',
    ...overrides,
  };
}

async function notice(i: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/notices',
    headers: asha.headers,
    payload: noticeFields(i),
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ _id: string }>()._id;
}

async function send(id: string, resend: boolean) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/campaigns/send-mail',
    headers: asha.headers,
    payload: { data: [id], type: 'notice', resend },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ sent: number; failed: number; queued: number; skipped: number }>();
}

const deliveriesOf = (recordId: string) =>
  db.selectFrom('deliveries').selectAll().where('record_id', '=', recordId).orderBy('id').execute();

const eventsOf = (deliveryId: string) =>
  db.selectFrom('delivery_events').selectAll().where('delivery_id', '=', deliveryId).orderBy('at').execute();

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Until every delivery of the record has left 'queued', then a moment more for anything stray to arrive. */
async function settled(recordId: string) {
  await until('every delivery is sent', async () =>
    (await deliveriesOf(recordId)).every((d) => d.status !== 'queued'),
  );
  await new Promise((r) => setTimeout(r, 300));
}

/** The PDF attached to a mail as nodemailer writes it: a base64 part of type application/pdf. */
function attachedPdf(raw: string): Buffer {
  const part = /Content-Type: application\/pdf[^]*?\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(raw);
  if (!part) throw new Error('no PDF attached');
  return Buffer.from(part[1]!.replace(/\s+/g, ''), 'base64');
}
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('identical resends at the same moment send once', () => {
  it.each([2, 5, 20])(
    '%i resends of a record never sent: one delivery and one message per channel',
    async (n) => {
      const id = await notice(1);
      const answers = await Promise.all(Array.from({ length: n }, () => send(id, true)));
      await settled(id);
      expect(smtp.mails).toHaveLength(1);
      expect(peer.messages).toHaveLength(1);
      const rows = await deliveriesOf(id);
      expect(rows.map((d) => [d.channel, d.status]).sort()).toEqual([
        ['email', 'sent'],
        ['whatsapp', 'sent'],
      ]);
      // Each request that met the send under way joined it, and answers with its outcome.
      for (const answer of answers)
        expect(answer).toMatchObject({ sent: 2, failed: 0, queued: 0, skipped: 0 });
    },
  );

  it.each([2, 5, 20])(
    '%i resends of a record already sent: exactly one more message per channel',
    async (n) => {
      const id = await notice(2);
      expect(await send(id, false)).toMatchObject({ sent: 2 });
      // Providers that take a second: the resends 'at once' all arrive while the first is in flight,
      // however fast sends go (a resend after it finished sends again, by design).
      providers.answerAfterMs = 1000;
      await Promise.all(Array.from({ length: n }, () => send(id, true)));
      await settled(id);
      expect(smtp.mails).toHaveLength(2);
      expect(peer.messages).toHaveLength(2);
      expect(new Set(smtp.mails.map((m) => m.messageId)).size).toBe(2);
      const rows = await deliveriesOf(id);
      expect(rows).toHaveLength(4);
      expect(rows.every((d) => d.status === 'sent')).toBe(true);
      // The earlier send stays on record; only the new one holds the record's send on each channel.
      expect(
        rows
          .filter((d) => d.active_key !== null)
          .map((d) => d.channel)
          .sort(),
      ).toEqual(['email', 'whatsapp']);
    },
  );

  it.each([2, 5, 20])(
    '%i resends while the first send waits for a retry join it: nothing sent twice, nothing left behind',
    async (n) => {
      const id = await notice(3);
      smtp.failNext(1);
      peer.throttle(1);
      expect(await send(id, false)).toMatchObject({ sent: 0, queued: 2 });
      const answers = await Promise.all(Array.from({ length: n }, () => send(id, true)));
      for (const answer of answers) expect(answer).toMatchObject({ sent: 0, queued: 2, skipped: 0 });
      await settled(id);
      expect(smtp.mails).toHaveLength(1);
      expect(peer.messages).toHaveLength(1);
      expect((await deliveriesOf(id)).map((d) => d.status)).toEqual(['sent', 'sent']);
    },
    30_000,
  );

  it.each([
    ['its job was failed (a process died on its last attempt)', 'failed'],
    ['its job is gone (pruned)', 'deleted'],
  ] as const)(
    'a resend of a send no job will finish (%s) sends it anew, and the abandoned one fails saying so',
    async (_, what) => {
      const id = await notice(7);
      smtp.failNext(1);
      peer.throttle(1);
      expect(await send(id, false)).toMatchObject({ queued: 2 });
      const job = db.updateTable('jobs').where('kind', '=', 'send');
      if (what === 'failed')
        await job.set({ status: 'failed', error: 'Gave up after 10 attempts.' }).execute();
      else await db.deleteFrom('jobs').where('kind', '=', 'send').execute();
      expect(await send(id, true)).toMatchObject({ sent: 2, queued: 0, skipped: 0 });
      await new Promise((r) => setTimeout(r, 3000)); // past the retry the abandoned job would have made
      expect(smtp.mails).toHaveLength(1);
      expect(peer.messages).toHaveLength(1);
      const rows = await deliveriesOf(id);
      expect(rows.map((d) => [d.status, d.error])).toEqual([
        ['failed', 'Its send gave up before an answer was recorded; a resend sent it anew.'],
        ['failed', 'Its send gave up before an answer was recorded; a resend sent it anew.'],
        ['sent', null],
        ['sent', null],
      ]);
    },
    30_000,
  );

  it('a send whose job gives up for good fails its deliveries with the reason, and a resend then sends', async () => {
    const id = await notice(8);
    const template = await db
      .selectFrom('whatsapp_templates')
      .selectAll()
      .where('kind', '=', 'notice')
      .execute();
    await db.deleteFrom('whatsapp_templates').where('kind', '=', 'notice').execute();
    expect(await send(id, false)).toMatchObject({ sent: 0, failed: 2 });
    expect((await deliveriesOf(id)).map((d) => d.error)).toEqual([
      'There is no WhatsApp template for notice records.',
      'There is no WhatsApp template for notice records.',
    ]);
    await db.insertInto('whatsapp_templates').values(template).execute();
    expect(await send(id, true)).toMatchObject({ sent: 2, failed: 0 });
    expect(smtp.mails).toHaveLength(1);
    expect(peer.messages).toHaveLength(1);
  });

  it('a resend after the last one finished sends again, each time under a Message-ID of its own', async () => {
    const id = await notice(4);
    expect(await send(id, false)).toMatchObject({ sent: 2, skipped: 0 });
    expect(await send(id, false)).toMatchObject({ sent: 0, skipped: 2 });
    for (let i = 0; i < 3; i++) expect(await send(id, true)).toMatchObject({ sent: 2, skipped: 0 });
    expect(smtp.mails).toHaveLength(4);
    expect(peer.messages).toHaveLength(4);
    expect(new Set(smtp.mails.map((m) => m.messageId)).size).toBe(4);
    expect(new Set(peer.messages.map((m) => m.reference)).size).toBe(4);
    expect(await deliveriesOf(id)).toHaveLength(8);
  });
});

describe('a delivery goes to the address it recorded when the send was asked', () => {
  const first = { email: 'customer5@example.com', whatsapp: '919876500005' };
  const edits: [string, Record<string, string>, Partial<Record<Channel, string>>][] = [
    ['e-mail changed', { emailId: 'someone.else@example.com' }, { email: 'someone.else@example.com' }],
    ['mobile changed', { custMobileNo: '9123456789' }, { whatsapp: '9123456789' }],
    [
      'both changed',
      { emailId: 'other@example.org', custMobileNo: '+44 7700 900123' },
      { email: 'other@example.org', whatsapp: '+44 7700 900123' },
    ],
    [
      'e-mail changed in case and spaces only',
      { emailId: ' Customer5@Example.com ' },
      { email: ' Customer5@Example.com ' },
    ],
  ];

  it.each(edits)(
    'record edited between claim and send (%s): sent to the recorded address, the delivery shows both',
    async (_, edit, changed) => {
      const id = await notice(5);
      smtp.failNext(1);
      peer.throttle(1);
      expect(await send(id, false)).toMatchObject({ queued: 2 });
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/notices/${id}`,
        headers: asha.headers,
        payload: noticeFields(5, edit),
      });
      expect(put.statusCode).toBe(200);
      await settled(id);

      expect(smtp.mails.map((m) => m.to)).toEqual([[first.email]]);
      expect(peer.messages.map((m) => m.to)).toEqual([first.whatsapp]);
      for (const delivery of await deliveriesOf(id)) {
        const recorded = delivery.channel === 'email' ? first.email : '9876500005';
        expect(delivery).toMatchObject({ status: 'sent', recipient: recorded });
        expect(delivery.record_address_at_send).toBe(changed[delivery.channel] ?? recorded);
        const notes = (await eventsOf(delivery.id)).map((e) => e.detail).filter((d) => d?.includes('record'));
        if (changed[delivery.channel])
          expect(notes).toEqual([
            expect.stringMatching(
              new RegExp(`changed to '${escape(changed[delivery.channel]!)}'.*goes to '${escape(recorded)}'`),
            ),
          ]);
        else expect(notes).toEqual([]);
      }
    },
    30_000,
  );

  it.each([
    ['e-mail', 'emailId', 'email'],
    ['mobile', 'custMobileNo', 'whatsapp'],
  ] as const)(
    'record’s %s removed between claim and send: sent to the recorded address, the delivery says it was removed',
    async (_, field, channel) => {
      const id = await notice(5);
      smtp.failNext(1);
      peer.throttle(1);
      expect(await send(id, false)).toMatchObject({ queued: 2 });
      await db
        .updateTable('notices')
        .set({ [field]: '' })
        .where('id', '=', id)
        .execute();
      await settled(id);

      expect(smtp.mails.map((m) => m.to)).toEqual([[first.email]]);
      expect(peer.messages.map((m) => m.to)).toEqual([first.whatsapp]);
      const delivery = (await deliveriesOf(id)).find((d) => d.channel === channel)!;
      expect(delivery).toMatchObject({ status: 'sent', record_address_at_send: '' });
      const notes = (await eventsOf(delivery.id)).map((e) => e.detail).filter((d) => d?.includes('record'));
      expect(notes).toEqual([expect.stringMatching(/was removed after the send was asked; it goes to '/)]);
    },
    30_000,
  );

  it('attaches the very PDF it records: the hash and stored file of each delivery are what went out', async () => {
    const id = await notice(6);
    smtp.failNext(1);
    peer.throttle(1);
    expect(await send(id, false)).toMatchObject({ queued: 2 });
    // An edit that changes the notice's text: the PDF sent is rendered anew, and recorded as sent.
    await t.app.inject({
      method: 'PUT',
      url: `/api/notices/${id}`,
      headers: asha.headers,
      payload: noticeFields(6, { totalOverdueAmt: '99,999' }),
    });
    await settled(id);
    const rows = await deliveriesOf(id);
    const mail = rows.find((d) => d.channel === 'email')!;
    const whatsapp = rows.find((d) => d.channel === 'whatsapp')!;
    const attached = attachedPdf(smtp.mails[0]!.raw);
    expect(mail.pdf_sha256).toBe(sha256(attached));
    expect(whatsapp.pdf_sha256).toBe(mail.pdf_sha256);
    expect(peer.media.get(peer.messages[0]!.mediaId)).toBeGreaterThanOrEqual(attached.length);
    const evidence = await t.app.inject({
      method: 'GET',
      url: `/api/notices/${id}/evidence`,
      headers: asha.headers,
    });
    expect(evidence.statusCode).toBe(200);
    // PDFs are stored uncompressed in the bundle: the bytes that went out are in it as they are.
    expect(evidence.rawPayload.includes(attached)).toBe(true);
  });
});

describe('a PDF goes out once rendered and uploaded', () => {
  it('uploads a PDF to WhatsApp once: a resend of it goes by its media id, a changed PDF or one WhatsApp no longer has is uploaded', async () => {
    const id = await notice(1);
    expect(await send(id, false)).toMatchObject({ sent: 2 });
    expect(await send(id, true)).toMatchObject({ sent: 2, failed: 0 });
    expect(peer.media.size).toBe(1);
    expect(peer.messages.map((m) => m.mediaId)).toEqual(['media-1', 'media-1']);

    // An edit changes the notice: its new PDF is uploaded, then resent by its own id.
    await t.app.inject({
      method: 'PUT',
      url: `/api/notices/${id}`,
      headers: asha.headers,
      payload: noticeFields(1, { custName: 'Asha Rao' }),
    });
    expect(await send(id, true)).toMatchObject({ sent: 2 });
    expect(await send(id, true)).toMatchObject({ sent: 2 });
    expect(peer.media.size).toBe(2);
    const [, , edited, again] = peer.messages;
    expect(edited!.mediaId).not.toBe('media-1');
    expect(again!.mediaId).toBe(edited!.mediaId);
    expect(edited!.filename).toMatch(/Asha Rao\.pdf$/);

    // WhatsApp no longer has it (its 30 days passed): the refused message goes again with a fresh upload.
    peer.forgetMedia();
    expect(await send(id, true)).toMatchObject({ sent: 2, failed: 0 });
    expect(peer.messages).toHaveLength(5);
    expect(peer.media.size).toBe(1);
    expect(peer.media.has(peer.messages.at(-1)!.mediaId)).toBe(true);
    const whatsapp = (await deliveriesOf(id)).filter((d) => d.channel === 'whatsapp');
    expect(whatsapp.map((d) => d.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
  });

  it('uploads a PDF again once WhatsApp says by webhook that a message with it failed for its media, and only then', async () => {
    const id = await notice(3);
    const other = await notice(4);
    expect(await send(id, false)).toMatchObject({ sent: 2 });
    expect(await send(other, false)).toMatchObject({ sent: 2 });
    /** Posts WhatsApp's statuses for the messages as Meta would, signed; answers what was applied. */
    const report = async (
      ...statuses: { id: string; status: string; timestamp?: number; errors?: object[] }[]
    ) => {
      const { body, signature } = peer.statusWebhook(APP_SECRET, statuses);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/whatsapp',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        payload: body,
      });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const mediaUploadError = { code: 131053, title: 'Media upload error' };
    const [first, otherFirst] = peer.messages;
    const lastMediaId = () => peer.messages.at(-1)!.mediaId;

    // The media code on a status that is not a failure says nothing; on another record's PDF, nothing
    // about this one. (A resend sends every channel again when none failed, only the failed one else.)
    await report(
      { id: first!.id, status: 'delivered', errors: [mediaUploadError] },
      { id: otherFirst!.id, status: 'failed', errors: [mediaUploadError] },
    );
    expect(await send(id, true)).toMatchObject({ sent: 2, failed: 0 });
    expect(lastMediaId()).toBe(first!.mediaId);

    // A failure for another reason, or with no code, leaves the upload in use.
    let taken = peer.messages.at(-1)!;
    await report({ id: taken.id, status: 'failed', errors: [{ code: 131026 }, { title: 'Media?' }] });
    expect(await send(id, true)).toMatchObject({ sent: 1, failed: 0 });
    expect(lastMediaId()).toBe(first!.mediaId);

    // WhatsApp took a message with it, then could not use the document: the id would fail again.
    taken = peer.messages.at(-1)!;
    expect(await report({ id: taken.id, status: 'failed', errors: [mediaUploadError] })).toMatchObject({
      applied: 1,
    });
    expect(await send(id, true)).toMatchObject({ sent: 1, failed: 0 });
    const fresh = lastMediaId();
    expect(fresh).not.toBe(first!.mediaId);
    expect(peer.media.has(fresh)).toBe(true);

    // Each delivery says which upload its PDF went by; the fresh one goes on being used, also when the
    // old failure comes again (Meta retries a webhook), which names the old one.
    const whatsapp = (await deliveriesOf(id)).filter((d) => d.channel === 'whatsapp');
    expect(whatsapp.map((d) => d.media_id)).toEqual([first!.mediaId, first!.mediaId, first!.mediaId, fresh]);
    expect((await deliveriesOf(id)).filter((d) => d.channel === 'email').map((d) => d.media_id)).toEqual([
      null,
      null,
    ]);
    await report({ id: taken.id, status: 'failed', errors: [mediaUploadError] });
    expect(await send(id, true)).toMatchObject({ sent: 2, failed: 0 });
    expect(lastMediaId()).toBe(fresh);

    // The other record's PDF goes again by a fresh id of its own.
    expect(await send(other, true)).toMatchObject({ sent: 1, failed: 0 });
    expect(lastMediaId()).not.toBe(otherFirst!.mediaId);
    expect(peer.media.size).toBe(4);
  });

  it('renders a kept PDF again when its file went missing, and attaches it', async () => {
    const id = await notice(2);
    expect(await send(id, false)).toMatchObject({ sent: 2 });
    fs.rmSync(path.join(t.config.dataDir, 'pdfs'), { recursive: true });
    expect(await send(id, true)).toMatchObject({ sent: 2, failed: 0 });
    expect(smtp.mails).toHaveLength(2);
    expect(attachedPdf(smtp.mails[1]!.raw)).toEqual(attachedPdf(smtp.mails[0]!.raw));
    const [first, second] = (await deliveriesOf(id)).filter((d) => d.channel === 'email');
    expect(second!.pdf_sha256).toBe(first!.pdf_sha256);
    expect(fs.existsSync(path.join(t.config.dataDir, second!.pdf_key!))).toBe(true);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
