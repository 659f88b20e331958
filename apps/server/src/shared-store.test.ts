import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadConfig } from './config/env.ts';
import { openDatabase, type Database } from './db/database.ts';
import { S3Store } from './lib/s3-store.ts';
import { createTestApp, signUp, uploadFile, type SignedIn, type TestApp } from './test/app.ts';
import { startS3Peer, TEST_BUCKET, type S3Peer } from './test/s3-peer.ts';
import { sharedBrowserEnv } from './test/shared-browser.ts';
import { unzip } from './test/zip.ts';
import { recordSheet, writeSheet } from './test/xlsx.ts';

/**
 * Two processes' apps on one database and one bucket, each with a DATA_DIR of its own (issue 32): what
 * one keeps, the other serves, and neither leaves a file on its own disk. `one` takes requests only;
 * `two` runs the jobs (imports and sends) besides.
 */
let peer: S3Peer;
let one: TestApp;
let two: { app: FastifyInstance; dataDir: string };
let db: Database;
let asha: SignedIn;
const prefix = `shared-${Date.now()}`;

beforeAll(async () => {
  peer = await startS3Peer();
  one = await createTestApp({ ...peer.env(prefix), RUN_JOBS: 'false' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-two-'));
  // SQLite keeps its database in DATA_DIR: the second app opens the first's file (as a second process
  // would over NFS); on PostgreSQL both name the same schema.
  if (!one.config.databaseUrl)
    fs.symlinkSync(
      path.join(one.config.dataDir, 'notice-desk.sqlite'),
      path.join(dataDir, 'notice-desk.sqlite'),
    );
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: one.config.databaseUrl,
    DATABASE_SCHEMA: one.config.databaseSchema,
    JWT_SECRET: one.config.jwtSecret,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    JOB_RETRY_BACKOFF: '200ms',
    ...sharedBrowserEnv(),
    ...peer.env(prefix),
  });
  two = { app: await buildApp(config), dataDir };
  ({ db } = await openDatabase(one.config));
  asha = await signUp(one.app, 'asha');
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await two?.app.close();
  await one?.close();
  if (two) fs.rmSync(two.dataDir, { recursive: true, force: true });
  await peer?.close();
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not happen`);
}

/** Files on a DATA_DIR besides the SQLite database (and the folder for temporary copies). */
function localFiles(dataDir: string): string[] {
  return fs
    .readdirSync(dataDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) => path.relative(dataDir, path.join(entry.parentPath, entry.name)))
    .filter((name) => !/^notice-desk\.sqlite(-wal|-shm)?$/.test(name));
}

it('serves through one app what the other kept: an upload imported, its PDF, its outbox and its evidence', async () => {
  const sheet = recordSheet(noticeFields, 3, 'shared');
  const column = (key: string) => noticeFields.findIndex((f) => f.key === key);
  sheet.slice(1).forEach((row, i) => {
    row[column('emailId')] = `c${i}@example.com`;
    row[column('modeOfDispatch')] = 'Email';
  });
  const file = path.join(one.config.dataDir, '..', `${prefix}.xlsx`);
  await writeSheet(file, sheet);
  // Uploaded through one, imported by the other's job runner: the file went through the bucket.
  const stored = await uploadFile(one.app, asha, 'borrowers.xlsx', fs.readFileSync(file));
  fs.rmSync(file);
  const started = await two.app.inject({
    method: 'POST',
    url: '/api/notices/upload-notice-info',
    headers: asha.headers,
    payload: { file: stored },
  });
  expect(started.statusCode, started.body).toBe(202);
  const progress = await until('the import', async () => {
    const res = await one.app.inject({
      method: 'GET',
      url: '/api/notices/by-user-id/progress-count',
      headers: asha.headers,
    });
    const body = res.json<{ status: string }>();
    return body.status === 'done' || body.status === 'failed' ? body : undefined;
  });
  expect(progress).toMatchObject({ status: 'done' });

  // The PDF rendered by one is the very file the other streams from the bucket.
  const list = (
    await one.app.inject({ method: 'GET', url: '/api/notices/by-user-id', headers: asha.headers })
  ).json<{ pdfUrl: string; items: { _id: string; pdfLink: string }[] }>();
  expect(list.items).toHaveLength(3);
  const link = `${list.pdfUrl}${list.items[0]!.pdfLink}`;
  const rendered = await one.app.inject({ method: 'GET', url: link });
  expect(rendered.statusCode, rendered.body).toBe(200);
  const before = peer.requests.length;
  const served = await two.app.inject({ method: 'GET', url: link });
  expect(served.statusCode, served.body).toBe(200);
  expect(served.headers['content-type']).toBe('application/pdf');
  // Chromium stamps each render with its time: equal bytes are the kept file, not a second render.
  expect(sha256(served.rawPayload)).toBe(sha256(rendered.rawPayload));
  expect(peer.requests.slice(before).map((r) => r.method)).toContain('GET');

  // Sent by the other's worker into the outbox, which is in the bucket too.
  const campaignId = (await db.selectFrom('campaigns').select('id').executeTakeFirstOrThrow()).id;
  const send = await one.app.inject({
    method: 'POST',
    url: '/api/campaigns/send-mail',
    headers: asha.headers,
    payload: { data: list.items.map((item) => item._id), type: 'notice' },
  });
  expect(send.statusCode, send.body).toBeLessThan(300);
  await until('the sends', async () => {
    const rows = await db.selectFrom('deliveries').select('status').execute();
    return rows.length === 3 && rows.every((row) => row.status === 'outbox') ? rows : undefined;
  });
  const bucket = new S3Store(
    { bucket: TEST_BUCKET, prefix, endpoint: peer.endpoint, region: 'us-east-1', forcePathStyle: true },
    os.tmpdir(),
  );
  const outbox = await bucket.list('outbox');
  bucket.close();
  expect(outbox.filter((f) => f.key.endsWith('.eml'))).toHaveLength(3);

  // The evidence bundle, built by the app that sent nothing, holds the very PDFs that went out.
  const evidence = await one.app.inject({
    method: 'GET',
    url: `/api/campaigns/${campaignId}/evidence`,
    headers: asha.headers,
  });
  expect(evidence.statusCode, evidence.body).toBe(200);
  const files = await unzip(evidence.rawPayload);
  const pdfs = files.filter((f) => f.name.startsWith('pdfs/'));
  expect(pdfs.length).toBeGreaterThan(0);
  for (const pdf of pdfs) expect(`pdfs/${sha256(pdf.data)}.pdf`).toBe(pdf.name);

  // Nothing either process needs was left on its own disk.
  expect(localFiles(one.config.dataDir)).toEqual([]);
  expect(localFiles(two.dataDir)).toEqual([]);
}, 90_000);

it('answers a file gone from the bucket with 404 FILE_MISSING, and an import of it fails saying so', async () => {
  const stored = await uploadFile(
    one.app,
    asha,
    'gone.csv',
    Buffer.from(`${noticeFields.map((f) => f.label).join(',')}\n`),
  );
  const upload = await db
    .selectFrom('uploads')
    .select(['owner_id', 'stored_name'])
    .where('stored_name', '=', stored)
    .executeTakeFirstOrThrow();
  const bucket = new S3Store(
    { bucket: TEST_BUCKET, prefix, endpoint: peer.endpoint, region: 'us-east-1', forcePathStyle: true },
    os.tmpdir(),
  );
  const [key] = (await bucket.list('uploads')).map((f) => f.key).filter((k) => k.endsWith(stored));
  expect(key).toContain(upload.owner_id);
  await bucket.remove(key!);
  bucket.close();
  const preview = await two.app.inject({
    method: 'GET',
    url: `/api/imports/uploads/${stored}/preview?kind=notice`,
    headers: asha.headers,
  });
  expect(preview.statusCode, preview.body).toBe(404);
  expect(preview.json()).toMatchObject({ code: 'FILE_MISSING', message: expect.stringContaining(stored) });
});
