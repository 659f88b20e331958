import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../lib/ids.ts';
import { createTestDatabase } from '../test/app.ts';
import { insertUser } from '../modules/auth/auth.repository.ts';
import { JobRunner, PermanentJobError, type JobHandler } from './job-runner.ts';
import { claimJob, enqueueJob, type JobRow } from './jobs.repository.ts';

const log = pino({ level: 'silent' });
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const ownerId = newId();
const kind = (): 'sqlite' | 'postgres' => (process.env.DATABASE_URL ? 'postgres' : 'sqlite');

beforeEach(async () => {
  database = await createTestDatabase();
  const now = new Date().toISOString();
  await insertUser(database.db, {
    id: ownerId,
    name: 'A',
    username: 'a',
    password_hash: 'x',
    created_at: now,
  });
});
afterEach(async () => database.close());

const enqueue = (subject: string, payload: unknown = {}, maxAttempts = 3) =>
  enqueueJob(database.db, { kind: 'test', ownerId, subject, payload, maxAttempts });

const job = (id: string) =>
  database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('job runner', () => {
  it('runs every job exactly once with two runners on one database', async () => {
    const runs = new Map<string, number>();
    const handler: JobHandler = async ({ job }) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 5));
    };
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => enqueue(`subject-${i}`)));
    const runners = [1, 2].map(
      () =>
        new JobRunner({
          db: database.db,
          databaseKind: kind(),
          handlers: { test: handler },
          log,
          pollMs: 10,
          concurrency: 2,
        }),
    );
    runners.forEach((r) => r.start());
    await until(async () => (await Promise.all(ids.map(job))).every((j) => j.status === 'done'));
    await Promise.all(runners.map((r) => r.stop()));
    expect(ids.map((id) => runs.get(id))).toEqual(ids.map(() => 1));
  });

  it('runs an owner’s jobs of one subject one at a time, in order', async () => {
    const order: string[] = [];
    let running = 0;
    let overlapped = false;
    const handler: JobHandler = async ({ job }) => {
      running += 1;
      overlapped ||= running > 1;
      order.push(job.id);
      await new Promise((r) => setTimeout(r, 20));
      running -= 1;
    };
    const ids = [await enqueue('notice'), await enqueue('notice'), await enqueue('notice')];
    const runner = new JobRunner({
      db: database.db,
      databaseKind: kind(),
      handlers: { test: handler },
      log,
      pollMs: 10,
      concurrency: 3,
    });
    runner.start();
    await until(async () => (await Promise.all(ids.map(job))).every((j) => j.status === 'done'));
    await runner.stop();
    expect(overlapped).toBe(false);
    expect(order).toEqual(ids);
  });

  it('takes over a job whose worker died once its lease runs out', async () => {
    const id = await enqueue('notice');
    const past = new Date(Date.now() - 1000).toISOString();
    // A worker claims it and dies: its lease is already over.
    const claimed = await claimJob(
      database.db,
      kind(),
      ['test'],
      'dead-worker',
      new Date().toISOString(),
      past,
    );
    expect(claimed?.id).toBe(id);
    let ranBy = '';
    const runner = new JobRunner({
      db: database.db,
      databaseKind: kind(),
      log,
      pollMs: 10,
      handlers: { test: async ({ workerId }) => void (ranBy = workerId) },
    });
    runner.start();
    await until(async () => (await job(id)).status === 'done');
    await runner.stop();
    expect(ranBy).toBe(runner.workerId);
    expect((await job(id)).attempts).toBe(2);
  });

  it('counts each takeover after a lost lease, and not a retry after a failure, so the handler knows', async () => {
    const id = await enqueue('notice', {}, 5);
    const now = () => new Date().toISOString();
    const past = () => new Date(Date.now() - 1000).toISOString();
    // Two workers claim it in turn and die (their leases are over at once).
    const first = await claimJob(database.db, kind(), ['test'], 'dead-1', now(), past());
    const second = await claimJob(database.db, kind(), ['test'], 'dead-2', now(), past());
    expect([first?.lost_leases, second?.lost_leases]).toEqual([0, 1]);
    const seen: number[] = [];
    let failOnce = true;
    const runner = new JobRunner({
      db: database.db,
      databaseKind: kind(),
      log,
      pollMs: 10,
      retryBackoffMs: 10,
      handlers: {
        test: async ({ job: running }) => {
          seen.push(running.lost_leases);
          if (failOnce) {
            failOnce = false;
            throw new Error('a passing fault');
          }
        },
      },
    });
    runner.start();
    await until(async () => (await job(id)).status === 'done');
    await runner.stop();
    // Taken over from dead-2 (the second lost lease), then retried after its own failure (no new one).
    expect(seen).toEqual([2, 2]);
    expect(await job(id)).toMatchObject({ attempts: 4, lost_leases: 2 });
  });

  it('a job that ran out of attempts in dead processes says so when it gives up', async () => {
    const id = await enqueue('notice', {}, 1);
    const past = () => new Date(Date.now() - 1000).toISOString();
    await claimJob(database.db, kind(), ['test'], 'dead-1', new Date().toISOString(), past());
    const runner = new JobRunner({
      db: database.db,
      databaseKind: kind(),
      log,
      pollMs: 10,
      handlers: { test: async () => undefined },
    });
    runner.start();
    await until(async () => (await job(id)).status === 'failed');
    await runner.stop();
    expect((await job(id)).error).toBe(
      'Gave up after 1 attempts: the process running it stopped once while it ran.',
    );
  });

  it('retries a failing job with backoff, and fails a permanent error at once', async () => {
    const flaky = await enqueue('a', { failTimes: 1 });
    const broken = await enqueue('b', { permanent: true });
    const attempts = new Map<string, number>();
    const handler: JobHandler = async ({ job }) => {
      const payload = JSON.parse(job.payload) as { failTimes?: number; permanent?: boolean };
      attempts.set(job.id, (attempts.get(job.id) ?? 0) + 1);
      if (payload.permanent) throw new PermanentJobError('The file is not an .xlsx workbook.');
      if (attempts.get(job.id)! <= (payload.failTimes ?? 0)) throw new Error('SMTP said 421, try later');
    };
    const runner = new JobRunner({
      db: database.db,
      databaseKind: kind(),
      handlers: { test: handler },
      log,
      pollMs: 10,
    });
    runner.start();
    await until(async () => (await job(broken)).status === 'failed');
    await until(async () => {
      const row: JobRow = await job(flaky);
      return row.status === 'done' || (row.status === 'queued' && row.error === 'SMTP said 421, try later');
    });
    const waiting = await job(flaky);
    if (waiting.status === 'queued') expect(Date.parse(waiting.run_after)).toBeGreaterThan(Date.now() + 500);
    await runner.stop();
    expect(await job(broken)).toMatchObject({
      status: 'failed',
      error: 'The file is not an .xlsx workbook.',
      attempts: 1,
    });
  });
});
