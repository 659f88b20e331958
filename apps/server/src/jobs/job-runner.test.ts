import pino from 'pino';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newId } from '../lib/ids.ts';
import { createTestDatabase } from '../test/app.ts';
import { insertUser } from '../modules/auth/auth.repository.ts';
import { z } from 'zod';
import { defineJob, enqueue as enqueueJob, registerJob, type JobHandler } from './job-definition.ts';
import { JobRunner, PermanentJobError } from './job-runner.ts';
import { claimJob, pruneJobs, type JobRow } from './jobs.repository.ts';

const log = pino({ level: 'silent' });
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const ownerId = newId();
const testJob = defineJob(
  'test',
  z.object({ failTimes: z.number().optional(), permanent: z.boolean().optional() }),
);
type TestPayload = z.infer<typeof testJob.payload>;
const runnerFor = (
  handler: JobHandler<TestPayload>,
  options: { concurrency?: number; retryBackoffMs?: number } = {},
) => new JobRunner({ db: database.db, jobs: [registerJob(testJob, handler)], log, pollMs: 10, ...options });

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

const enqueue = (subject: string, payload: TestPayload = {}, maxAttempts = 3) =>
  enqueueJob(database.db, testJob, { ownerId, subject, payload, maxAttempts });

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
    const handler: JobHandler<TestPayload> = async ({ job }) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 5));
    };
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => enqueue(`subject-${i}`)));
    const runners = [1, 2].map(() => runnerFor(handler, { concurrency: 2 }));
    runners.forEach((r) => r.start());
    await until(async () => (await Promise.all(ids.map(job))).every((j) => j.status === 'done'));
    await Promise.all(runners.map((r) => r.stop()));
    expect(ids.map((id) => runs.get(id))).toEqual(ids.map(() => 1));
  });

  it('runs an owner’s jobs of one subject one at a time, in order', async () => {
    const order: string[] = [];
    let running = 0;
    let overlapped = false;
    const handler: JobHandler<TestPayload> = async ({ job }) => {
      running += 1;
      overlapped ||= running > 1;
      order.push(job.id);
      await new Promise((r) => setTimeout(r, 20));
      running -= 1;
    };
    const ids = [await enqueue('notice'), await enqueue('notice'), await enqueue('notice')];
    const runner = runnerFor(handler, { concurrency: 3 });
    runner.start();
    await until(async () => (await Promise.all(ids.map(job))).every((j) => j.status === 'done'));
    await runner.stop();
    expect(overlapped).toBe(false);
    expect(order).toEqual(ids);
  });

  it('takes over a job whose worker died once its lease runs out', async () => {
    const id = await enqueue('notice');
    // A worker claims it and dies: its lease is already over.
    const claimed = await claimJob(database.db, ['test'], 'dead-worker', -1000);
    expect(claimed?.id).toBe(id);
    let ranBy = '';
    const runner = runnerFor(async ({ workerId }) => void (ranBy = workerId));
    runner.start();
    await until(async () => (await job(id)).status === 'done');
    await runner.stop();
    expect(ranBy).toBe(runner.workerId);
    expect((await job(id)).attempts).toBe(2);
  });

  it('counts each takeover after a lost lease, and not a retry after a failure, so the handler knows', async () => {
    const id = await enqueue('notice', {}, 5);
    // Two workers claim it in turn and die (their leases are over at once).
    const first = await claimJob(database.db, ['test'], 'dead-1', -1000);
    const second = await claimJob(database.db, ['test'], 'dead-2', -1000);
    expect([first?.lost_leases, second?.lost_leases]).toEqual([0, 1]);
    const seen: number[] = [];
    let failOnce = true;
    const runner = runnerFor(
      async ({ job: running }) => {
        seen.push(running.lost_leases);
        if (failOnce) {
          failOnce = false;
          throw new Error('a passing fault');
        }
      },
      { retryBackoffMs: 10 },
    );
    runner.start();
    await until(async () => (await job(id)).status === 'done');
    await runner.stop();
    // Taken over from dead-2 (the second lost lease), then retried after its own failure (no new one).
    expect(seen).toEqual([2, 2]);
    expect(await job(id)).toMatchObject({ attempts: 4, lost_leases: 2 });
  });

  it('a job that ran out of attempts in dead processes says so when it gives up', async () => {
    const id = await enqueue('notice', {}, 1);
    await claimJob(database.db, ['test'], 'dead-1', -1000);
    const runner = runnerFor(async () => undefined);
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
    const handler: JobHandler<TestPayload> = async ({ job }, payload) => {
      attempts.set(job.id, (attempts.get(job.id) ?? 0) + 1);
      if (payload.permanent) throw new PermanentJobError('The file is not an .xlsx workbook.');
      if (attempts.get(job.id)! <= (payload.failTimes ?? 0)) throw new Error('SMTP said 421, try later');
    };
    const runner = runnerFor(handler);
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

describe('job payloads, leases and pruning', () => {
  it('refuses to queue a payload that does not fit the job, and fails a stored one that does not', async () => {
    await expect(
      enqueueJob(database.db, testJob, {
        ownerId,
        subject: 's',
        payload: { failTimes: 'twice' } as never,
        maxAttempts: 1,
      }),
    ).rejects.toThrow();
    // A row written by hand or by an older release: the handler never sees it.
    const { enqueueJob: insertRaw } = await import('./jobs.repository.ts');
    const bad = await insertRaw(database.db, {
      kind: 'test',
      ownerId,
      subject: 'raw',
      payload: { permanent: 'yes' },
      maxAttempts: 3,
    });
    let ran = false;
    const runner = runnerFor(async () => void (ran = true));
    runner.start();
    await until(async () => (await job(bad)).status === 'failed');
    await runner.stop();
    expect(ran).toBe(false);
    expect((await job(bad)).error).toMatch(/^The job could not be run: .*permanent/s);
  });

  it("compares leases on the database's clock: a worker whose clock runs an hour ahead takes no live job", async () => {
    const id = await enqueue('notice');
    expect((await claimJob(database.db, ['test'], 'live-worker', 30_000))?.id).toBe(id);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 3600_000);
      expect(await claimJob(database.db, ['test'], 'fast-clock', 30_000)).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
    expect((await job(id)).locked_by).toBe('live-worker');
  });

  it('stops the work when renewing its lease fails, and logs why', async () => {
    const id = await enqueue('notice');
    const errors: string[] = [];
    const watched = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
    let stopped = false;
    const runner = new JobRunner({
      db: database.db,
      log: watched,
      pollMs: 10,
      leaseMs: 300,
      jobs: [
        registerJob(testJob, async ({ signal }) => {
          // The jobs table goes away under the running job: its next renewal throws.
          await sql`alter table jobs rename to jobs_away`.execute(database.db);
          await until(async () => signal.aborted, 5000);
          stopped = true;
          await sql`alter table jobs_away rename to jobs`.execute(database.db);
          throw new Error('The import was interrupted; it will be retried.');
        }),
      ],
    });
    runner.start();
    await until(async () => stopped);
    await runner.stop();
    expect(errors.join('\n')).toContain('job lease renewal failed; stopping this attempt');
    // Left to its lease: the next worker to claim it after the lease ends runs it again.
    expect((await job(id)).status).toBe('running');
  });

  it('prunes finished and failed jobs older than the retention, with their import reports', async () => {
    const [old, oldFailed, recent, waiting] = await Promise.all(['a', 'b', 'c', 'd'].map((s) => enqueue(s)));
    const long = '2020-01-01T00:00:00.000Z';
    await database.db
      .updateTable('jobs')
      .set({ status: 'done', updated_at: long })
      .where('id', '=', old!)
      .execute();
    await database.db
      .updateTable('jobs')
      .set({ status: 'failed', updated_at: long })
      .where('id', '=', oldFailed!)
      .execute();
    await database.db.updateTable('jobs').set({ status: 'done' }).where('id', '=', recent!).execute();
    await database.db.updateTable('jobs').set({ updated_at: long }).where('id', '=', waiting!).execute();
    await database.db
      .insertInto('import_problems')
      .values({ job_id: old!, row_number: 2, column_name: 'LOAN NO', problem: 'Missing.', skips_row: 1 })
      .execute();
    const before = new Date(Date.now() - 30 * 86_400_000).toISOString();
    expect(await pruneJobs(database.db, before, 1)).toBe(1);
    expect(await pruneJobs(database.db, before, 10)).toBe(1);
    expect(await pruneJobs(database.db, before, 10)).toBe(0);
    const left = await database.db.selectFrom('jobs').select('id').execute();
    expect(left.map((j) => j.id).sort()).toEqual([recent, waiting].sort());
    expect(await database.db.selectFrom('import_problems').selectAll().execute()).toEqual([]);
  });
});
