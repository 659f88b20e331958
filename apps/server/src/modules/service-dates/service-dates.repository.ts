import { sql, type RawBuilder } from 'kysely';
import type { ServedWhen } from '@notice-desk/contract/service-dates';
import { isPostgres, type Database } from '../../db/database.ts';
import type {
  Channel,
  DeliveryStatus,
  LegalBasesTable,
  NoticePageEventsTable,
  NoticeResponsesTable,
  RecordKind,
} from '../../db/schema.ts';
import { DISPATCH_STATUSES, RETURN_STATUS } from './service-dates.ts';

export type LegalBasisRow = LegalBasesTable;

/** What the service statuses of the campaign filter keep (ServiceDatesService.filterFor makes it). */
export interface ServiceFilter {
  /** Notice page events, any of which keeps a record. */
  pageEvents: string[];
  /** Windows of served-on instants (ISO, from included, before excluded), any of which keeps a record. */
  servedWithin: { from?: string; before: string }[];
  /** A service status was asked for: a filter whose windows came to none (no legal basis) keeps no record. */
  asked: boolean;
  deemedServiceDays: number;
  postDeemedServiceDays: number;
  now: string;
}

/** What a served-on date is read with: the two deemed-service settings and the instant it is read at. */
export type ServedRules = Pick<ServiceFilter, 'deemedServiceDays' | 'postDeemedServiceDays' | 'now'>;

/** The defaults per record kind. */
export function kindLegalBases(db: Database): Promise<LegalBasisRow[]> {
  return db.selectFrom('legal_bases').selectAll().where('scope', '=', 'kind').execute();
}

/** A campaign's own basis, else its kind's default: the first row is the one that holds. */
export async function legalBasisFor(
  db: Database,
  kind: RecordKind,
  campaignId: string,
): Promise<LegalBasisRow | undefined> {
  const rows = await db
    .selectFrom('legal_bases')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('scope', '=', 'campaign'), eb('scope_id', '=', campaignId)]),
        eb.and([eb('scope', '=', 'kind'), eb('scope_id', '=', kind)]),
      ]),
    )
    .execute();
  return rows.find((row) => row.scope === 'campaign') ?? rows[0];
}

export function findLegalBasis(
  db: Database,
  scope: LegalBasisRow['scope'],
  scopeId: string,
): Promise<LegalBasisRow | undefined> {
  return db
    .selectFrom('legal_bases')
    .selectAll()
    .where('scope', '=', scope)
    .where('scope_id', '=', scopeId)
    .executeTakeFirst();
}

export async function saveLegalBasis(db: Database, row: LegalBasisRow): Promise<void> {
  await db
    .insertInto('legal_bases')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['scope', 'scope_id']).doUpdateSet({
        basis: row.basis,
        label: row.label,
        period_days: row.period_days,
        served_when: row.served_when satisfies ServedWhen,
        updated_at: row.updated_at,
        updated_by: row.updated_by,
      }),
    )
    .execute();
}

