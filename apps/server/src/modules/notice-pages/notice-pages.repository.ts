import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type {
  DB,
  NoticeLinksTable,
  NoticePageEventsTable,
  NoticeResponsesTable,
  RecordKind,
} from '../../db/schema.ts';
import type { DeliveryRow } from '../sending/deliveries.repository.ts';

export type NoticeLinkRow = Selectable<NoticeLinksTable>;
export type NoticePageEventRow = NoticePageEventsTable;
export type NoticeResponseRow = NoticeResponsesTable;

/**
 * Writes the record's link unless it has one; either way answers the one it has. The unique index on
 * (record_kind, record_id) makes two sends at once agree: the second insert does nothing and reads the first.
 */
export async function insertOrReadLink(db: Database, link: NoticeLinkRow): Promise<NoticeLinkRow> {
  await db
    .insertInto('notice_links')
    .values(link)
    .onConflict((oc) => oc.columns(['record_kind', 'record_id']).doNothing())
    .execute();
  const row = await findLinkOfRecord(db, link.record_kind, link.record_id);
  if (!row) throw new Error(`The notice link of ${link.record_kind} ${link.record_id} was not written.`);
  return row;
}

export function findLinkOfRecord(
  db: Database,
  kind: RecordKind,
  recordId: string,
): Promise<NoticeLinkRow | undefined> {
  return db
    .selectFrom('notice_links')
    .selectAll()
    .where('record_kind', '=', kind)
    .where('record_id', '=', recordId)
    .executeTakeFirst();
}

/** The links these records have (at most 500 ids a statement), by record id. */
export async function findLinksOfRecords(
  db: Database,
  kind: RecordKind,
  recordIds: string[],
): Promise<Map<string, NoticeLinkRow>> {
  const found = new Map<string, NoticeLinkRow>();
  for (let i = 0; i < recordIds.length; i += 500) {
    const rows = await db
      .selectFrom('notice_links')
      .selectAll()
      .where('record_kind', '=', kind)
      .where('record_id', 'in', recordIds.slice(i, i + 500))
      .execute();
    for (const row of rows) found.set(row.record_id, row);
  }
  return found;
}

/**
 * insertOrReadLink for several records of one kind: the links written in one statement per 200 (a
 * record that has one meanwhile keeps it), then every record's link read back.
 */
export async function insertOrReadLinks(
  db: Database,
  kind: RecordKind,
  links: NoticeLinkRow[],
): Promise<Map<string, NoticeLinkRow>> {
  for (let i = 0; i < links.length; i += 200)
    await db
      .insertInto('notice_links')
      .values(links.slice(i, i + 200))
      .onConflict((oc) => oc.columns(['record_kind', 'record_id']).doNothing())
      .execute();
  const found = await findLinksOfRecords(
    db,
    kind,
    links.map((link) => link.record_id),
  );
  for (const link of links)
    if (!found.has(link.record_id))
      throw new Error(`The notice link of ${link.record_kind} ${link.record_id} was not written.`);
  return found;
}

export function findLink(db: Database, code: string): Promise<NoticeLinkRow | undefined> {
  return db.selectFrom('notice_links').selectAll().where('code', '=', code).executeTakeFirst();
}

/**
 * Counts one wrong answer in one statement (two at once both count). The `limit`th in a row locks the
 * link until `lockUntil` and starts the count again; answers the count and the lock as they now stand.
 */
export async function countFailedCheck(
  db: Database,
  code: string,
  limit: number,
  lockUntil: string,
): Promise<{ failed_checks: number; locked_until: string | null } | undefined> {
  const row = await db
    .updateTable('notice_links')
    .set((eb) => ({
      failed_checks: eb
        .case()
        .when('failed_checks', '>=', limit - 1)
        .then(0)
        .else(eb('failed_checks', '+', 1))
        .end(),
      locked_until: eb
        .case()
        .when('failed_checks', '>=', limit - 1)
        .then(lockUntil)
        .else(eb.ref('locked_until'))
        .end(),
    }))
    .where('code', '=', code)
    .returning(['failed_checks', 'locked_until'])
    .executeTakeFirst();
  return row && { failed_checks: Number(row.failed_checks), locked_until: row.locked_until };
}

/** A right answer: the wrong ones before it no longer count. */
export async function resetFailedChecks(db: Database, code: string): Promise<void> {
  await db
    .updateTable('notice_links')
    .set({ failed_checks: 0, locked_until: null })
    .where('code', '=', code)
    .execute();
}

