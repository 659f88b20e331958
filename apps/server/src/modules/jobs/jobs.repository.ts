import { sql, type Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { JobStatus, JobsTable } from '../../db/schema.ts';

/** Which jobs the ADMIN's list shows. */
export interface JobFilter {
  kind?: string | undefined;
  status?: JobStatus | undefined;
}

/** A place in the list, which runs newest first by (created_at, id): the jobs_list_idx order. */
export interface JobKey {
  createdAt: string;
  id: string;
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

/** A page of jobs, newest first: `offset` rows on from the job at `from` (included) when given. */
export function listJobs(
  db: Database,
  filter: JobFilter,
  { offset, limit, from }: { offset: number; limit: number; from?: JobKey },
): Promise<ListedJob[]> {
  return listed(db, filter)
    .$if(from !== undefined, (query) =>
      query.where((eb) =>
        eb.or([
          eb('created_at', '<', from!.createdAt),
          eb.and([eb('created_at', '=', from!.createdAt), eb('id', '<=', from!.id)]),
        ]),
      ),
    )
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
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The keys at positions 0, stride, 2·stride, … of the filtered list, in one pass over its index. */
export async function jobBoundaries(db: Database, filter: JobFilter, stride: number): Promise<JobKey[]> {
  const ranked = listed(db, filter).select([
    'created_at',
    'id',
    sql<number>`row_number() over (order by created_at desc, id desc)`.as('position'),
  ]);
  const rows = await db
    .selectFrom(ranked.as('ranked'))
    .select(['ranked.created_at', 'ranked.id'])
    .where(sql<boolean>`(ranked.position - 1) % ${stride} = 0`)
    .orderBy('ranked.created_at', 'desc')
    .orderBy('ranked.id', 'desc')
    .execute();
  return rows.map((row) => ({ createdAt: row.created_at, id: row.id }));
}

/**
 * How many jobs the filter keeps, and a version of that list for its cached boundaries. A job's place
 * never moves (created_at and id are fixed): the list changes when a job is queued (the newest id) or
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
