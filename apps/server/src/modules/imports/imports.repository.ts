import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';

/** Keeps the mapping an import used with the campaign it made. */
export async function setCampaignMapping(db: Database, campaignId: string, mapping: string): Promise<void> {
  await db.updateTable('campaigns').set({ column_mapping: mapping }).where('id', '=', campaignId).execute();
}

/** The mapping the user last confirmed for this header row of the kind, as stored (JSON). */
export async function findRememberedMapping(
  db: Database,
  ownerId: string,
  kind: RecordKind,
  headerKey: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('import_mappings')
    .select('mapping')
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .where('header_key', '=', headerKey)
    .executeTakeFirst();
  return row?.mapping;
}

export async function rememberMapping(
  db: Database,
  row: { owner_id: string; kind: RecordKind; header_key: string; mapping: string; updated_at: string },
): Promise<void> {
  await db
    .insertInto('import_mappings')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['owner_id', 'kind', 'header_key'])
        .doUpdateSet({ mapping: row.mapping, updated_at: row.updated_at }),
    )
    .execute();
}
