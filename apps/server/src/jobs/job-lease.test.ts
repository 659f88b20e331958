import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { insertUser } from '../modules/auth/auth.repository.ts';
import { newId } from '../lib/ids.ts';
import { nowIso } from '../lib/time.ts';
import { createTestDatabase } from '../test/app.ts';
import { defineJob, enqueue, registerJob, type JobHandler } from './job-definition.ts';
import { JobRunner } from './job-runner.ts';
import { completeJob } from './jobs.repository.ts';

const leaseJob = defineJob('lease-test', z.object({}));
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const ownerId = newId();
let logLines: string[];

beforeEach(async () => {
  database = await createTestDatabase();
  logLines = [];
  await insertUser(database.db, {
    id: ownerId,
    name: 'A',
    username: 'a',
    password_hash: 'x',
    created_at: nowIso(),
  });
});
afterEach(async () => database.close());

const runnerFor = (handler: JobHandler<object>, concurrency = 1) =>
  new JobRunner({
    db: database.db,
    jobs: [registerJob(leaseJob, handler)],
    log: pino({ level: 'warn' }, { write: (line: string) => void logLines.push(line) }),
    pollMs: 10,
    leaseMs: 300,
    concurrency,
  });
const jobRow = (id: string) =>
  database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a job lease in one process', () => {
  it('is not reported taken over when the job was completed in a transaction of its own (an import hand-over)', async () => {
    const id = await enqueue(database.db, leaseJob, { ownerId, subject: 's', payload: {}, maxAttempts: 3 });
    let aborted = false;
    const runner = runnerFor(async ({ job, workerId, signal }) => {
      // As the SQLite hand-over thread does: the job is marked done on another connection's transaction,
      // and the renewals that come due before the handler returns find it no longer running.
      expect(await completeJob(database.db, job.id, workerId, { imported: 1 }, nowIso())).toBe(true);
      await sleep(450);
      aborted = signal.aborted;
    });
    const settled = new Promise((resolve) => runner.once('settled', resolve));
    runner.start();
    await settled;
    await runner.stop();
    expect((await jobRow(id)).status).toBe('done');
    expect(aborted).toBe(false);
    expect(logLines.join('')).not.toContain('taken over by another worker');
  });

  it('is never taken over by its own runner when a renewal came late (an event loop held past the lease)', async () => {
    const id = await enqueue(database.db, leaseJob, { ownerId, subject: 's', payload: {}, maxAttempts: 3 });
    let runs = 0;
    const runner = runnerFor(async ({ job, signal }) => {
      runs += 1;
      // The renewal timer was starved: the lease ran out while this runner still runs the job.
      await database.db
        .updateTable('jobs')
        .set({ lease_until: '2000-01-01T00:00:00.000Z' })
        .where('id', '=', job.id)
        .execute();
      await sleep(250);
      expect(signal.aborted).toBe(false);
    }, 2);
    runner.start();
    for (let i = 0; i < 100 && (await jobRow(id)).status !== 'done'; i++) await sleep(20);
    await runner.stop();
    expect(runs).toBe(1);
    const row = await jobRow(id);
    expect(row).toMatchObject({ status: 'done', attempts: 1, lost_leases: 0 });
    expect(logLines.join('')).not.toContain('taken over by another worker');
  });
});
