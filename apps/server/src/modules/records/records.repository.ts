import { sql } from 'kysely';
import { insertTextRows } from '../../db/bulk-insert.ts';
import type { Database } from '../../db/database.ts';
import { served } from '../archive/archive.repository.ts';
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
 * holds live rows that are not archived only (what a list shows), and the database uses it when the
 * query's text says so (`ownedRecords`).
 */
const LIVE = sql.lit<RecordState>('live');
/** The state an import writes its rows in (import.job.ts): hidden until revealCampaignRecords. */
export const IMPORTING: RecordState = 'importing';

/**
 * The owner's records, archived ones too, before any selection: every owner-scoped read starts here,
 * so none can forget the owner or show a row an import still holds hidden. Queries name the kind's
 * table (`info.table`), so Kysely checks every column they name against the record tables of db/schema.ts.
 */
const ownersRecords = (db: Database, info: RecordKindInfo, ownerId: string) =>
  liveRows(db, info).where('owner_id', '=', ownerId);

/** Every owner's rows of the kind that no import holds hidden. */
const liveRows = (db: Database, info: RecordKindInfo) =>
  db.selectFrom(info.table).where('record_state', '=', LIVE);

/** A query of records before any selection, as liveRows starts one. */
type RecordQuery = ReturnType<typeof liveRows>;

/**
 * The owner's live records: none a delete archived (served evidence, kept out of every list, count and
 * edit). Every read but those of evidence starts here.
 */
export const ownedRecords = (db: Database, info: RecordKindInfo, ownerId: string): RecordQuery =>
  ownersRecords(db, info, ownerId).where('archived_at', 'is', null);

/** A page of the query's records in id order: newest first, or campaign order. */
export function pageOfRecords(
  query: RecordQuery,
  order: 'asc' | 'desc',
  offset: number,
  limit: number,
): Promise<RecordRow[]> {
  return query.selectAll().orderBy('id', order).limit(limit).offset(offset).execute() as Promise<RecordRow[]>;
}

/**
 * A page of a list (the records screens, their Search... box): only the columns a listed record shows,
 * not the owner, state and archive columns every row of it shares. Each column more is work for the
 * database and the driver on every row: PostgreSQL lists paged about a tenth slower once the record
 * tables had three more columns (docs/benchmarks.md).
 */
function listedPage(
  info: RecordKindInfo,
  query: RecordQuery,
  order: 'asc' | 'desc',
  offset: number,
  limit: number,
): Promise<RecordRow[]> {
  return query
    .select(listedColumns(info))
    .orderBy('id', order)
    .limit(limit)
    .offset(offset)
    .execute() as Promise<RecordRow[]>;
}

const listed = new Map<RecordKindInfo, string[]>();
/** What toRecordResponse shows of a record. */
function listedColumns(info: RecordKindInfo) {
  let columns = listed.get(info);
  if (!columns) {
    columns = ['id', 'campaign_id', 'created_at', 'updated_at', ...info.fields.map((field) => field.key)];
    listed.set(info, columns);
  }
  return columns as ['id'];
}

/** The query's record with the id, if it finds it. */
const recordWithId = (query: RecordQuery, id: string) =>
  query.selectAll().where('id', '=', id).executeTakeFirst() as Promise<RecordRow | undefined>;

/** The query's records of the campaign after one, in campaign order. */
const campaignPageAfter = (query: RecordQuery, campaignId: string, afterId: string, limit: number) =>
  pageOfRecords(query.where('campaign_id', '=', campaignId).where('id', '>', afterId), 'asc', 0, limit);

/** How many records the query finds. */
export async function countRecords(query: RecordQuery): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return Number(row.total);
}

/** A page of the owner's records, newest first. */
export function listRecords(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  offset: number,
  limit: number,
): Promise<RecordRow[]> {
  return listedPage(info, ownedRecords(db, info, ownerId), 'desc', offset, limit);
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
  return listedPage(info, ownedRecords(db, info, ownerId).where('id', '<=', fromId), 'desc', offset, limit);
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
  const order = campaignId === undefined ? 'desc' : 'asc';
  return listedPage(info, foundRecords(db, info, ownerId, lookups, campaignId), order, offset, limit);
}

/** How many of the owner's records (of one campaign, when given) the Search... box found. */
export async function countFoundRecords(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  lookups: readonly Lookup[],
  campaignId?: string,
): Promise<number> {
  return countRecords(foundRecords(db, info, ownerId, lookups, campaignId));
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
    const chunk = ids.slice(i, i + 500);
    rows.push(
      ...(await pageOfRecords(ownedRecords(db, info, ownerId).where('id', 'in', chunk), 'asc', 0, 500)),
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
  return recordWithId(liveRows(db, info), id);
}

export function findRecord(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  id: string,
): Promise<RecordRow | undefined> {
  return recordWithId(ownedRecords(db, info, ownerId), id);
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
  return recordWithId(ownersRecords(db, info, ownerId), id);
}

/**
 * Replaces a live record's fields; 0 when the owner has no such record (an archived one is evidence,
 * never edited). `unservedOnly` (an update import) also leaves a served record as it is, checked in the
 * same statement, so a send that began since the caller looked keeps it unchanged.
 */
export async function updateRecord(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  id: string,
  fields: Record<string, string>,
  now: string,
  { unservedOnly = false }: { unservedOnly?: boolean } = {},
): Promise<number> {
  const result = await db
    .updateTable(info.table)
    .set({ ...fields, updated_at: now })
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('record_state', '=', LIVE)
    .where('archived_at', 'is', null)
    .$if(unservedOnly, (query) => query.where(sql<boolean>`not ${served(info.table)}`))
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
  return pageOfRecords(
    ownedRecords(db, info, ownerId).where('campaign_id', '=', campaignId),
    'asc',
    offset,
    limit,
  );
}

/**
 * The campaign's records after one, in campaign order; with `archived: 'included'` archived ones too
 * (a campaign's evidence holds every record it served).
 */
export function listCampaignRecordsAfter(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  campaignId: string,
  afterId: string,
  limit: number,
  archived: 'excluded' | 'included' = 'excluded',
): Promise<RecordRow[]> {
  const records =
    archived === 'included' ? ownersRecords(db, info, ownerId) : ownedRecords(db, info, ownerId);
  return campaignPageAfter(records, campaignId, afterId, limit);
}

/** How many live records of the owner the campaign holds. */
export async function countCampaignRecords(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  campaignId: string,
): Promise<number> {
  return countRecords(ownedRecords(db, info, ownerId).where('campaign_id', '=', campaignId));
}
