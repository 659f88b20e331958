import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config/env.ts';
import { openDatabase } from './db/database.ts';
import { startSmtpListener, startWhatsappPeer } from './test/peers.ts';
import {
  type ServerProcess,
  signUpOver,
  startNoticeImportOver,
  startServerProcess,
  startWorkerProcess,
} from './test/server-process.ts';
import { recordSheet, writeSheet } from './test/xlsx.ts';

// Two API processes (no jobs) and two worker processes on one PostgreSQL and one DATA_DIR: an import
// and a send each happen exactly once, whichever process takes each job.
const IMPORT_ROWS = 20_000;
const SEND_RECORDS = 2_000;

describe.skipIf(!process.env.DATABASE_URL)('several processes on one PostgreSQL', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scale-'));
  let env: Record<string, string>;
  let apis: ServerProcess[] = [];
  let workers: ReturnType<typeof startWorkerProcess>[] = [];
  let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
  let peer: Awaited<ReturnType<typeof startWhatsappPeer>>;

  beforeAll(async () => {
    smtp = await startSmtpListener();
    peer = await startWhatsappPeer();
    env = {
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.DATABASE_URL!,
      DATABASE_SCHEMA: `test_${randomBytes(6).toString('hex')}`,
      JWT_SECRET: 'scale-test-secret-scale-test-secret-000',
      SMTP_URL: smtp.url,
      WHATSAPP_API_URL: peer.apiUrl,
      WHATSAPP_TOKEN: 'peer-token',
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_MODE: 'session', // free-form document messages, as these tests read them
      SMTP_RATE: '100000',
      WHATSAPP_RATE: '100000',
      JOB_LEASE: '15s', // a starved CI machine must not lose a live lease
    };
    apis = [
      await startServerProcess({ ...env, RUN_JOBS: 'false' }),
      await startServerProcess({ ...env, RUN_JOBS: 'false' }),
    ];
    workers = [startWorkerProcess(env), startWorkerProcess(env)];
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...apis, ...workers].map((p) => p.stop()));
    const { db } = await openDatabase(loadConfig(env));
    await sql`drop schema if exists ${sql.id(env.DATABASE_SCHEMA!)} cascade`.execute(db);
    await db.destroy();
    await smtp.close();
    await peer.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports 20,000 rows once and sends 2,000 notices once per channel', async () => {
    const [a, b] = apis as [ServerProcess, ServerProcess];
    const user = await signUpOver(a.baseUrl, 'asha');
    const rows = recordSheet(noticeFields, IMPORT_ROWS);
    const column = (key: string) => noticeFields.findIndex((f) => f.key === key);
    rows.slice(1).forEach((row, i) => {
      row[column('emailId')] = `customer${i}@example.com`;
      row[column('custMobileNo')] = `9${String(100_000_000 + i)}`;
      row[column('modeOfDispatch')] = 'Email and WhatsApp';
    });
    const file = path.join(dataDir, 'notices.xlsx');
    await writeSheet(file, rows);
    const started = await startNoticeImportOver(a.baseUrl, user.headers, file, b.baseUrl);
    expect(started.status).toBe(202);
    let progress: { status?: string; imported?: number; campaignId?: string } = {};
    for (let i = 0; i < 600 && progress.status !== 'done' && progress.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      progress = (await (
        await fetch(`${apis[i % 2]!.baseUrl}/api/notices/by-user-id/progress-count`, {
          headers: user.headers,
        })
      ).json()) as typeof progress;
    }
    expect(progress).toMatchObject({ status: 'done', imported: IMPORT_ROWS });
    const campaigns = (await (
      await fetch(`${a.baseUrl}/api/campaigns/notice`, { headers: user.headers })
    ).json()) as { total: number };
    expect(campaigns.total).toBe(1);

    const detail = (await (
      await fetch(`${b.baseUrl}/api/campaigns/single-campaign/${progress.campaignId}?limit=${SEND_RECORDS}`, {
        headers: user.headers,
      })
    ).json()) as { notices: { _id: string }[] };
    const ids = detail.notices.map((n) => n._id);
    expect(ids).toHaveLength(SEND_RECORDS);
    // Chunks of 100 through both API processes, four at a time; every chunk is also sent twice at once.
    const chunks = Array.from({ length: SEND_RECORDS / 100 }, (_, i) => ids.slice(i * 100, i * 100 + 100));
    const send = (api: ServerProcess, data: string[]) =>
      fetch(`${api.baseUrl}/api/campaigns/send-mail`, {
        method: 'POST',
        headers: { ...user.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ data, type: 'notice' }),
      }).then((res) => res.json() as Promise<{ sent: number; skipped: number; queued: number }>);
    const queue = [...chunks];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let chunk = queue.shift(); chunk; chunk = queue.shift())
          await Promise.all([send(a, chunk), send(b, chunk)]);
      }),
    );
    for (
      let i = 0;
      i < 300 && (smtp.mails.length < SEND_RECORDS || peer.messages.length < SEND_RECORDS);
      i++
    ) {
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.mails).toHaveLength(SEND_RECORDS);
    expect(new Set(smtp.mails.map((m) => m.to[0])).size).toBe(SEND_RECORDS);
    expect(peer.messages).toHaveLength(SEND_RECORDS);
    expect(new Set(peer.messages.map((m) => m.to)).size).toBe(SEND_RECORDS);

    const { db } = await openDatabase(loadConfig(env));
    const perRecord = await db
      .selectFrom('deliveries')
      .select(['record_id', 'channel', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['record_id', 'channel'])
      .execute();
    await db.destroy();
    expect(perRecord).toHaveLength(SEND_RECORDS * 2);
    expect(perRecord.every((row) => Number(row.n) === 1)).toBe(true);
  }, 300_000);
});
