import type { Database } from '../../db/database.ts';
import type { CampaignsTable, RecordKind } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';

export const MANUAL_CAMPAIGN_NAME = 'Manual entries';

/** The owner's 'Manual entries' campaign of a kind, created on first use (safely, if two requests race). */
export async function ensureManualCampaign(
  db: Database,
  ownerId: string,
  kind: RecordKind,
  now: string,
): Promise<string> {
  await db
    .insertInto('campaigns')
    .values({
      id: newId(),
      owner_id: ownerId,
      kind,
      name: MANUAL_CAMPAIGN_NAME,
      source: 'manual',
      status: 'ready',
      job_id: null,
      imported_count: 0,
      skipped_count: 0,
      created_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const row = await db
    .selectFrom('campaigns')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .where('source', '=', 'manual')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteCampaignsOfKind(db: Database, ownerId: string, kind: RecordKind): Promise<void> {
  await db.deleteFrom('campaigns').where('owner_id', '=', ownerId).where('kind', '=', kind).execute();
}

export type CampaignRow = CampaignsTable;

export async function insertImportCampaign(
  db: Database,
  campaign: {
    id: string;
    owner_id: string;
    kind: RecordKind;
    name: string;
    job_id: string;
    created_at: string;
  },
): Promise<void> {
  await db
    .insertInto('campaigns')
    .values({ ...campaign, source: 'import', status: 'importing', imported_count: 0, skipped_count: 0 })
    .execute();
}

/** Removes what an earlier, interrupted attempt of an import left (its rows go with it). */
export async function deleteUnfinishedImport(db: Database, jobId: string): Promise<void> {
  await db.deleteFrom('campaigns').where('job_id', '=', jobId).where('status', '=', 'importing').execute();
}

export async function markCampaignReady(
  db: Database,
  id: string,
  counts: { imported: number; skipped: number },
): Promise<void> {
  await db
    .updateTable('campaigns')
    .set({ status: 'ready', imported_count: counts.imported, skipped_count: counts.skipped })
    .where('id', '=', id)
    .execute();
}

export async function listCampaigns(
  db: Database,
  ownerId: string,
  kind: RecordKind,
  offset: number,
  limit: number,
): Promise<{ rows: CampaignRow[]; total: number }> {
  const base = db
    .selectFrom('campaigns')
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .where('status', '=', 'ready');
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export function findCampaign(db: Database, ownerId: string, id: string): Promise<CampaignRow | undefined> {
  return db
    .selectFrom('campaigns')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('status', '=', 'ready')
    .executeTakeFirst();
}

export async function deleteCampaign(db: Database, ownerId: string, id: string): Promise<void> {
  await db.deleteFrom('campaigns').where('id', '=', id).where('owner_id', '=', ownerId).execute();
}
