import type { Database } from '../../db/database.ts';
import type { JobStatus, UploadsTable } from '../../db/schema.ts';

/**
 * Claims a run of a scheduled chore: moves its last run to `now` when the last one was at or before
 * `dueIfBefore`, in one guarded update. However many processes ask at once, one gets true.
 */
export async function claimScheduledRun(
  db: Database,
  name: string,
  now: string,
  dueIfBefore: string,
): Promise<boolean> {
  await db
    .insertInto('scheduled_runs')
    .values({ name, last_run_at: new Date(0).toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const result = await db
    .updateTable('scheduled_runs')
    .set({ last_run_at: now })
    .where('name', '=', name)
    .where('last_run_at', '<=', dueIfBefore)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Uploads stored before `before` (imported or not: after their retention none is kept). */
export function uploadsOlderThan(db: Database, before: string): Promise<UploadsTable[]> {
  return db.selectFrom('uploads').selectAll().where('created_at', '<', before).execute();
}

/** Every upload on record, for telling a stored file with a row from a stray one. */
export function allUploads(db: Database): Promise<Pick<UploadsTable, 'owner_id' | 'stored_name'>[]> {
  return db.selectFrom('uploads').select(['owner_id', 'stored_name']).execute();
}

/**
 * Payloads of imports by how they stand: 'done' (their uploaded files are no longer needed), or
 * queued and running (waiting to run or to retry: their files are still needed, however old).
 */
export async function importPayloads(
  db: Database,
  importKind: string,
  statuses: JobStatus[],
): Promise<{ id: string; payload: string }[]> {
  return db
    .selectFrom('jobs')
    .select(['id', 'payload'])
    .where('kind', '=', importKind)
    .where('status', 'in', statuses)
    .execute();
}

export async function deleteUploadRow(db: Database, ownerId: string, storedName: string): Promise<void> {
  await db
    .deleteFrom('uploads')
    .where('owner_id', '=', ownerId)
    .where('stored_name', '=', storedName)
    .execute();
}
