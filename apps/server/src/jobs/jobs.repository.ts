import { sql, type RawBuilder, type Selectable } from 'kysely';
import { isPostgres, JOBS_CHANNEL, type Database } from '../db/database.ts';
import type { JobStatus, JobsTable } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';

export type JobRow = Selectable<JobsTable>;

export interface NewJob {
  kind: string;
  ownerId: string;
  subject: string;
  /** Already checked against the job's schema (job-definition.ts). */
  payload: unknown;
  maxAttempts: number;
}

/**
 * The database's clock, `offsetMs` from now, as the ISO text the jobs table stores. Leases and due
 * times are set and compared on this one clock, so a worker whose own clock runs fast or slow can
 * neither take a live job over early nor hold a dead one late.
 */
function databaseNow(db: Database, offsetMs = 0): RawBuilder<string> {
  return isPostgres(db)
    ? sql<string>`to_char((clock_timestamp() + ${offsetMs}::double precision * interval '1 millisecond') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`${offsetMs / 1000} seconds`})`;
}

/** Queues a job to run now; answers its id. */
export async function enqueueJob(db: Database, job: NewJob): Promise<string> {
  const now = new Date().toISOString();
  const id = newId();
  await db
    .insertInto('jobs')
    .values({
      id,
      kind: job.kind,
      owner_id: job.ownerId,
      subject: job.subject,
      payload: JSON.stringify(job.payload),
      status: 'queued',
      attempts: 0,
      max_attempts: job.maxAttempts,
      lost_leases: 0,
      run_after: databaseNow(db),
      lease_until: null,
      locked_by: null,
      progress: 0,
      result: null,
      error: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  // Runners in every process LISTEN (db/database.ts listenForJobs); inside a transaction, the
  // announcement goes out when it commits, when the job can be seen.
  if (isPostgres(db)) await sql`select pg_notify(${JOBS_CHANNEL}, current_schema())`.execute(db);
  return id;
}

/**
 * Takes the oldest runnable job of the given kinds: queued and due, or running with a lease that ran out
 * (its worker died; counted in lost_leases, so the job's handler knows it may be what killed it). An owner's jobs of one subject run one at a time, in order. On PostgreSQL the
 * candidate row is locked with SKIP LOCKED so concurrent workers never take the same job.
 */
export async function claimJob(
  db: Database,
  kinds: string[],
  workerId: string,
  leaseMs: number,
): Promise<JobRow | undefined> {
  const lock = isPostgres(db) ? sql`for update skip locked` : sql``;
  const now = databaseNow(db);
  const result = await sql<JobRow>`
    update jobs set status = 'running', locked_by = ${workerId}, lease_until = ${databaseNow(db, leaseMs)},
      attempts = attempts + 1, updated_at = ${now},
      lost_leases = lost_leases + (case when status = 'running' then 1 else 0 end)
    where id = (
      select j.id from jobs j
      where j.kind in (${sql.join(kinds)})
        and ((j.status = 'queued' and j.run_after <= ${now})
          or (j.status = 'running' and j.lease_until < ${now} and j.locked_by <> ${workerId}))
        and not exists (
          select 1 from jobs o
          where o.owner_id = j.owner_id and o.kind = j.kind and o.subject = j.subject and o.id <> j.id
            and ((o.status = 'running' and o.lease_until >= ${now}) or (o.status = 'queued' and o.id < j.id))
        )
      order by j.id
      limit 1
      ${lock}
    )
    and (status = 'queued' or (status = 'running' and lease_until < ${now} and locked_by <> ${workerId}))
    returning *`.execute(db);
  return result.rows[0];
}

/**
 * What a renewal found: the lease is this worker's still (extended), the attempt already ended under
 * this worker (done or failed in a transaction of its own, such as an import's hand-over on its own
 * connection, which a renewal waiting for SQLite's write lock meets afterwards), or another worker holds
 * the job. Decided by who holds the job, never by comparing times.
 */
export type LeaseRenewal = 'held' | 'ended' | 'taken';

/** Extends the lease while the worker still holds the job, whatever the time. */
export async function renewLease(
  db: Database,
  id: string,
  workerId: string,
  leaseMs: number,
): Promise<LeaseRenewal> {
  const result = await db
    .updateTable('jobs')
    .set({ lease_until: databaseNow(db, leaseMs) })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return 'held';
  const now = await db
    .selectFrom('jobs')
    .select(['locked_by', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
  // Gone (pruned) or finished by this worker: nobody took it over.
  if (!now || (now.locked_by === workerId && now.status !== 'running')) return 'ended';
  return 'taken';
}

export async function setJobProgress(
  db: Database,
  id: string,
  workerId: string,
  progress: number,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ progress })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .execute();
}

/** Marks the job done; false (and nothing changed) when this worker no longer holds it. */
export async function completeJob(
  db: Database,
  id: string,
  workerId: string,
  result: unknown,
  now: string,
): Promise<boolean> {
  const updated = await db
    .updateTable('jobs')
    .set({
      status: 'done',
      progress: 100,
      result: JSON.stringify(result ?? null),
      error: null,
      lease_until: null,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** When a failed job runs again: after a wait (on the database's clock), at a set time, or never. */
export type Retry = { afterMs: number } | { at: Date } | null;

export async function failJob(
  db: Database,
  id: string,
  workerId: string,
  error: string,
  retry: Retry,
  now: string,
): Promise<void> {
  const runAfter =
    retry === null ? null : 'at' in retry ? retry.at.toISOString() : databaseNow(db, retry.afterMs);
  await db
    .updateTable('jobs')
    .set(
      runAfter
        ? {
            status: 'queued',
            run_after: runAfter,
            error,
            lease_until: null,
            locked_by: null,
            updated_at: now,
          }
        : { status: 'failed', error, lease_until: null, updated_at: now },
    )
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .execute();
}

export function findLatestJob(
  db: Database,
  ownerId: string,
  kind: string,
  subject: string,
): Promise<JobRow | undefined> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .where('subject', '=', subject)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function findJob(db: Database, id: string, ownerId: string): Promise<JobRow | undefined> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
}

/**
 * Removes up to `limit` finished or failed jobs last changed before `before` (an import's row report
 * goes with its job); answers how many. Small batches keep each transaction short on SQLite.
 */
export async function pruneJobs(db: Database, before: string, limit: number): Promise<number> {
  const finished: JobStatus[] = ['done', 'failed'];
  const result = await db
    .deleteFrom('jobs')
    .where(
      'id',
      'in',
      db
        .selectFrom('jobs')
        .select('id')
        .where('status', 'in', finished)
        .where('updated_at', '<', before)
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Per kind: jobs queued (due or not), and the queued time of the oldest one due now (for /metrics). */
export async function queueStats(
  db: Database,
): Promise<{ kind: string; queued: number; oldestDue: string | null }[]> {
  const now = databaseNow(db);
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => [
      'kind',
      eb.fn.countAll<number>().as('queued'),
      eb.fn.min(sql<string | null>`case when run_after <= ${now} then created_at end`).as('oldestDue'),
    ])
    .where('status', '=', 'queued')
    .groupBy('kind')
    .orderBy('kind')
    .execute();
  return rows.map((row) => ({
    kind: row.kind,
    queued: Number(row.queued),
    oldestDue: row.oldestDue ?? null,
  }));
}
