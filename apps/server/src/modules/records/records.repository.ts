import { sql } from 'kysely';
import { insertTextRows } from '../../db/bulk-insert.ts';
import type { Database } from '../../db/database.ts';
import type { RecordKind, RecordState } from '../../db/schema.ts';
import type { Lookup } from '../search/search-terms.ts';
import { recordsFoundBy } from '../search/search.repository.ts';
import type { RecordKindInfo } from './record-kinds.ts';

/** A stored record of either kind: the common columns plus its field columns. */
export interface RecordRow {
  id: string;
  owner_id: string;
  campaign_id: string;
  created_at: string;
  updated_at: string;
  [field: string]: string;
}

/**
 * The state of rows no import holds hidden, written into the SQL rather than bound: the owner index
 * holds live rows only, and the database uses it when the query's text says the rows are live.
 */
const LIVE = sql.lit<RecordState>('live');
/** The state an import writes its rows in (import.job.ts): hidden until revealCampaignRecords. */
export const IMPORTING: RecordState = 'importing';

/**
 * The owner's live records, before any selection: every owner-scoped read starts here, so none can
 * forget the owner, none shows a row an import still holds hidden, and none shows a record a delete
 * archived (served evidence, kept out of every list, count and edit). Queries name the kind's table
 * (`info.table`), so Kysely checks every column they name against the record tables of db/schema.ts.
 */
export const ownedRecords = (db: Database, info: RecordKindInfo, ownerId: string) =>
  db
    .selectFrom(info.table)
    .where('owner_id', '=', ownerId)
    .where('record_state', '=', LIVE)
    .where('archived_at', 'is', null);

/** A page of the owner's records, newest first. */
export function listRecords(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  offset: number,
  limit: number,
): Promise<RecordRow[]> {
  return ownedRecords(db, info, ownerId)
    .selectAll()
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute() as Promise<RecordRow[]>;
}

/**
 * The ids at positions 0, stride, 2·stride, … of the owner's newest-first list: one pass over the
 * index, so later deep pages can start from the nearest boundary instead of skipping from the top.
 */
export async function listBoundaries(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  stride: number,
): Promise<string[]> {
  const result = await sql<{ id: string }>`
    select id from (
      select id, row_number() over (order by id desc) as position
      from ${sql.table(info.table)}
      where owner_id = ${ownerId} and record_state = ${LIVE} and archived_at is null
    ) ranked
    where (position - 1) % ${stride} = 0
    order by id desc`.execute(db);
  return result.rows.map((row) => row.id);
}

/** A page that starts `offset` rows after the record `fromId` (inclusive), newest first. */
export function listRecordsFrom(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  fromId: string,
  offset: number,
  limit: number,
): Promise<RecordRow[]> {
  return ownedRecords(db, info, ownerId)
    .selectAll()
    .where('id', '<=', fromId)
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute() as Promise<RecordRow[]>;
}

/** The owner's records (of one campaign, when given) that a Search... box found through the search index. */
const foundRecords = (
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  lookups: readonly Lookup[],
  campaignId?: string,
) => {
  const found = ownedRecords(db, info, ownerId).where(
    'id',
    'in',
    recordsFoundBy(db, ownerId, info.kind, lookups, campaignId),
  );
  return campaignId === undefined ? found : found.where('campaign_id', '=', campaignId);
};

/**
 * A page of the owner's records the list's Search... box found through the search index: newest first,
 * or in campaign order within one campaign.
 */
export function listFoundRecords(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  lookups: readonly Lookup[],
  offset: number,
  limit: number,
  campaignId?: string,
): Promise<RecordRow[]> {
  return foundRecords(db, info, ownerId, lookups, campaignId)
    .selectAll()
    .orderBy('id', campaignId === undefined ? 'desc' : 'asc')
    .limit(limit)
    .offset(offset)
    .execute() as Promise<RecordRow[]>;
}

/** How many of the owner's records (of one campaign, when given) the Search... box found. */
export async function countFoundRecords(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  lookups: readonly Lookup[],
  campaignId?: string,
): Promise<number> {
  const row = await foundRecords(db, info, ownerId, lookups, campaignId)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** The owner's records among the ids (others' ids and unknown ids are left out). */
export async function findRecordsByIds(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  ids: string[],
): Promise<RecordRow[]> {
  const rows: RecordRow[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    rows.push(
      ...((await ownedRecords(db, info, ownerId)
        .selectAll()
        .where('id', 'in', ids.slice(i, i + 500))
        .execute()) as RecordRow[]),
    );
  }
  return rows;
}

/**
 * A record by id alone, for callers that proved their right to it another way (a signed link). An
 * archived record is found too: its PDFs stay, as evidence of what was served.
 */
