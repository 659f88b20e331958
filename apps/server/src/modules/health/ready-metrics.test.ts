import { randomBytes } from 'node:crypto';
import pg from 'pg';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../jobs/jobs.repository.ts';
import { openDatabase, type Database } from '../../db/database.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { startS3Peer } from '../../test/s3-peer.ts';
import { freePort, startWorkerProcess } from '../../test/server-process.ts';
import type { JobListQuery } from '@notice-desk/contract/jobs';
import { JobsService } from '../jobs/jobs.service.ts';

/** Issue 32's deploy shape: /api/ready, /metrics (METRICS_PORT or METRICS_TOKEN), the ADMIN's job list. */
const token = 'metrics-token-0123456789';
const databaseUrl = process.env.DATABASE_URL;
let t: TestApp;
let opsPort: number;
let admin: SignedIn;
let user: SignedIn;
let db: Database;
let jobIds: string[];

beforeAll(async () => {
  opsPort = await freePort();
  // No job runner: the jobs queued below stay queued, for the queue gauges and the list.
  t = await createTestApp({ METRICS_PORT: String(opsPort), METRICS_TOKEN: token, RUN_JOBS: 'false' });
  await t.app.ready();
  admin = await signUp(t.app, 'admin');
  user = await signUp(t.app, 'user');
  // A second connection to the app's database, as another process would have.
  ({ db } = await openDatabase(t.config, { checkpointer: false }));
  const job = (kind: string, subject: string) =>
    enqueueJob(db, { kind, ownerId: admin.userId, subject, payload: {}, maxAttempts: 3 });
  jobIds = [await job('send', 's1'), await job('send', 's2'), await job('import', 'notice')];
  await db
    .updateTable('jobs')
    .set({ status: 'failed', attempts: 3, error: 'The sheet has no header row.' })
    .where('id', '=', jobIds[2]!)
    .execute();
});
afterAll(async () => {
  await db?.destroy();
  await t?.close();
});

const ops = (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${opsPort}${path}`, init);

describe('GET /api/ready', () => {
  it('answers ready with each part: database, storage, Redis and browser not used by a process that runs no jobs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', storage: 'ok', redis: 'not used', browser: 'not used' },
    });
  });

  it('answers 503 naming what is missing in a process that renders without Chromium; /api/health stays 200', async () => {
    const other = await createTestApp({ CHROMIUM_PATH: '/nonexistent/chromium', RUN_JOBS: 'true' });
    try {
      const res = await other.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'not ready',
        checks: {
          database: 'ok',
          storage: 'ok',
          redis: 'not used',
          browser: 'Chromium was not found at /nonexistent/chromium.',
        },
      });
      expect((await other.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('with STORAGE_URL lists the bucket: ready while the S3 peer answers, 503 naming storage once it is stopped', async () => {
    const peer = await startS3Peer();
    const other = await createTestApp({ ...peer.env('ready'), RUN_JOBS: 'false' });
    try {
      const lists = () => peer.requests.filter((r) => r.method === 'GET' && r.path === '/notice-desk-test/');
      const before = lists().length;
      const up = await other.app.inject({ method: 'GET', url: '/api/ready' });
      expect(up.statusCode, up.body).toBe(200);
      expect(up.json().checks.storage).toBe('ok');
      expect(lists().length).toBe(before + 1);
      await peer.close();
      const down = await other.app.inject({ method: 'GET', url: '/api/ready' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({
        status: 'not ready',
        checks: {
          database: 'ok',
          storage: expect.stringMatching(/^STORAGE_URL s3:\/\/notice-desk-test\/ready cannot be read: /),
          redis: 'not used',
          browser: 'not used',
        },
      });
      // Alive all the same: the balancer stops sending work here, the orchestrator does not restart it.
      expect((await other.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await other.close();
      await peer.close().catch(() => undefined);
    }
  });
});

describe('GET /metrics', () => {
  it('on the public port answers only a request bearing METRICS_TOKEN', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${token}x`, token, `Basic ${token}`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.body).not.toContain('notice_desk_');
    }
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('on METRICS_PORT: latency by route pattern, queue depth and age by kind, and the checks', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    const body = await (await ops('/metrics')).text();
    expect(body).toMatch(
      /notice_desk_http_request_duration_seconds_count\{method="GET",route="\/api\/ready",status_code="200"\} \d+/,
    );
    expect(body).toContain('notice_desk_jobs_queued{kind="send"} 2');
    expect(body).toMatch(/notice_desk_jobs_oldest_queued_seconds\{kind="send"\} \d/);
    expect(body).toContain('# TYPE notice_desk_job_outcomes_total counter');
    expect(body).toContain('notice_desk_process_cpu_seconds_total');
    expect(await (await ops('/api/ready')).json()).toMatchObject({ status: 'ready' });
    expect(await (await ops('/api/health')).json()).toMatchObject({ status: 'ok' });
    const unknown = await ops('/api/users');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toMatch(
      /\/metrics, \/api\/health and \/api\/ready are/,
    );
    expect((await ops('/metrics', { method: 'POST' })).status).toBe(405);
  });
});