/** Revokes a link once; answers whether this call revoked it. */
export async function revokeLink(db: Database, code: string, by: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('notice_links')
    .set({ revoked_at: at, revoked_by: by })
    .where('code', '=', code)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Appends one visit event; the table is never updated. */
export async function appendEvent(db: Database, event: NoticePageEventRow): Promise<void> {
  await db.insertInto('notice_page_events').values(event).execute();
}

export function eventsOfRecord(db: Database, recordId: string): Promise<NoticePageEventRow[]> {
  return db
    .selectFrom('notice_page_events')
    .selectAll()
    .where('record_id', '=', recordId)
    .orderBy('at')
    .orderBy('id')
    .execute();
}

/** When the record's notice was first acknowledged on its page (undefined: never). */
export async function firstAcknowledged(db: Database, recordId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('notice_page_events')
    .select((eb) => eb.fn.min('at').as('at'))
    .where('record_id', '=', recordId)
    .where('event', '=', 'acknowledged')
    .executeTakeFirst();
  return row?.at ?? undefined;
}

/**
 * The record's latest served delivery with its file: the PDF the page shows is exactly that one. Only
 * what a provider took counts (sent, delivered, read); the outbox and failures served nothing.
 */
export function latestServedDelivery(
  db: Database,
  kind: RecordKind,
  recordId: string,
): Promise<Pick<DeliveryRow, 'id' | 'pdf_key' | 'pdf_sha256'> | undefined> {
  return db
    .selectFrom('deliveries')
    .select(['id', 'pdf_key', 'pdf_sha256'])
    .where('record_kind', '=', kind)
    .where('record_id', '=', recordId)
    .where('status', 'in', ['sent', 'delivered', 'read'])
    .where('pdf_key', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertResponse(db: Database, response: NoticeResponseRow): Promise<void> {
  await db.insertInto('notice_responses').values(response).execute();
}

export type ResponseListRow = NoticeResponseRow & {
  customer_name: string | null;
  notice_loan_no: string | null;
  card_aan_no: string | null;
  handled_by_username: string | null;
};

/** Responses with the record's name and number and the handler's username: the owner's (null: any, for one by id). */
function responses(db: Database, ownerId: string | null) {
  return db
    .selectFrom('notice_responses')
    .leftJoin('notices', (join) =>
      join
        .onRef('notices.id', '=', 'notice_responses.record_id')
        .on('notice_responses.record_kind', '=', 'notice'),
    )
    .leftJoin('credit_cards', (join) =>
      join
        .onRef('credit_cards.id', '=', 'notice_responses.record_id')
        .on('notice_responses.record_kind', '=', 'credit-card'),
    )
    .leftJoin('users', 'users.id', 'notice_responses.handled_by')
    .$if(ownerId !== null, (query) => query.where('notice_responses.owner_id', '=', ownerId!));
}

/** What a list row adds to the response: the record's name and number, the handler's username. */
const listColumns = (
  eb: ExpressionBuilder<ResponsesFrom, 'notice_responses' | 'notices' | 'credit_cards' | 'users'>,
) => [
  eb.fn.coalesce('notices.custName', 'credit_cards.custName').$castTo<string | null>().as('customer_name'),
  eb.ref('notices.loanNo').$castTo<string | null>().as('notice_loan_no'),
  eb.ref('credit_cards.aanNo').$castTo<string | null>().as('card_aan_no'),
  eb.ref('users.username').$castTo<string | null>().as('handled_by_username'),
];
type ResponsesFrom = DB & {
  notices: Nullable<DB['notices']>;
  credit_cards: Nullable<DB['credit_cards']>;
  users: Nullable<DB['users']>;
};
type Nullable<T> = { [K in keyof T]: T[K] | null };

/** A page of responses, newest first. */
export function listResponses(
  db: Database,
  ownerId: string | null,
  { offset, limit }: { offset: number; limit: number },
): Promise<ResponseListRow[]> {
  return responses(db, ownerId)
    .selectAll('notice_responses')
    .select(listColumns)
    .orderBy('notice_responses.created_at', 'desc')
    .orderBy('notice_responses.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** One response as the list shows it. */
export function findResponseItem(db: Database, id: string): Promise<ResponseListRow | undefined> {
  return responses(db, null)
    .selectAll('notice_responses')
    .select(listColumns)
    .where('notice_responses.id', '=', id)
    .executeTakeFirst();
}

export async function countResponses(db: Database, ownerId: string | null): Promise<number> {
  const row = await responses(db, ownerId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function findResponse(db: Database, id: string): Promise<NoticeResponseRow | undefined> {
  return db.selectFrom('notice_responses').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Marks a response handled once; answers whether this call did. */
export async function markHandled(db: Database, id: string, by: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('notice_responses')
    .set({ handled_at: at, handled_by: by })
    .where('id', '=', id)
    .where('handled_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
