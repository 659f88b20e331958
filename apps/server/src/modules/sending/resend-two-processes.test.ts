import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { openDatabase } from '../../db/database.ts';
import { startSmtpListener, startWhatsappPeer } from '../../test/peers.ts';
import { type ServerProcess, signUpOver, startServerProcess } from '../../test/server-process.ts';
import { noticeKind } from '../records/record-kinds.ts';

// A double click whose two requests land on two processes sharing one database: the claim is decided
// by the database (the unique active key and the guarded release), not by anything one process holds.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'resend-two-'));
const env: Record<string, string> = {
  DATA_DIR: dir,
  JWT_SECRET: 'resend-test-secret-resend-test-secret-01',
  WHATSAPP_TOKEN: 'peer-token',
  WHATSAPP_PHONE_NUMBER_ID: '1234567890',
  WHATSAPP_MODE: 'session', // free-form document messages, as these tests read them
};
if (process.env.DATABASE_URL)
  Object.assign(env, {
    DATABASE_URL: process.env.DATABASE_URL,
    DATABASE_SCHEMA: `resend_${randomBytes(5).toString('hex')}`,
  });

let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let peer: Awaited<ReturnType<typeof startWhatsappPeer>>;
const servers: ServerProcess[] = [];
let headers: Record<string, string>;

beforeAll(async () => {
  // Providers that take a second to answer: the resends 'at once' all arrive while the first is in
  // flight, however fast this machine sends (a resend after it finished sends again, by design).
  smtp = await startSmtpListener({ answerAfterMs: 1000 });
  peer = await startWhatsappPeer({ answerAfterMs: 1000 });
  Object.assign(env, { SMTP_URL: smtp.url, WHATSAPP_API_URL: peer.apiUrl });
  // One after the other: the first brings the schema up to date, the second finds it so.
  for (let i = 0; i < 2; i++) servers.push(await startServerProcess(env));
  const user = await signUpOver(servers[0]!.baseUrl, 'asha');
  headers = { ...user.headers, 'content-type': 'application/json' };
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  if (env.DATABASE_SCHEMA) {
    const { db } = await openDatabase(loadConfig(env));
    await sql`drop schema ${sql.id(env.DATABASE_SCHEMA)} cascade`.execute(db);
    await db.destroy();
  }
  fs.rmSync(dir, { recursive: true, force: true });
  await smtp.close();
  await peer.close();
}, 60_000);

async function post(server: ServerProcess, url: string, body: object) {
  const res = await fetch(`${server.baseUrl}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as Record<string, number | string>;
}

async function notice(i: number): Promise<string> {
  const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${i}`]));
  const created = await post(servers[0]!, '/api/notices', {
    ...fields,
    emailId: `two${i}@example.com`,
    custMobileNo: `91234${String(i).padStart(5, '0')}`,
    modeOfDispatch: 'Email and WhatsApp',
  });
  return String(created._id);
}

/** n identical resends at once, alternating between the two processes. */
const resends = (id: string, n: number) =>
  Promise.all(
    Array.from({ length: n }, (_, i) =>
      post(servers[i % 2]!, '/api/campaigns/send-mail', { data: [id], type: 'notice', resend: true }),
    ),
  );

const received = (i: number) => ({
  mails: smtp.mails.filter((m) => m.to[0] === `two${i}@example.com`).length,
  whatsapp: peer.messages.filter((m) => m.to === `9191234${String(i).padStart(5, '0')}`).length,
});

describe('identical resends over HTTP to two processes at once', () => {
  it.each([2, 6, 10])('%i resends of a record never sent: one message per channel', async (n) => {
    const id = await notice(n);
    const answers = await resends(id, n);
    await new Promise((r) => setTimeout(r, 500));
    expect(received(n)).toEqual({ mails: 1, whatsapp: 1 });
    for (const answer of answers) expect(answer).toMatchObject({ sent: 2, skipped: 0 });
  });

  it.each([2, 6, 10])('%i resends of a record already sent: one more message per channel', async (n) => {
    const i = 100 + n;
    const id = await notice(i);
    expect(await post(servers[1]!, '/api/campaigns/send-mail', { data: [id], type: 'notice' })).toMatchObject(
      {
        sent: 2,
      },
    );
    await resends(id, n);
    await new Promise((r) => setTimeout(r, 500));
    expect(received(i)).toEqual({ mails: 2, whatsapp: 2 });
  });
});
