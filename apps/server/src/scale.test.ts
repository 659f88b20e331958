import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config/env.ts';
import { openDatabase } from './db/database.ts';
import { startSmtpListener, startWhatsappPeer } from './test/peers.ts';
import { startS3Peer, type S3Peer } from './test/s3-peer.ts';
import {
  type ServerProcess,
  signUpOver,
  startNoticeImportOver,
  startServerProcess,
  startWorkerProcess,
} from './test/server-process.ts';
import { recordSheet, writeSheet } from './test/xlsx.ts';
import { unzip } from './test/zip.ts';
import { until } from './test/until.ts';

// Issue 32's shape: two API processes (no jobs) and two workers, each on a DATA_DIR of its own, on one
// PostgreSQL, one bucket of the local S3 peer and Redis (when one answers). An import and a send each
// happen exactly once whichever process takes each job, a worker killed mid-send loses nothing and
// sends nothing twice, and what one process kept the others serve from the bucket.
const IMPORT_ROWS = 5_000;
const SEND_RECORDS = 1_000;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Whether Redis answers at REDIS_URL: CI and this machine run one; elsewhere the test goes without. */
async function redisAnswers(): Promise<boolean> {
  const { Redis } = await import('ioredis');
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000 });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Files a process left on its own DATA_DIR (its folder for temporary copies may stay, empty). */
const filesIn = (dataDir: string) =>
  fs
    .readdirSync(dataDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dataDir, path.join(entry.parentPath, entry.name)));