export function findRecordById(
  db: Database,
  info: RecordKindInfo,
  id: string,
): Promise<RecordRow | undefined> {
  return db
    .selectFrom(info.table)
    .selectAll()
    .where('id', '=', id)
    .where('record_state', '=', LIVE)
    .executeTakeFirst() as Promise<RecordRow | undefined>;
}

export function findRecord(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  id: string,
): Promise<RecordRow | undefined> {
  return ownedRecords(db, info, ownerId).selectAll().where('id', '=', id).executeTakeFirst() as Promise<
    RecordRow | undefined
  >;
}

/** Inserts rows (the columns of the first row, in every row) in as few statements as the database takes. */
export async function insertRecords(db: Database, info: RecordKindInfo, rows: RecordRow[]): Promise<void> {
  if (rows.length === 0) return;
  await insertTextRows(db, info.table, Object.keys(rows[0]!), rows);
}

/** One of the owner's records, live or archived: evidence of what was served outlives a delete. */
export function findRecordIncludingArchived(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  id: string,
): Promise<RecordRow | undefined> {
  return db
    .selectFrom(info.table)
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('record_state', '=', LIVE)
    .executeTakeFirst() as Promise<RecordRow | undefined>;
}

/** Replaces a live record's fields; 0 when the owner has no such record (an archived one is evidence, never edited). */
export async function updateRecord(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  id: string,
  fields: Record<string, string>,
  now: string,
): Promise<number> {
  const result = await db
    .updateTable(info.table)
    .set({ ...fields, updated_at: now })
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('record_state', '=', LIVE)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The owner's record count of a kind and its write version (0, 0 before the first record). */
export async function getRecordCount(
  db: Database,
  ownerId: string,
  kind: RecordKind,
): Promise<{ total: number; version: number }> {
  const row = await db
    .selectFrom('record_counts')
    .select(['total', 'version'])
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return { total: Number(row?.total ?? 0), version: Number(row?.version ?? 0) };
}

/** Adds delta to the owner's count and bumps its version; call it in the transaction that wrote the records. */
export async function adjustRecordCount(
  db: Database,
  ownerId: string,
  kind: RecordKind,
  delta: number,
): Promise<void> {
  await db
    .insertInto('record_counts')
    .values({ owner_id: ownerId, kind, total: delta, version: 1 })
    .onConflict((oc) =>
      oc.columns(['owner_id', 'kind']).doUpdateSet({
        total: sql`record_counts.total + excluded.total`,
        version: sql`record_counts.version + 1`,
      }),
    )
    .execute();
}

/** Hands an import's hidden rows to their owner (they become live): the moment they appear in every list. */
export async function revealCampaignRecords(
  db: Database,
  info: RecordKindInfo,
  campaignId: string,
  ownerId: string,
): Promise<number> {
  const result = await db
    .updateTable(info.table)
    .set({ record_state: LIVE })
    .where('campaign_id', '=', campaignId)
    .where('owner_id', '=', ownerId)
    .where('record_state', '=', IMPORTING)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function listCampaignRecords(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  campaignId: string,
  offset: number,
  limit: number,
): Promise<RecordRow[]> {
  return ownedRecords(db, info, ownerId)
    .selectAll()
    .where('campaign_id', '=', campaignId)
    .orderBy('id', 'asc')
    .limit(limit)
    .offset(offset)
    .execute() as Promise<RecordRow[]>;
}

/**
 * The campaign's records after one, in campaign order, archived ones too: a campaign's evidence holds
 * every record it served.
 */
export function listCampaignRecordsIncludingArchivedAfter(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  campaignId: string,
  afterId: string,
  limit: number,
): Promise<RecordRow[]> {
  return db
    .selectFrom(info.table)
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('record_state', '=', LIVE)
    .where('campaign_id', '=', campaignId)
    .where('id', '>', afterId)
    .orderBy('id', 'asc')
    .limit(limit)
    .execute() as Promise<RecordRow[]>;
}

/** The campaign's records after one, in campaign order. */
export function listCampaignRecordsAfter(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  campaignId: string,
  afterId: string,
  limit: number,
): Promise<RecordRow[]> {
  return ownedRecords(db, info, ownerId)
    .selectAll()
    .where('campaign_id', '=', campaignId)
    .where('id', '>', afterId)
    .orderBy('id', 'asc')
    .limit(limit)
    .execute() as Promise<RecordRow[]>;
}

/** How many live records of the owner the campaign holds. */
export async function countCampaignRecords(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  campaignId: string,
): Promise<number> {
  const row = await ownedRecords(db, info, ownerId)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('campaign_id', '=', campaignId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
