import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import { idBoundaries } from '../../db/id-boundaries.ts';
import type { JobStatus, JobsTable } from '../../db/schema.ts';

/** Which jobs the ADMIN's list shows. */
export interface JobFilter {
  kind?: string | undefined;
  status?: JobStatus | undefined;
}

export type ListedJob = Pick<
  Selectable<JobsTable>,
  'id' | 'kind' | 'status' | 'attempts' | 'max_attempts' | 'error' | 'progress' | 'created_at' | 'updated_at'
>;

function listed(db: Database, { kind, status }: JobFilter) {
  let query = db.selectFrom('jobs');
  if (kind) query = query.where('kind', '=', kind);
  if (status) query = query.where('status', '=', status);
  return query;
}

/**
 * A page of jobs, newest first by id: `offset` rows on from the job `fromId` (included) when given.
 * Ids are UUIDv7 (lib/ids.ts), made in enqueueJob a moment after created_at, on the same clock: they
 * keep created_at's order but between jobs queued within a millisecond of each other by two processes
 * (or after a clock stepped back, where the id keeps the order they were queued in). The primary key's
 * index serves the order, so jobs_list_idx (created_at, id) no longer serves this list.
 */
export function listJobs(
  db: Database,
  filter: JobFilter,
  { offset, limit, fromId }: { offset: number; limit: number; fromId?: string },
): Promise<ListedJob[]> {
  return listed(db, filter)
    .$if(fromId !== undefined, (query) => query.where('id', '<=', fromId!))
    .select([
      'id',
      'kind',
      'status',
      'attempts',
      'max_attempts',
      'error',
      'progress',
      'created_at',
      'updated_at',
    ])
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The ids at positions 0, stride, 2·stride, … of the filtered list, newest first. */
export function jobBoundaries(db: Database, filter: JobFilter, stride: number): Promise<string[]> {
  return idBoundaries(db, listed(db, filter), 'id', stride);
}

/**
 * How many jobs the filter keeps, and a version of that list for its cached boundaries. A job's place
 * never moves (its id is fixed): the list changes when a job is queued (the newest id) or
 * pruned (the count). Within a state, jobs also come and go as they run: the latest change says so.
 */
export async function jobListState(
  db: Database,
  filter: JobFilter,
): Promise<{ total: number; version: string }> {
  const row = await listed(db, filter)
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.max('id').as('newest'),
      eb.fn.max('updated_at').as('changed'),
    ])
    .executeTakeFirst();
  const total = Number(row?.n ?? 0);
  const version = `${total}:${row?.newest ?? ''}${filter.status ? `:${row?.changed ?? ''}` : ''}`;
  return { total, version };
}