describe('a worker process (npm run worker)', () => {
  /** A database of the worker's own (it runs jobs: the ones queued above must stay queued). */
  const own = (name: string) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `notice-desk-${name}-`));
    const schema = `${name}_${randomBytes(6).toString('hex')}`;
    const env = {
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
    };
    const drop = async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (!databaseUrl) return;
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    };
    return { env, drop };
  };

  // A process boot each: 1-4 s of CPU, far longer on a loaded machine.
  it('serves /api/ready and /metrics on METRICS_PORT, its only port', { timeout: 90_000 }, async () => {
    const port = await freePort();
    const { env, drop } = own('worker');
    const worker = startWorkerProcess({ ...env, METRICS_PORT: String(port) });
    try {
      const end = Date.now() + 60_000;
      let ready: Response | undefined;
      while (!ready && Date.now() < end && worker.child.exitCode === null) {
        ready = await fetch(`http://127.0.0.1:${port}/api/ready`).catch(() => undefined);
        if (!ready) await new Promise((r) => setTimeout(r, 50));
      }
      expect(ready?.status).toBe(200);
      expect(await ready!.json()).toMatchObject({
        status: 'ready',
        checks: { database: 'ok', browser: 'ok' },
      });
      expect(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).toContain(
        'notice_desk_process_cpu_seconds_total',
      );
    } finally {
      await worker.stop();
      await drop();
    }
  });

  it(
    'refuses to start on a database that is behind with MIGRATE_ON_START=false, naming the migration',
    { timeout: 90_000 },
    async () => {
      const { env, drop } = own('behind');
      let stderr = '';
      const worker = startWorkerProcess({ ...env, MIGRATE_ON_START: 'false' }, (text) => (stderr += text));
      const code = await new Promise((resolve) => worker.child.once('exit', resolve));
      await drop();
      expect(code).toBe(1);
      expect(stderr).toMatch(
        /The database is behind this version: migration 20261122_01_users and \d+ more has not run\. Run `npm run migrate` first/,
      );
    },
  );
});

describe('GET /api/jobs', () => {
  const list = (query: string, who: SignedIn | undefined = admin) =>
    t.app.inject({ method: 'GET', url: `/api/jobs${query}`, headers: who ? who.headers : {} });

  it('lists every job for an ADMIN, newest first: kind, state, attempts, last error, age', async () => {
    const res = await list('');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(3);
    expect(body.timeZone).toBe('Asia/Kolkata');
    expect(body.items.map((j: { _id: string }) => j._id)).toEqual([...jobIds].reverse());
    expect(body.items[0]).toMatchObject({
      kind: 'import',
      state: 'failed',
      attempts: 3,
      maxAttempts: 3,
      lastError: 'The sheet has no header row.',
    });
    expect(body.items[1]).toMatchObject({ kind: 'send', state: 'queued', attempts: 0, lastError: null });
    const narrowed = (await list('?kind=send&state=queued&limit=1&page=2')).json();
    expect(narrowed.total).toBe(2);
    expect(narrowed.items.map((j: { _id: string }) => j._id)).toEqual([jobIds[0]]);
  });

  it('pages deep lists from cached keys, read again when a job joins the state listed', async () => {
    // A stride of 1: every page past the first starts from a boundary key.
    const keyed = new JobsService(db, 'Asia/Kolkata', Date.now, 1);
    const ids = async (query: Partial<JobListQuery>, pages: number) => {
      const found: string[] = [];
      for (let page = 1; page <= pages; page++)
        found.push(...(await keyed.list({ page, limit: 1, ...query })).items.map((j) => j._id));
      return found;
    };
    expect(await ids({}, 4)).toEqual([...jobIds].reverse());
    expect(await ids({ state: 'queued' }, 2)).toEqual([jobIds[1], jobIds[0]]);
    const setState = (status: 'queued' | 'failed') =>
      db
        .updateTable('jobs')
        .set({ status, updated_at: new Date().toISOString() })
        .where('id', '=', jobIds[2]!)
        .execute();
    await setState('queued');
    try {
      expect(await ids({ state: 'queued' }, 3)).toEqual([...jobIds].reverse());
    } finally {
      await setState('failed');
    }
  });

  it('reads ages on the clock it is given', async () => {
    const created = Date.parse((await list('?limit=1')).json().items[0].createdAt);
    const later = new JobsService(db, 'Asia/Kolkata', () => created + 90_500);
    expect((await later.list({ page: 1, limit: 1 })).items[0]!.ageSeconds).toBe(90);
  });

  it('answers 401 without a session, 403 to a plain user, 400 naming a kind or state it does not know', async () => {
    expect((await list('', null as never)).statusCode).toBe(401);
    const refused = await list('', user);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Only an ADMIN can do this.');
    for (const [query, message] of [
      ['?state=lost', 'state must be one of queued, running, done, failed.'],
      ['?state=', 'state must be one of queued, running, done, failed.'],
      ['?kind=export', 'kind must be import or send.'],
      ['?kind=send&kind=import', 'kind must be given once.'],
    ] as const) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toContain(message);
    }
  });
});
