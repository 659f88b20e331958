import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { CampaignsTable, Channel, DB, DeliveryStatus, RecordKind } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import type { RecordKindInfo } from '../records/record-kinds.ts';
import { countRecords, ownedRecords, pageOfRecords, type RecordRow } from '../records/records.repository.ts';
import type { Lookup } from '../search/search-terms.ts';
import { recordsFoundBy } from '../search/search.repository.ts';
import {
  recordsServedWithin,
  recordsWithPageEvent,
  servedRecords,
  type ServedRules,
  type ServiceFilter,
} from '../service-dates/service-dates.repository.ts';

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
  // A delete may have archived it (it held served records): a new record brings it back to the lists.
  await db
    .updateTable('campaigns')
    .set({ archived_at: null })
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .where('source', '=', 'manual')
    .where('archived_at', 'is not', null)
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
  nameContains?: string,
): Promise<{ rows: CampaignRow[]; total: number }> {
  let base = db
    .selectFrom('campaigns')
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .where('status', '=', 'ready')
    .where('archived_at', 'is', null);
  // The list's Search... box: the text anywhere in the name, ignoring case, with % and _ meaning themselves.
  if (nameContains)
    base = base.where(
      sql<boolean>`lower(name) like ${`%${escapeLike(nameContains.toLowerCase())}%`} escape '!'`,
    );
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Text a LIKE pattern matches as written: its wildcards and the escape character (!) escaped. */
const escapeLike = (text: string) => text.replace(/[!%_]/g, (char) => `!${char}`);

/** The owner's campaign with this id, once its import is done (live or archived), as a query. */
const ownedCampaign = (db: Database, ownerId: string, id: string) =>
  db
    .selectFrom('campaigns')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('status', '=', 'ready');

/** One of the owner's live campaigns (an archived one is gone from every screen but the ADMIN's archive). */
export function findCampaign(db: Database, ownerId: string, id: string): Promise<CampaignRow | undefined> {
  return ownedCampaign(db, ownerId, id).where('archived_at', 'is', null).executeTakeFirst();
}

/** One of the owner's campaigns, live or archived: for its evidence, which outlives a delete. */
export function findCampaignIncludingArchived(
  db: Database,
  ownerId: string,
  id: string,
): Promise<CampaignRow | undefined> {
  return ownedCampaign(db, ownerId, id).executeTakeFirst();
}

/**
 * Records of the campaign sent on at least one channel, leaving out archived ones (which left the
 * campaign's table when they were deleted).
 */
export async function countSentLiveRecords(
  db: Database,
  table: 'notices' | 'credit_cards',
  campaignId: string,
): Promise<number> {
  const row = await db
    .selectFrom('deliveries as d')
    .select((eb) => eb.fn.count<number>('d.record_id').distinct().as('n'))
    .where('d.campaign_id', '=', campaignId)
    .where('d.status', 'in', ['outbox', 'sent', 'delivered', 'read'])
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom(table).select('id').whereRef('id', '=', 'd.record_id').where('archived_at', 'is', null),
      ),
    )
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** How many records' latest attempt on each channel is in each status, over the whole campaign. */
/** The id of the latest attempt on the record and channel of the delivery `d` (the record's status there). */
const latestAttemptOf = (eb: ExpressionBuilder<DB & { d: DB['deliveries'] }, 'd'>) =>
  eb
    .selectFrom('deliveries as l')
    .select((inner) => inner.fn.max('l.id').as('latest'))
    .whereRef('l.record_id', '=', 'd.record_id')
    .whereRef('l.channel', '=', 'd.channel');