describe.skipIf(!process.env.DATABASE_URL)('several processes on one PostgreSQL and one bucket', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'scale-'));
  const dataDirs: string[] = [];
  /** A DATA_DIR of its own for each process. */
  const dataDir = (name: string) => {
    const dir = path.join(root, name);
    fs.mkdirSync(dir);
    dataDirs.push(dir);
    return dir;
  };
  let env: Record<string, string>;
  let apis: ServerProcess[] = [];
  let workers: ReturnType<typeof startWorkerProcess>[] = [];
  let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
  let peer: Awaited<ReturnType<typeof startWhatsappPeer>>;
  let s3: S3Peer;

  beforeAll(async () => {
    smtp = await startSmtpListener();
    peer = await startWhatsappPeer();
    // Before any process starts: the peer puts its credentials in the environment they inherit.
    s3 = await startS3Peer();
    const redis = await redisAnswers();
    if (!redis) console.warn(`scale test: no Redis at ${REDIS_URL}, the processes run without it`);
    env = {
      DATABASE_URL: process.env.DATABASE_URL!,
      DATABASE_SCHEMA: `test_${randomBytes(6).toString('hex')}`,
      ...s3.env(`scale-${randomBytes(4).toString('hex')}`),
      ...(redis ? { REDIS_URL } : {}),
      JWT_SECRET: 'scale-test-secret-scale-test-secret-000',
      // One address for every process, as behind a load balancer: notices print it (their page's link).
      APP_URL: 'https://notices.example.in',
      SMTP_URL: smtp.url,
      WHATSAPP_API_URL: peer.apiUrl,
      WHATSAPP_TOKEN: 'peer-token',
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_MODE: 'session', // free-form document messages, as these tests read them
      SMTP_RATE: '100000',
      WHATSAPP_RATE: '100000',
      // A starved CI machine must not lose a live lease; the killed worker's jobs wait this long.
      JOB_LEASE: '10s',
    };
    apis = [
      await startServerProcess({ ...env, DATA_DIR: dataDir('api-1'), RUN_JOBS: 'false' }),
      await startServerProcess({ ...env, DATA_DIR: dataDir('api-2'), RUN_JOBS: 'false' }),
    ];
    workers = [
      startWorkerProcess({ ...env, DATA_DIR: dataDir('worker-1') }),
      startWorkerProcess({ ...env, DATA_DIR: dataDir('worker-2') }),
    ];
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...apis, ...workers].map((p) => p.stop()));
    const { db } = await openDatabase(loadConfig(env));
    await sql`drop schema if exists ${sql.id(env.DATABASE_SCHEMA!)} cascade`.execute(db);
    await db.destroy();
    await smtp.close();
    await peer.close();
    await s3.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('imports once, serves each PDF from the bucket, sends once per channel through a worker killed mid-send, and bundles evidence from the bucket', async () => {
    const [a, b] = apis as [ServerProcess, ServerProcess];
    const user = await signUpOver(a.baseUrl, 'asha');
    const rows = recordSheet(noticeFields, IMPORT_ROWS);
    const column = (key: string) => noticeFields.findIndex((f) => f.key === key);
    rows.slice(1).forEach((row, i) => {
      row[column('emailId')] = `customer${i}@example.com`;
      row[column('custMobileNo')] = `9${String(100_000_000 + i)}`;
      row[column('modeOfDispatch')] = 'Email and WhatsApp';
    });
    const file = path.join(root, 'notices.xlsx');
    await writeSheet(file, rows);
    // Uploaded to one API, started on the other, imported by a worker: the sheet went through the bucket.
    const started = await startNoticeImportOver(a.baseUrl, user.headers, file, b.baseUrl);
    expect(started.status).toBe(202);
    let polls = 0;
    const progress = await until('the import ends', async () => {
      const body = (await (
        await fetch(`${apis[polls++ % 2]!.baseUrl}/api/notices/by-user-id/progress-count`, {
          headers: user.headers,
        })
      ).json()) as { status?: string; imported?: number; campaignId?: string };
      return body.status === 'done' || body.status === 'failed' ? body : undefined;
    });
    expect(progress).toMatchObject({ status: 'done', imported: IMPORT_ROWS });
    const campaigns = (await (
      await fetch(`${a.baseUrl}/api/campaigns/notice`, { headers: user.headers })
    ).json()) as { total: number };
    expect(campaigns.total).toBe(1);

    // A notice PDF rendered and kept by one API is the very file the other streams from the bucket.
    const list = (await (
      await fetch(`${a.baseUrl}/api/notices/by-user-id?limit=1`, { headers: user.headers })
    ).json()) as { pdfUrl: string; items: { pdfLink: string }[] };
    const pdfOf = async (api: ServerProcess) => {
      const res = await fetch(`${api.baseUrl}${list.pdfUrl}${list.items[0]!.pdfLink}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      return Buffer.from(await res.arrayBuffer());
    };
    const rendered = await pdfOf(a);
    const gets = s3.requests.length;
    // Chromium stamps each render with its time: equal bytes are the kept file, not a second render.
    expect(sha256(await pdfOf(b))).toBe(sha256(rendered));
    expect(s3.requests.slice(gets).some((r) => r.method === 'GET' && r.path.endsWith('.pdf'))).toBe(true);

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
    // One worker dies mid-send; the other takes its jobs over once their lease runs out.
    const killing = (async () => {
      await until('a third of the mail is out', () =>
        smtp.mails.length >= SEND_RECORDS / 3 ? true : undefined,
      );
      const killed = workers[0]!;
      killed.child.kill('SIGKILL');
      await new Promise((r) => killed.child.once('exit', r));
      const atKill = { mails: smtp.mails.length, whatsapp: peer.messages.length };
      return atKill;
    })();
    killing.catch(() => undefined); // awaited below, after the sends are posted
    const queue = [...chunks];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let chunk = queue.shift(); chunk; chunk = queue.shift())
          await Promise.all([send(a, chunk), send(b, chunk)]);
      }),
    );
    const atKill = await killing;
    expect(atKill.mails).toBeLessThan(SEND_RECORDS); // killed mid-send, so the test proves something

    await until('every mail and WhatsApp message is out', () =>
      new Set(smtp.mails.map((m) => m.messageId)).size >= SEND_RECORDS &&
      new Set(peer.messages.map((m) => m.reference)).size >= SEND_RECORDS
        ? true
        : undefined,
    );
    const { db } = await openDatabase(loadConfig(env));
    try {
      await until('every delivery is recorded', async () => {
        const [row] = await db
          .selectFrom('deliveries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'sent')
          .execute();
        return Number(row!.n) === SEND_RECORDS * 2 ? true : undefined;
      });
      // Each customer got one message per channel: one Message-ID, one WhatsApp reference. A repeat of
      // the same message can only be one in flight at the kill, sent again under its own id.
      const idsTo = (messages: { to: string; id: string | undefined }[]) => {
        const byRecipient = new Map<string, Set<string | undefined>>();
        for (const m of messages) byRecipient.set(m.to, (byRecipient.get(m.to) ?? new Set()).add(m.id));
        return [...byRecipient.values()];
      };
      const mailIds = idsTo(smtp.mails.map((m) => ({ to: m.to[0]!, id: m.messageId })));
      const whatsappRefs = idsTo(peer.messages.map((m) => ({ to: m.to, id: m.reference })));
      expect(mailIds).toHaveLength(SEND_RECORDS);
      expect(whatsappRefs).toHaveLength(SEND_RECORDS);
      expect(mailIds.every((set) => set.size === 1)).toBe(true);
      expect(whatsappRefs.every((set) => set.size === 1)).toBe(true);
      const repeats = smtp.mails.length - SEND_RECORDS + (peer.messages.length - SEND_RECORDS);
      console.info(
        `scale test: worker killed after ${atKill.mails} mails and ${atKill.whatsapp} WhatsApp messages; ${repeats} in-flight message(s) repeated under their own id`,
      );
      // Up to 4 send jobs at once in the killed worker, 20 messages each in flight per channel.
      expect(repeats).toBeLessThanOrEqual(4 * 2 * 20);

      const perRecord = await db
        .selectFrom('deliveries')
        .select(['record_id', 'channel', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(['record_id', 'channel'])
        .execute();
      expect(perRecord).toHaveLength(SEND_RECORDS * 2);
      expect(perRecord.every((row) => Number(row.n) === 1)).toBe(true);

      // An evidence bundle built by an API that rendered and sent nothing: its PDFs come from the bucket
      // and are the very files sent.
      const sent = await db
        .selectFrom('deliveries')
        .select(['record_id', 'pdf_sha256'])
        .where('record_id', '=', ids[1]!)
        .execute();
      const evidence = await fetch(`${b.baseUrl}/api/notices/${ids[1]}/evidence`, { headers: user.headers });
      expect(evidence.status).toBe(200);
      const files = await unzip(Buffer.from(await evidence.arrayBuffer()));
      const pdfs = files.filter((f) => f.name.startsWith('pdfs/'));
      expect(pdfs.map((f) => sha256(f.data))).toEqual([...new Set(sent.map((d) => d.pdf_sha256))]);
    } finally {
      await db.destroy();
    }

    // The ADMIN's job list, read through either API, shows what the workers did.
    const jobs = async (query: string) =>
      (await (await fetch(`${a.baseUrl}/api/jobs?${query}`, { headers: user.headers })).json()) as {
        total: number;
        items: { state: string; attempts: number }[];
      };
    expect((await jobs('kind=import')).items.map((j) => j.state)).toEqual(['done']);
    expect((await jobs('state=failed')).total).toBe(0);

    // Nothing any process needs was left on its own disk.
    for (const dir of dataDirs) expect(filesIn(dir), dir).toEqual([]);
  }, 400_000);
});
