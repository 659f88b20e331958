import { sql, type RawBuilder } from 'kysely';
import { isPostgres, type Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import type { RecordKindInfo } from '../records/record-kinds.ts';

/** Which of the owner's live records a delete takes: one, a campaign's, or all of a kind (Delete All). */
export type DeleteScope =
  | { recordId: string; campaignId: string }
  | { campaignId: string; recordId?: undefined }
  | { all: true; campaignId?: undefined; recordId?: undefined };

/** What a delete takes: the owner's live records of a kind in the scope. */
export interface DeleteTarget {
  info: RecordKindInfo;
  ownerId: string;
  scope: DeleteScope;
}

type RecordTable = RecordKindInfo['table'];

/**
 * A record is served once any delivery of it reached a provider or was handed over (sent, outbox,
 * delivered, read, bounced, or failed after an attempt), or is claimed for sending right now (queued):
 * that is evidence, and a delete archives the record instead of erasing it. Only a delivery that
 * failed before any attempt (a refused address, a record deleted before its turn), or that the send left
 * out as not serviceable, leaves a record unserved.
 */
export const served = (table: RecordTable) => sql<boolean>`exists (
  select 1 from deliveries d
  where d.record_id = ${sql.ref(`${table}.id`)}
    and ((d.status <> 'failed' and d.status <> 'not_serviceable') or d.attempted_at is not null)
)`;

/**
 * The owner's live records in the scope, as a condition on the record table: not archived, and not
 * rows an import still holds hidden (a Delete All while an import runs leaves the import whole).
 */
function live(table: RecordTable, ownerId: string, scope: DeleteScope): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  const where = sql<boolean>`${column('owner_id')} = ${ownerId} and ${column('record_state')} = 'live'
    and ${column('archived_at')} is null`;
  if (scope.recordId !== undefined) return sql<boolean>`${where} and ${column('id')} = ${scope.recordId}`;
  if (scope.campaignId !== undefined)
    return sql<boolean>`${where} and ${column('campaign_id')} = ${scope.campaignId}`;
  return where;
}

/**
 * Holds off new claims to send (inserts into deliveries) until the delete commits, and waits for
 * claims under way to commit first, so "served or not" cannot change between the check and the erase.
 * SHARE ROW EXCLUSIVE also excludes itself: two deletes take turns rather than deadlock. SQLite
 * runs one write transaction at a time, which gives the same.
 */
export async function lockOutClaims(db: Database): Promise<void> {
  if (isPostgres(db)) await sql`lock table deliveries in share row exclusive mode`.execute(db);
}

/** How many live records in the scope a delete would archive (served) and erase (never sent). */
export async function countForDelete(
  db: Database,
  { info, ownerId, scope }: DeleteTarget,
): Promise<{ archive: number; erase: number }> {
  const table = info.table;
  const { rows } = await sql<{ total: number | string; served: number | string | null }>`
    select count(*) as total, sum(case when ${served(table)} then 1 else 0 end) as served
    from ${sql.table(table)} where ${live(table, ownerId, scope)}`.execute(db);
  const total = Number(rows[0]?.total ?? 0);
  const archive = Number(rows[0]?.served ?? 0);
  return { archive, erase: total - archive };
}

/**
 * Removes the search terms of the live records in the scope: archived or erased, none is found again.
 * Terms are found through their campaign (record_search's (campaign_id, record_id) index): archived
 * records have none left, and every live record of the scope goes, so a whole campaign's terms can go.
 * (Matching them against the records instead took PostgreSQL over 5 minutes for 100,000 notices.)
 */
export async function unindexForDelete(db: Database, { info, ownerId, scope }: DeleteTarget): Promise<void> {
  let query = db.deleteFrom('record_search').where('owner_id', '=', ownerId).where('kind', '=', info.kind);
  if (scope.recordId !== undefined)
    query = query.where('campaign_id', '=', scope.campaignId).where('record_id', '=', scope.recordId);
  else if (scope.campaignId !== undefined) query = query.where('campaign_id', '=', scope.campaignId);
  else
    // Ready campaigns only: an import still writing its hidden rows keeps their terms.
    query = query.where('campaign_id', 'in', (eb) =>
      eb
        .selectFrom('campaigns')
        .select('id')
        .where('owner_id', '=', ownerId)
        .where('kind', '=', info.kind)
        .where('status', '=', 'ready'),
    );
  await query.execute();
}