export function countLatestStatuses(
  db: Database,
  campaignId: string,
): Promise<{ channel: Channel; status: DeliveryStatus; n: number | string }[]> {
  return db
    .selectFrom('deliveries as d')
    .select(['d.channel', 'd.status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('d.campaign_id', '=', campaignId)
    .where('d.id', '=', latestAttemptOf)
    .groupBy(['d.channel', 'd.status'])
    .execute();
}

/**
 * What the campaign detail keeps: records whose latest attempt (on `channel`, else either) is in
 * `statuses`; every record when `statuses` is empty.
 */
export interface StatusFilter {
  statuses: DeliveryStatus[];
  channel?: Channel;
  /** The service statuses asked for (opened, acknowledged, …, respond-by windows); a record in any is kept too. */
  service?: ServiceFilter;
}

/** Whether the filter asks for anything: without, it keeps every record. */
const filters = ({ statuses, service }: StatusFilter) =>
  statuses.length > 0 || (service !== undefined && (service.pageEvents.length > 0 || service.asked));

/** The ids of the campaign's records whose latest attempt on a channel is in one of the statuses. */
function recordsWithLatestStatus(db: Database, campaignId: string, { statuses, channel }: StatusFilter) {
  let query = db
    .selectFrom('deliveries as d')
    .select('d.record_id')
    .where('d.campaign_id', '=', campaignId)
    .where('d.status', 'in', statuses)
    .where('d.id', '=', latestAttemptOf);
  if (channel) query = query.where('d.channel', '=', channel);
  return query;
}

/** One campaign's live records of its owner: what the campaign page's queries read. */
export interface CampaignRecords {
  info: RecordKindInfo;
  ownerId: string;
  campaignId: string;
}

/** The campaign's live records, as a query. */
const liveRecordsOf = (db: Database, { info, ownerId, campaignId }: CampaignRecords) =>
  ownedRecords(db, info, ownerId).where('campaign_id', '=', campaignId);

/**
 * The owner's live records of the campaign that the status filter keeps, and that the Search... box
 * found when it has lookups: the campaign detail's rows when its status filter is set.
 */
function filteredRecords(
  db: Database,
  campaign: CampaignRecords,
  filter: StatusFilter,
  lookups?: readonly Lookup[],
) {
  const { info, ownerId, campaignId } = campaign;
  let query = liveRecordsOf(db, campaign);
  // No status keeps every record (of the search); a record in any status asked for is kept.
  if (filters(filter)) {
    const { service } = filter;
    query = query.where((eb) =>
      eb.or([
        ...(filter.statuses.length > 0
          ? [eb('id', 'in', recordsWithLatestStatus(db, campaignId, filter))]
          : []),
        ...(service && service.pageEvents.length > 0
          ? [eb('id', 'in', recordsWithPageEvent(db, campaignId, service.pageEvents))]
          : []),
        ...(service?.servedWithin ?? []).map((window) =>
          eb('id', 'in', recordsServedWithin(db, campaignId, { ...service!, ...window })),
        ),
      ]),
    );
  }
  if (lookups) query = query.where('id', 'in', recordsFoundBy(db, ownerId, info.kind, lookups, campaignId));
  return query;
}

/** How many of the campaign's live records the filter keeps. */
export function countFilteredRecords(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  campaignId: string,
  filter: StatusFilter,
): Promise<number> {
  return countRecords(filteredRecords(db, { info, ownerId, campaignId }, filter));
}

/**
 * How many of the campaign's live records were served within each window (ISO, from included, before
 * excluded): the respond-by counts, all from one pass over the campaign's service facts; and the
 * earliest deemed date still to come (ISO, or null), when those counts may move with no write.
 */
export async function countServedWithin(
  db: Database,
  campaign: CampaignRecords,
  rules: ServedRules,
  windows: readonly { from?: string; before: string }[],
): Promise<{ counts: number[]; nextDeemed: string | null }> {
  if (windows.length === 0) return { counts: [], nextDeemed: null };
  const live = liveRecordsOf(db, campaign).select('id');
  const row = await db
    .selectFrom(servedRecords(db, campaign.campaignId, rules).as('s'))
    .where('s.record_id', 'in', live)
    .select(
      windows.map((window, i) =>
        sql<number>`sum(case when s.served_on < ${window.before}${window.from === undefined ? sql`` : sql` and s.served_on >= ${window.from}`} then 1 else 0 end)`.as(
          `w${i}`,
        ),
      ),
    )
    .select(sql<string | null>`min(case when s.served_on is null then s.deemed end)`.as('next_deemed'))
    .executeTakeFirst();
  return {
    counts: windows.map((_, i) => Number((row as Record<string, unknown> | undefined)?.[`w${i}`] ?? 0)),
    nextDeemed: row?.next_deemed ?? null,
  };
}

/**
 * The campaign's count version: triggers move it with every write to a table the campaign page counts
 * from (migration 20261201_campaign_counts_01), so an equal version means equal counts.
 */
export async function countsVersion(db: Database, campaignId: string): Promise<number> {
  const row = await db
    .selectFrom('campaign_count_versions')
    .select((eb) => eb.fn.sum<number | string | null>('version').as('version'))
    .where('campaign_id', '=', campaignId)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** A page of the filtered records, in campaign order, and how many there are in all. */
export async function listFilteredRecords(
  db: Database,
  campaign: CampaignRecords,
  filter: StatusFilter,
  lookups: readonly Lookup[] | undefined,
  offset: number,
  limit: number,
): Promise<{ rows: RecordRow[]; total: number }> {
  const filtered = filteredRecords(db, campaign, filter, lookups);
  const [rows, total] = await Promise.all([
    pageOfRecords(filtered, 'asc', offset, limit),
    countRecords(filtered),
  ]);
  return { rows, total };
}

/** Every id the filter keeps, in campaign order. */
export async function filteredRecordIds(
  db: Database,
  campaign: CampaignRecords,
  filter: StatusFilter,
  lookups?: readonly Lookup[],
): Promise<string[]> {
  const rows = await filteredRecords(db, campaign, filter, lookups)
    .select('id')
    .orderBy('id', 'asc')
    .execute();
  return rows.map((row) => row.id);
}

/** The campaign's live records in campaign order: `offset` rows on from the record `fromId` (included). */
export function listCampaignRecordsFrom(
  db: Database,
  campaign: CampaignRecords,
  fromId: string,
  offset: number,
  limit: number,
): Promise<RecordRow[]> {
  return pageOfRecords(liveRecordsOf(db, campaign).where('id', '>=', fromId), 'asc', offset, limit);
}

/** The ids at positions 0, stride, 2·stride, … of the campaign's live records, in campaign order. */
export async function campaignRecordBoundaries(
  db: Database,
  campaign: CampaignRecords,
  stride: number,
): Promise<string[]> {
  const ranked = liveRecordsOf(db, campaign).select([
    'id',
    sql<number>`row_number() over (order by id)`.as('position'),
  ]);
  const rows = await db
    .selectFrom(ranked.as('ranked'))
    .select('ranked.id')
    .where(sql<boolean>`(ranked.position - 1) % ${stride} = 0`)
    .orderBy('ranked.id')
    .execute();
  return rows.map((row) => row.id);
}

/** The names of the owner's campaigns with these ids (a list page's records are in a few). */
export async function campaignNamesOf(
  db: Database,
  ownerId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('campaigns')
    .select(['id', 'name'])
    .where('owner_id', '=', ownerId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** What the campaign's live records say about where their sends go: e-mail, mobile, Mode Of Dispatch (notices). */
export async function listCampaignAddresses(
  db: Database,
  campaign: CampaignRecords,
): Promise<{ emailId: string; custMobileNo: string; modeOfDispatch?: string }[]> {
  const rows = await liveRecordsOf(db, campaign)
    .select(['emailId', 'custMobileNo'])
    .$if(campaign.info.kind === 'notice', (query) =>
      query.select(sql<string>`${sql.ref('modeOfDispatch')}`.as('modeOfDispatch')),
    )
    .execute();
  return rows as { emailId: string; custMobileNo: string; modeOfDispatch?: string }[];
}
