import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config/env.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { copyPostgresTemplate, copySqliteTemplate } from './migrated-template.ts';
import { multipart } from './xlsx.ts';
import { cheapPasswords, unlimitedSends } from './server-process.ts';
import { sharedBrowserEndpoint, sharedBrowserEnv } from './shared-browser.ts';
import { PdfRenderer } from '../lib/pdf/renderer.ts';
import pino from 'pino';
import { sharedS3Peer } from './s3-peer.ts';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
}

/**
 * A real app on a real database: SQLite in a fresh temporary DATA_DIR, or, when DATABASE_URL
 * names PostgreSQL, a fresh schema of its own that is dropped afterwards. Either starts as a copy of
 * one migrated once (migrated-template.ts), unless the test names a database of its own.
 */
async function testConfig(
  env: Record<string, string>,
): Promise<{ config: Config; dropDatabase(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-test-'));
  const databaseUrl = process.env.DATABASE_URL;
  const schema = databaseUrl ? `test_${randomBytes(6).toString('hex')}` : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: schema,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    ...unlimitedSends,
    ...cheapPasswords,
    // A provider's 'try again later' is retried after 200 ms, not 2 s: tests of retries wait for them.
    JOB_RETRY_BACKOFF: '200ms',
    // Tests written before WHATSAPP_ALONE_REFUSED send a WhatsApp-only record by WhatsApp only; the
    // setting's own tests (sms.test.ts) turn it on, as production has it by default.
    WHATSAPP_ALONE_REFUSED: 'false',
    ...sharedBrowserEnv(env),
    // TEST_STORAGE=s3 (the server-s3 project): every file in a bucket of the local S3 peer.
    ...(process.env.TEST_STORAGE === 's3' && env.STORAGE_URL === undefined
      ? (await sharedS3Peer()).env()
      : {}),
    ...env,
  });
  // TEST_MIGRATE_EACH=1: every test migrates its own database, as before the templates (to compare).
  const fromTemplate = process.env.TEST_MIGRATE_EACH !== '1';
  if (fromTemplate && !config.databaseUrl) await copySqliteTemplate(config.dataDir);
  // Only into the schema named here: a test that names its own (a crash test's) migrates it itself.
  else if (fromTemplate && databaseUrl && schema && config.databaseSchema === schema)
    await copyPostgresTemplate(config.databaseUrl ?? databaseUrl, schema);
  return {
    config,
    async dropDatabase() {
      if (databaseUrl && schema) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One PDF renderer for the test file's apps, in the run's shared browser: each app opening a context
 * and tabs of its own (a renderer process each) cost 1-2 s an app on this machine. A tab that printed
 * other batches prints the next as a fresh one does (lib/pdf/record-isolation.test.ts), so sharing
 * hides nothing; closed after each file (test/per-file.ts). Apps that print elsewhere (a Chromium of
 * their own) keep their own renderer.
 */
let fileRenderer: PdfRenderer | undefined;
function sharedRenderer(config: Config): PdfRenderer | undefined {
  const endpoint = sharedBrowserEndpoint();
  if (!endpoint || config.chromiumWsEndpoint !== endpoint) return undefined;
  fileRenderer ??= new PdfRenderer({
    executablePath: config.chromiumPath,
    wsEndpoint: endpoint,
    log: pino({ level: 'silent' }),
  });
  return fileRenderer;
}

/** Closes the file's shared renderer (test/per-file.ts, after each file). */
export async function closeSharedRenderer(): Promise<void> {
  const renderer = fileRenderer;
  fileRenderer = undefined;
  await renderer?.close();
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: { logStream?: NodeJS.WritableStream } = {},
): Promise<TestApp> {
  const { config, dropDatabase } = await testConfig(env);
  const app = await buildApp(config, { ...options, renderer: sharedRenderer(config) });
  return {
    app,
    config,
    async close() {
      await app.close();
      await dropDatabase();
    },
  };
}

/** A migrated database of its own, for tests of services and repositories below the HTTP layer. */
export async function createTestDatabase(): Promise<{
  db: Database;
  config: Config;
  close(): Promise<void>;
}> {
  const { config, dropDatabase } = await testConfig({});
  const { db, kind } = await openDatabase(config);
  await migrateToLatest(db, kind === 'postgres' ? config.databaseSchema : undefined);
  return {
    db,
    config,
    async close() {
      await db.destroy();
      await dropDatabase();
    },
  };
}

export interface SignedIn {
  token: string;
  userId: string;
  headers: { authorization: string };
}

/** Registers an account and signs it in. */
export async function signUp(
  app: FastifyInstance,
  username: string,
  password = 'pass-word-1',
): Promise<SignedIn> {
  const register = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name: `Name of ${username}`, username, password },
  });
  if (register.statusCode !== 201) throw new Error(`register failed: ${register.body}`);
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
  const { token, user } = login.json<{ token: string; user: { _id: string } }>();
  return { token, userId: user._id, headers: { authorization: `Bearer ${token}` } };
}

/** Uploads a file as the Import Excel modal does (/temporary-upload); answers the name it is stored under. */
export async function uploadFile(
  app: FastifyInstance,
  who: SignedIn,
  name: string,
  data: Buffer,
): Promise<string> {
  const form = multipart({ type: 'notice', name }, { name, data });
  const res = await app.inject({
    method: 'POST',
    url: '/temporary-upload',
    headers: { ...who.headers, ...form.headers },
    payload: form.payload,
  });
  if (res.statusCode !== 200) throw new Error(`The upload answered ${res.statusCode}: ${res.body}`);
  return res.json<{ data: string }>().data;
}