/** Archives the served live records in the scope; answers how many. */
export async function archiveServed(
  db: Database,
  { info, ownerId, scope }: DeleteTarget,
  now: string,
): Promise<number> {
  const table = info.table;
  const result = await sql`
    update ${sql.table(table)} set archived_at = ${now}
    where ${live(table, ownerId, scope)} and ${served(table)}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Erases the live records left in the scope (archiveServed went first, so none of them was served),
 * with the deliveries that failed before any attempt and their events; answers how many records.
 */
export async function eraseUnserved(db: Database, { info, ownerId, scope }: DeleteTarget): Promise<number> {
  const table = info.table;
  const records = sql`select id from ${sql.table(table)} where ${live(table, ownerId, scope)}`;
  await sql`
    delete from delivery_events
    where delivery_id in (select id from deliveries where record_id in (${records}))`.execute(db);
  await sql`delete from deliveries where record_id in (${records})`.execute(db);
  const result = await sql`delete from ${sql.table(table)} where ${live(table, ownerId, scope)}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** The owner's ready, live campaigns of a kind in the scope, as a condition on campaigns. */
function liveCampaigns(kind: RecordKind, ownerId: string, scope: DeleteScope): RawBuilder<boolean> {
  const where = sql<boolean>`campaigns.owner_id = ${ownerId} and campaigns.kind = ${kind}
    and campaigns.status = 'ready' and campaigns.archived_at is null`;
  return scope.campaignId !== undefined
    ? sql<boolean>`${where} and campaigns.id = ${scope.campaignId}`
    : where;
}

/**
 * Campaigns in the scope left with archived records and no live ones are archived (kept, out of the
 * lists); answers how many.
 */
export async function archiveEmptiedCampaigns(
  db: Database,
  { info, ownerId, scope }: DeleteTarget,
  now: string,
): Promise<number> {
  const records = sql.table(info.table);
  const result = await sql`
    update campaigns set archived_at = ${now}
    where ${liveCampaigns(info.kind, ownerId, scope)}
      and exists (select 1 from ${records} r where r.campaign_id = campaigns.id)
      and not exists (select 1 from ${records} r where r.campaign_id = campaigns.id and r.archived_at is null)`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}

/** Deletes the campaigns in the scope that hold no record at all any more; answers how many. */
export async function deleteEmptyCampaigns(
  db: Database,
  { info, ownerId, scope }: DeleteTarget,
): Promise<number> {
  const result = await sql`
    delete from campaigns
    where ${liveCampaigns(info.kind, ownerId, scope)}
      and not exists (select 1 from ${sql.table(info.table)} r where r.campaign_id = campaigns.id)`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}

/** An archived record as the ADMIN's archive lists it, with its owner and campaign. */
export interface ArchivedRecordRow {
  id: string;
  owner_id: string;
  owner_username: string;
  campaign_id: string;
  campaign_name: string | null;
  cust_name: string;
  reference: string;
  created_at: string;
  archived_at: string;
}

/** A place in an archive list, newest archived first: an archived row's time and id. */
export interface ArchiveKey {
  archived_at: string;
  id: string;
}

/** Rows at or after `from` in (archived_at desc, id desc) order; none when there is no `from`. */
const atOrAfter = (alias: string, from: ArchiveKey | undefined) =>
  from
    ? sql`and (${sql.ref(`${alias}.archived_at`)} < ${from.archived_at}
        or (${sql.ref(`${alias}.archived_at`)} = ${from.archived_at} and ${sql.ref(`${alias}.id`)} <= ${from.id}))`
    : sql``;

/** The keys at positions 0, stride, 2·stride, … of an archive list, newest archived first. */
async function archiveBoundaries(db: Database, table: 'campaigns' | RecordKindInfo['table'], stride: number) {
  const { rows } = await sql<ArchiveKey>`
    select archived_at, id from (
      select archived_at, id, row_number() over (order by archived_at desc, id desc) as position
      from ${sql.table(table)} where archived_at is not null
    ) ranked
    where (position - 1) % ${stride} = 0
    order by archived_at desc, id desc`.execute(db);
  return rows;
}

/**
 * How many rows an archive list holds, and a version of it: rows join it as they are archived (the
 * newest archived time) and leave it only when purged (the count).
 */
async function archiveState(db: Database, table: 'campaigns' | RecordKindInfo['table']) {
  const { rows } = await sql<{ total: number | string; newest: string | null }>`
    select count(*) as total, max(archived_at) as newest from ${sql.table(table)}
    where archived_at is not null`.execute(db);
  const total = Number(rows[0]?.total ?? 0);
  return { total, version: `${total}:${rows[0]?.newest ?? ''}` };
}

export const archivedRecordsState = (db: Database, info: RecordKindInfo) => archiveState(db, info.table);
export const archivedRecordBoundaries = (db: Database, info: RecordKindInfo, stride: number) =>
  archiveBoundaries(db, info.table, stride);
export const archivedCampaignsState = (db: Database) => archiveState(db, 'campaigns');
export const archivedCampaignBoundaries = (db: Database, stride: number) =>
  archiveBoundaries(db, 'campaigns', stride);

/**
 * Every owner's archived records of a kind, newest archived first: `offset` rows on from `from` (that
 * row included) when given, else from the top.
 */
export async function listArchivedRecords(
  db: Database,
  info: RecordKindInfo,
  offset: number,
  limit: number,
  from?: ArchiveKey,
): Promise<ArchivedRecordRow[]> {
  const table = sql.table(info.table);
  const reference = sql.ref(`r.${info.kind === 'notice' ? 'loanNo' : 'maskNo'}`);
  const page = await sql<ArchivedRecordRow>`
      select r.id, r.owner_id, u.username as owner_username, r.campaign_id, c.name as campaign_name,
        ${sql.ref('r.custName')} as cust_name, ${reference} as reference, r.created_at, r.archived_at
      from ${table} r
      join users u on u.id = r.owner_id
      left join campaigns c on c.id = r.campaign_id
      where r.archived_at is not null ${atOrAfter('r', from)}
      order by r.archived_at desc, r.id desc
      limit ${limit} offset ${offset}`.execute(db);
  return page.rows;
}

/** One archived record of any owner (for the ADMIN's evidence download). */
export async function findArchivedRecordOwner(
  db: Database,
  info: RecordKindInfo,
  id: string,
): Promise<string | undefined> {
  const { rows } = await sql<{ owner_id: string }>`
    select owner_id from ${sql.table(info.table)} where id = ${id} and archived_at is not null`.execute(db);
  return rows[0]?.owner_id;
}

export interface ArchivedCampaignRow {
  id: string;
  owner_id: string;
  owner_username: string;
  kind: RecordKind;
  name: string;
  created_at: string;
  archived_at: string;
  records: number | string;
}

/**
 * Every owner's archived campaigns, newest archived first, each with how many records it keeps:
 * `offset` rows on from `from` (that row included) when given, else from the top.
 */
export async function listArchivedCampaigns(
  db: Database,
  offset: number,
  limit: number,
  from?: ArchiveKey,
): Promise<ArchivedCampaignRow[]> {
  const page = await sql<ArchivedCampaignRow>`
      select c.id, c.owner_id, u.username as owner_username, c.kind, c.name, c.created_at, c.archived_at,
        (select count(*) from notices n where n.campaign_id = c.id)
          + (select count(*) from credit_cards k where k.campaign_id = c.id) as records
      from campaigns c
      join users u on u.id = c.owner_id
      where c.archived_at is not null ${atOrAfter('c', from)}
      order by c.archived_at desc, c.id desc
      limit ${limit} offset ${offset}`.execute(db);
  return page.rows;
}

/** The owner of an archived campaign (for the ADMIN's evidence download). */
export async function findArchivedCampaignOwner(db: Database, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('campaigns')
    .select('owner_id')
    .where('id', '=', id)
    .where('archived_at', 'is not', null)
    .executeTakeFirst();
  return row?.owner_id;
}