export async function deleteLegalBasis(
  db: Database,
  scope: LegalBasisRow['scope'],
  scopeId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('legal_bases')
    .where('scope', '=', scope)
    .where('scope_id', '=', scopeId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * The records' delivery events with their delivery's record and channel: what service is read from
 * (dispatches and receipts, and the returns that keep a letter from being deemed served).
 */
export async function deliveryFactsForRecords(
  db: Database,
  recordIds: readonly string[],
): Promise<
  {
    record_id: string;
    delivery_id: string;
    channel: Channel;
    status: DeliveryStatus;
    at: string;
    refused: string | null;
  }[]
> {
  const rows = [];
  for (let i = 0; i < recordIds.length; i += 500)
    rows.push(
      ...(await db
        .selectFrom('deliveries as d')
        .innerJoin('delivery_events as e', 'e.delivery_id', 'd.id')
        .select(['d.record_id', 'e.delivery_id', 'd.channel', 'e.status', 'e.at', 'e.refused'])
        .where('d.record_id', 'in', recordIds.slice(i, i + 500))
        .where('e.status', 'in', [...DISPATCH_STATUSES, RETURN_STATUS])
        .execute()),
    );
  return rows;
}

/** The records' notice page events, oldest first. */
export async function pageEventsForRecords(
  db: Database,
  recordIds: readonly string[],
): Promise<NoticePageEventsTable[]> {
  const rows: NoticePageEventsTable[] = [];
  for (let i = 0; i < recordIds.length; i += 500)
    rows.push(
      ...(await db
        .selectFrom('notice_page_events')
        .selectAll()
        .where('record_id', 'in', recordIds.slice(i, i + 500))
        .orderBy('at')
        .orderBy('id')
        .execute()),
    );
  return rows;
}

/** The records' answers from their notice pages, oldest first. */
export async function responsesForRecords(
  db: Database,
  recordIds: readonly string[],
): Promise<NoticeResponsesTable[]> {
  const rows: NoticeResponsesTable[] = [];
  for (let i = 0; i < recordIds.length; i += 500)
    rows.push(
      ...(await db
        .selectFrom('notice_responses')
        .selectAll()
        .where('record_id', 'in', recordIds.slice(i, i + 500))
        .orderBy('created_at')
        .orderBy('id')
        .execute()),
    );
  return rows;
}

/** The ids of the campaign's records with a notice page event of one of these kinds. */
export function recordsWithPageEvent(db: Database, campaignId: string, events: readonly string[]) {
  return db
    .selectFrom('notice_page_events')
    .select('record_id')
    .where('campaign_id', '=', campaignId)
    .where('event', 'in', events as NoticePageEventsTable['event'][]);
}

/** ISO text `days` whole days after the ISO text `at`, as toISOString writes it (null stays null). */
function isoDaysAfter(db: Database, at: RawBuilder<string | null>, days: number): RawBuilder<string | null> {
  const whole = sql.lit(Math.trunc(days));
  return isPostgres(db)
    ? sql`to_char((${at}::timestamptz + make_interval(days => ${whole})) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${at}, '+' || ${whole} || ' days')`;
}

/** The earlier of two ISO texts, either of which may be null. */
const earliest = (a: RawBuilder<string | null>, b: RawBuilder<string | null>) =>
  sql<
    string | null
  >`case when ${a} is null then ${b} when ${b} is null or ${a} <= ${b} then ${a} else ${b} end`;

/**
 * The campaign's records with the instant each was served (`served_on`, ISO), the rule of
 * service-dates.ts in SQL: the earliest receipt (delivered or read on any channel, out-of-order ones
 * too; the notice page's verified or acknowledged) on or before the deemed date, else the deemed date
 * (`deemedServiceDays` after the first electronic dispatch, or `postDeemedServiceDays` after the first
 * booking of a letter not returned, whichever is first) once it has come. Records never served are
 * left out; `deemed` is the deemed date, even before it has come. Read from `record_service_facts`,
 * one row per record that triggers keep as events are written (migrations 20261130_service_01 and
 * _02), not from the events themselves.
 */
export function servedRecords(
  db: Database,
  campaignId: string,
  { deemedServiceDays, postDeemedServiceDays, now }: ServedRules,
) {
  const none = sql<string | null>`cast(null as text)`;
  const receipt = earliest(sql`f.receipt_at`, sql`f.page_receipt_at`);
  const deemed = earliest(
    deemedServiceDays > 0 ? isoDaysAfter(db, sql`f.dispatch_at`, deemedServiceDays) : none,
    postDeemedServiceDays > 0 ? isoDaysAfter(db, sql`f.post_dispatch_at`, postDeemedServiceDays) : none,
  );
  const facts = db
    .selectFrom('record_service_facts as f')
    .where('f.campaign_id', '=', campaignId)
    .select(['f.record_id', receipt.as('receipt'), deemed.as('deemed')]);
  return db
    .selectFrom(facts.as('t'))
    .select([
      't.record_id',
      't.deemed',
      sql<
        string | null
      >`case when t.receipt is not null and (t.deemed is null or t.receipt <= t.deemed) then t.receipt when t.deemed <= ${now} then t.deemed end`.as(
        'served_on',
      ),
    ]);
}

/** The ids of the campaign's records served at or after `from` and before `before` (ISO; either open). */
export function recordsServedWithin(
  db: Database,
  campaignId: string,
  { from, before, ...rules }: ServedRules & { from?: string; before?: string },
) {
  let query = db
    .selectFrom(servedRecords(db, campaignId, rules).as('served'))
    .select('served.record_id')
    .where('served.served_on', 'is not', null);
  if (from !== undefined) query = query.where('served.served_on', '>=', from);
  if (before !== undefined) query = query.where('served.served_on', '<', before);
  return query;
}
