import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';

export const MANUAL_CAMPAIGN_NAME = 'Manual entries';

/** The owner's 'Manual entries' campaign of a kind, created on first use (safely, if two requests race). */
export async function ensureManualCampaign(db: Database, ownerId: string, kind: RecordKind, now: string): Promise<string> {
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
