import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { noticeFields } from '@notice-desk/contract/notice';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { openDatabase } from '../../db/database.ts';
import { startSmtpListener, startWhatsappPeer } from '../../test/peers.ts';
import {
  type ServerProcess,
  signUpOver,
  startNoticeImportOver,
  startServerProcess,
} from '../../test/server-process.ts';
import { writeSheet } from '../../test/xlsx.ts';
import { until } from '../../test/until.ts';

// Kills the server with SIGKILL in the middle of sending 400 notices by e-mail and WhatsApp, starts it
// again on the same data, and counts what the SMTP listener and the WhatsApp peer received. (1,000
// took 74 s of the suite; the test asserts the kill came mid-send.)
const NOTICES = 400;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'send-crash-'));
const sheet = path.join(dir, 'notices.xlsx');

beforeAll(async () => {
  const rows = Array.from({ length: NOTICES }, (_, i) =>
    noticeFields.map((f) => {
      if (f.key === 'emailId') return `customer${i}@example.com`;
      if (f.key === 'custMobileNo') return `98${String(i).padStart(8, '0')}`;
      if (f.key === 'modeOfDispatch') return 'Email and WhatsApp';
      return `${f.key} ${i}`;
    }),
  );
  await writeSheet(sheet, [noticeFields.map((f) => f.label), ...rows]);
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a send survives its process being killed', () => {
  it('sends every notice once per channel: none lost, none twice under different ids', async () => {
    const smtp = await startSmtpListener();
    const peer = await startWhatsappPeer();
    const env: Record<string, string> = {
      DATA_DIR: fs.mkdtempSync(path.join(dir, 'data-')),
      JOB_LEASE: '5s', // long enough that a busy CI machine never loses a live lease
      JWT_SECRET: 'crash-test-secret-crash-test-secret-0123',
      SMTP_URL: smtp.url,
      WHATSAPP_API_URL: peer.apiUrl,
      WHATSAPP_TOKEN: 'peer-token',
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_MODE: 'session', // free-form document messages, as these tests read them
    };
    if (process.env.DATABASE_URL) {
      Object.assign(env, {
        DATABASE_URL: process.env.DATABASE_URL,
        DATABASE_SCHEMA: `crash_${randomBytes(5).toString('hex')}`,
      });
    }
    let server: ServerProcess | undefined = await startServerProcess(env);
    try {
      const user = await signUpOver(server.baseUrl, 'asha');
      await startNoticeImportOver(server.baseUrl, user.headers, sheet);
      const json = { ...user.headers, 'content-type': 'application/json' };
      const { items } = await until('the import is done', async () => {
        const list = (await (
          await fetch(`${server!.baseUrl}/api/notices/by-user-id?limit=${NOTICES}`, { headers: user.headers })
        ).json()) as { total: number; items: { _id: string }[] };
        return list.total === NOTICES ? list : undefined;
      });

      // Two requests of 500, as two staff members might press Send at once; both are killed mid-way.
      const ids = items.map((r) => r._id);
      for (const half of [ids.slice(0, NOTICES / 2), ids.slice(NOTICES / 2)])
        void fetch(`${server.baseUrl}/api/campaigns/send-mail`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ data: half, type: 'notice' }),
        }).catch(() => undefined);
      await until('a third of the mail is out', () => (smtp.mails.length >= NOTICES / 3 ? true : undefined));
      server.child.kill('SIGKILL');
      await new Promise((r) => server!.child.once('exit', r));
      const atKill = { mails: smtp.mails.length, whatsapp: peer.messages.length };
      expect(atKill.mails).toBeLessThan(NOTICES); // killed mid-send, so the test proves something

      server = await startServerProcess(env);
      await until('every mail and WhatsApp message is out', () =>
        new Set(smtp.mails.map((m) => m.messageId)).size >= NOTICES &&
        new Set(peer.messages.map((m) => m.reference)).size >= NOTICES
          ? true
          : undefined,
      );
      await server.stop();
      server = undefined;

      // Each customer got one message per channel: one Message-ID, one WhatsApp reference.
      const mailIds = new Map<string, Set<string>>();
      for (const mail of smtp.mails)
        mailIds.set(mail.to[0]!, (mailIds.get(mail.to[0]!) ?? new Set()).add(mail.messageId!));
      const whatsappRefs = new Map<string, Set<string>>();
      for (const message of peer.messages)
        whatsappRefs.set(message.to, (whatsappRefs.get(message.to) ?? new Set()).add(message.reference!));
      expect(mailIds.size).toBe(NOTICES);
      expect(whatsappRefs.size).toBe(NOTICES);
      expect([...mailIds.values()].every((set) => set.size === 1)).toBe(true);
      expect([...whatsappRefs.values()].every((set) => set.size === 1)).toBe(true);
      // A repeat of the same message can only be one that was in flight at the kill (20 per send job).
      const repeats = smtp.mails.length - NOTICES + (peer.messages.length - NOTICES);
      console.info(
        `send crash: killed after ${atKill.mails} mails and ${atKill.whatsapp} WhatsApp messages; ${repeats} in-flight message(s) repeated under their own id`,
      );
      expect(repeats).toBeLessThanOrEqual(2 * 2 * 20);

      const { db } = await openDatabase(loadConfig(env));
      try {
        const statuses = await db
          .selectFrom('deliveries')
          .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
          .groupBy('status')
          .execute();
        expect(statuses.map((s) => [s.status, Number(s.n)])).toEqual([['sent', 2 * NOTICES]]);
        if (env.DATABASE_SCHEMA) await sql`drop schema ${sql.id(env.DATABASE_SCHEMA)} cascade`.execute(db);
      } finally {
        await db.destroy();
      }
    } finally {
      await server?.stop();
      await smtp.close();
      await peer.close();
    }
  }, 180_000);
});
