import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Channel, DeliveriesTable, DeliveryEventsTable, DeliveryStatus } from '../../db/schema.ts';
import { nowIso } from '../../lib/time.ts';

export type DeliveryRow = DeliveriesTable;

/** Statuses in the order they happen; a status never moves back down this list. */
const order = new Map<DeliveryStatus, number>([
  ['queued', 0],
  ['outbox', 1],
  ['sent', 1],
  ['delivered', 2],
  ['read', 3],
]);
const statuses = [...order.keys()];

/**
 * Forward only: failed is final, and a message already delivered cannot fail any more. Outbox is final
 * too: nothing was handed to a provider, so no provider can report it delivered, read or failed.
 * Bounced is final like failed, and comes only after sent: a mail server took the message, then
 * returned it (a notice that bounced was not served).
 */
function canMove(from: DeliveryStatus, to: DeliveryStatus): boolean {
  if (from === 'failed' || from === 'outbox' || from === 'bounced') return false;
  if (to === 'bounced') return from === 'sent';
  const rank = order.get(from);
  if (rank === undefined) return false;
  if (to === 'failed') return rank < order.get('delivered')!;
  const next = order.get(to);
  return next !== undefined && next > rank;
}

/**
 * Why a status could not move from `from` to `to`, in words for the evidence; null when it could, or
 * when `to` is a note on a queued send (a retry, an address change) rather than a move.
 */
export function refusalOf(from: DeliveryStatus, to: DeliveryStatus): string | null {
  if (to === 'queued' || canMove(from, to)) return null;
  if (from === to) return `not applied: the delivery was already ${from}`;
  if (from === 'not_serviceable')
    return 'not applied: the send left this message out (the address cannot be served), so no provider saw it';
  if (from === 'failed' || from === 'bounced')
    return `not applied: the delivery had already ${from}, which is final`;
  if (from === 'outbox')
    return 'not applied: the message went to the outbox, which no provider saw, so none can report on it';
  if (to === 'failed') return `not applied: the message was already ${from}, so it can no longer fail`;
  if (to === 'bounced') return `not applied: only a sent e-mail can bounce, and it was ${from}`;
  return `not applied: the delivery was already ${from}; a status never moves backwards`;
}

export const activeKey = (recordId: string, channel: Channel) => `${recordId}:${channel}`;

/**
 * Claims each record's send on a channel: inserts the attempts with their unique active keys, in one
 * statement. Answers the ids it could claim; an attempt whose key another holds (sent, or being sent)
 * is left out: that record is skipped on that channel. The unique key, not this process, decides: two
 * requests at once, in one process or several, on SQLite or PostgreSQL, cannot both claim a key.
 */
export async function claimDeliveries(db: Database, attempts: DeliveryRow[]): Promise<string[]> {
  if (attempts.length === 0) return [];
  const claimed = (
    await db
      .insertInto('deliveries')
      .values(attempts)
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .execute()
  ).map((row) => row.id);
  if (claimed.length > 0) {
    const at = attempts[0]!.created_at;
    await db
      .insertInto('delivery_events')
      .values(
        claimed.map((id) => ({
          delivery_id: id,
          status: 'queued' as const,
          at,
          detail: null,
          recorded_at: at,
        })),
      )
      .execute();
  }
  return claimed;
}

/**
 * A resend: the earlier sends that have finished (sent, delivered, read, outbox) stay on record but no
 * longer hold the records' sends on those channels. One still queued (waiting, or being handed to its
 * provider right now) keeps its key, so the resend's claim of that key fails and the resend joins it
 * instead of sending a second message. The guard is in the statement itself: a concurrent claim that
 * committed a queued attempt is never released by a resend that started before it.
 */
export async function releaseFinished(db: Database, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .updateTable('deliveries')
    .set({ active_key: null })
    .where('active_key', 'in', keys)
    .where('status', '<>', 'queued')
    .execute();
}

/**
 * Sends still queued under these keys that no live send job (queued or running, of `jobKind`) names:
 * their job gave up, or a process died on its last attempt, so nothing will ever send them. A resend
 * fails them, which releases their keys, rather than joining a send that will never happen.
 */
export function findAbandoned(db: Database, keys: string[], jobKind: string): Promise<DeliveryRow[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('deliveries')
    .selectAll()
    .where('active_key', 'in', keys)
    .where('status', '=', 'queued')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('jobs')
            .select('jobs.id')
            .where('jobs.kind', '=', jobKind)
            .where('jobs.status', 'in', ['queued', 'running'])
            // A job's payload lists its delivery ids as JSON strings.
            .where('jobs.payload', 'like', sql<string>`'%"' || ${sql.ref('deliveries.id')} || '"%'`),
        ),
      ),
    )
    .execute();
}

/**
 * Messages a send left out because the record's address cannot be served by its form: written as
 * deliveries of their own, final at once (status not_serviceable, the reason as their error), holding
 * no key, so a later send after the address is corrected goes out as any first send.
 */
export async function recordNotServiceable(db: Database, rows: DeliveryRow[]): Promise<void> {
  if (rows.length === 0) return;
  const at = rows[0]!.created_at;
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200);
    await db.insertInto('deliveries').values(chunk).execute();
    await db
      .insertInto('delivery_events')
      .values(
        chunk.map((row) => ({
          delivery_id: row.id,
          status: 'not_serviceable' as const,
          at,
          detail: row.error,
          recorded_at: at,
        })),
      )
      .execute();
  }
}

/** Statuses of a message that went out (or to the outbox): a record served on that channel. */
const WENT_OUT: DeliveryStatus[] = ['outbox', 'sent', 'delivered', 'read'];

/**
 * Of these records, those whose borrower (the same loan number or AAN, trimmed, in any case) another of
 * the owner's campaigns served on a channel since `since`: one row per record and channel. Archived
 * records count: a served notice is served whatever became of its row.
 */
export async function findServedRecently(
  db: Database,
  table: 'notices' | 'credit_cards',
  identityColumn: 'loanNo' | 'aanNo',
  ownerId: string,
  recordIds: string[],
  since: string,
): Promise<{ record_id: string; channel: Channel }[]> {
  const found: { record_id: string; channel: Channel }[] = [];
  const column = (alias: string) => sql.ref(`${alias}.${identityColumn}`);
  for (let i = 0; i < recordIds.length; i += 500) {
    const chunk = recordIds.slice(i, i + 500);
    const { rows } = await sql<{ record_id: string; channel: Channel }>`
      select distinct r.id as record_id, d.channel as channel
      from ${sql.table(table)} r
      join ${sql.table(table)} o
        on o.owner_id = r.owner_id and o.campaign_id <> r.campaign_id
        and lower(trim(${column('o')})) = lower(trim(${column('r')}))
      join deliveries d on d.record_id = o.id
      where r.owner_id = ${ownerId}
        and r.id in (${sql.join(chunk)})
        and trim(${column('r')}) <> ''
        and d.status in (${sql.join(WENT_OUT)})
        and d.created_at >= ${since}
    `.execute(db);
    found.push(...rows);
  }
  return found;
}

/** The attempts that hold these keys now: what a request that could not claim a key met instead. */
export function findActive(db: Database, keys: string[]): Promise<DeliveryRow[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return db.selectFrom('deliveries').selectAll().where('active_key', 'in', keys).execute();
}

async function appendEvent(
  db: Database,
  deliveryId: string,
  status: DeliveryStatus,
  at: string,
  detail: string | null,
  refused: string | null = null,
) {
  await db
    .insertInto('delivery_events')
    .values({ delivery_id: deliveryId, status, at, detail, recorded_at: nowIso(), refused })
    .execute();
}

type StatusChanges = Partial<
  Pick<DeliveryRow, 'provider_message_id' | 'error' | 'pdf_sha256' | 'pdf_key' | 'media_id'>
>;

/**
 * The forward move itself, guarded in SQL so a concurrent change between read and write cannot undo it.
 * Answers null when the status moved, else why not (read again when another change came first).
 */
async function moveForward(
  db: Database,
  delivery: Pick<DeliveryRow, 'id' | 'status'>,
  status: DeliveryStatus,
  at: string,
  changes: StatusChanges,
): Promise<string | null> {
  if (!canMove(delivery.status, status)) return refusalOf(delivery.status, status);
  const allowedFrom = statuses.filter((from) => canMove(from, status));
  const result = await db
    .updateTable('deliveries')
    .set({
      status,
      status_at: at,
      ...changes,
      // A failed or bounced attempt stops holding the record's send, so a later request may try again.
      ...(status === 'failed' || status === 'bounced' ? { active_key: null } : {}),
    })
    .where('id', '=', delivery.id)
    .where('status', 'in', allowedFrom)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return null;
  const now = await db
    .selectFrom('deliveries')
    .select('status')
    .where('id', '=', delivery.id)
    .executeTakeFirst();
  return now ? refusalOf(now.status, status) : 'not applied: the delivery is gone';
}

/**
 * Moves a delivery to a new status when that is forward (a late 'delivered' never undoes 'read'),
 * recording the event either way, as refused with why when it did not move. Answers whether it moved.
 */
export async function advanceStatus(
  db: Database,
  delivery: Pick<DeliveryRow, 'id' | 'status'>,
  status: DeliveryStatus,
  at: string,
  changes: StatusChanges = {},
): Promise<boolean> {
  const refused = await moveForward(db, delivery, status, at, changes);
  await appendEvent(db, delivery.id, status, at, changes.error ?? null, refused);
  return refused === null;
}

/** What a provider's report did: moved the status, was recorded without moving it, or was already known. */
export type ProviderEventOutcome = 'applied' | 'unchanged' | 'replayed';

/**
 * A status a provider reported, recorded once per delivery and event identity (`eventKey`): the insert
 * of a key already held does nothing, so a replay, even many at once on several processes, neither
 * adds a row nor moves the status. A new event is recorded either way and moves the status forward
 * only, in the same transaction.
 */
export function recordProviderEvent(
  db: Database,
  delivery: Pick<DeliveryRow, 'id' | 'status'>,
  event: { status: DeliveryStatus; at: string; eventKey: string; error?: string },
): Promise<ProviderEventOutcome> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('delivery_events')
      .values({
        delivery_id: delivery.id,
        status: event.status,
        at: event.at,
        detail: event.error ?? null,
        provider_event: event.eventKey,
        recorded_at: nowIso(),
      })
      .onConflict((oc) => oc.columns(['delivery_id', 'provider_event']).doNothing())
      .returning('delivery_id')
      .executeTakeFirst();
    if (!inserted) return 'replayed';
    const changes = event.error !== undefined ? { error: event.error } : {};
    const refused = await moveForward(trx, delivery, event.status, event.at, changes);
    if (refused === null) return 'applied';
    await trx
      .updateTable('delivery_events')
      .set({ refused })
      .where('delivery_id', '=', delivery.id)
      .where('provider_event', '=', event.eventKey)
      .execute();
    return 'unchanged';
  });
}

export async function noteRetry(db: Database, id: string, error: string, at: string): Promise<void> {
  await db.updateTable('deliveries').set({ error }).where('id', '=', id).execute();
  await appendEvent(db, id, 'queued', at, error);
}

/**
 * Notes that a send is handing the delivery to its provider now, and what the record's address said
 * then; when that is no longer the recorded recipient, the queued event says so in words.
 */
export async function markAttempted(
  db: Database,
  delivery: Pick<DeliveryRow, 'id'>,
  at: string,
  recordAddress: string,
  note: string | null,
): Promise<void> {
  await db
    .updateTable('deliveries')
    .set({ attempted_at: at, record_address_at_send: recordAddress })
    .where('id', '=', delivery.id)
    .execute();
  if (note) await appendEvent(db, delivery.id, 'queued', at, note);
}

/** A hand-over to record: markAttempted's arguments. */
export interface HandOver {
  delivery: Pick<DeliveryRow, 'id'>;
  at: string;
  recordAddress: string;
  note: string | null;
}

/**
 * markAttempted for several deliveries: one statement, with their notes (an address changed since the
 * send was asked) in a second, both in one transaction.
 */
export async function markAllAttempted(db: Database, handOvers: HandOver[]): Promise<void> {
  if (handOvers.length === 1) {
    const [{ delivery, at, recordAddress, note }] = handOvers as [HandOver];
    await markAttempted(db, delivery, at, recordAddress, note);
    return;
  }
  const noted = handOvers.filter((h) => h.note);
  const write = async (trx: Database) => {
    for (const chunk of uniqueChunks(handOvers, (h) => h.delivery.id)) {
      if (chunk.length === 1) {
        const [{ delivery, at, recordAddress }] = chunk as [HandOver];
        await markAttempted(trx, delivery, at, recordAddress, null);
        continue;
      }
      const id = (h: HandOver) => h.delivery.id;
      await trx
        .updateTable('deliveries')
        .set({
          attempted_at: byId(chunk, id, (h) => h.at),
          record_address_at_send: byId(chunk, id, (h) => h.recordAddress),
        })
        .where('id', 'in', chunk.map(id))
        .execute();
    }
    if (noted.length > 0) {
      const recordedAt = nowIso();
      await trx
        .insertInto('delivery_events')
        .values(
          noted.map(({ delivery, at, note }) => ({
            delivery_id: delivery.id,
            status: 'queued' as const,
            at,
            detail: note,
            recorded_at: recordedAt,
            refused: null,
          })),
        )
        .execute();
    }
  };
  if (noted.length === 0 && handOvers.length <= BATCH_ROWS) await write(db);
  else await db.transaction().execute(write);
}

/** Rows a batched update names at most: a CASE of this many ids per column stays well within either database's limits. */
const BATCH_ROWS = 500;

/**
 * `items` in order, in chunks of at most BATCH_ROWS that name no delivery twice: a batched update sets
 * each row once, so a second change of a delivery starts the next chunk, after the first, as it would
 * have gone one statement at a time.
 */
function uniqueChunks<T>(items: T[], key: (item: T) => string): T[][] {
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let keys = new Set<string>();
  for (const item of items) {
    if (chunk.length === BATCH_ROWS || keys.has(key(item))) {
      chunks.push(chunk);
      chunk = [];
      keys = new Set();
    }
    chunk.push(item);
    keys.add(key(item));
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** A column's new value per row, by the row's id, in one expression: `case id when … then … end`. */
function byId<T, V extends string | null>(
  items: T[],
  id: (item: T) => string,
  value: (item: T) => V,
  otherwise?: RawBuilder<V>,
): RawBuilder<V> {
  const whens = items.map((item) => sql`when ${id(item)} then ${value(item)}`);
  return sql<V>`case ${sql.ref('id')} ${sql.join(whens, sql` `)}${otherwise ? sql` else ${otherwise}` : sql``} end`;
}

/** A status move to record: advanceStatus's arguments. */
export interface StatusMove {
  delivery: Pick<DeliveryRow, 'id' | 'status'>;
  status: DeliveryStatus;
  at: string;
  changes: StatusChanges;
}

const changeColumns = ['provider_message_id', 'error', 'pdf_sha256', 'pdf_key', 'media_id'] as const;

/**
 * advanceStatus for several deliveries, in one transaction: the moves to one status in one guarded
 * statement (a move another change came before is left out by its guard, as moveForward's is), the
 * current status of those left out read in one more, then every event in one statement.
 */
export async function advanceStatuses(db: Database, moves: StatusMove[]): Promise<void> {
  if (moves.length === 1) {
    const [{ delivery, status, at, changes }] = moves as [StatusMove];
    await advanceStatus(db, delivery, status, at, changes);
    return;
  }
  await db.transaction().execute(async (trx) => {
    const refusals = new Map<StatusMove, string | null>();
    for (const move of moves)
      if (!canMove(move.delivery.status, move.status))
        refusals.set(move, refusalOf(move.delivery.status, move.status));
    const movable = moves.filter((move) => !refusals.has(move));
    for (const chunk of uniqueChunks(movable, (m) => m.delivery.id)) {
      for (const status of new Set(chunk.map((m) => m.status))) {
        const group = chunk.filter((m) => m.status === status);
        const moved = new Set(await moveAllForward(trx, status, group));
        const missed = group.filter((m) => !moved.has(m.delivery.id));
        const now = new Map(
          missed.length === 0
            ? []
            : (
                await trx
                  .selectFrom('deliveries')
                  .select(['id', 'status'])
                  .where(
                    'id',
                    'in',
                    missed.map((m) => m.delivery.id),
                  )
                  .execute()
              ).map((row) => [row.id, row.status]),
        );
        for (const move of group) {
          const found = now.get(move.delivery.id);
          refusals.set(
            move,
            moved.has(move.delivery.id)
              ? null
              : found
                ? refusalOf(found, status)
                : 'not applied: the delivery is gone',
          );
        }
      }
    }
    const recordedAt = nowIso();
    await trx
      .insertInto('delivery_events')
      .values(
        moves.map((move) => ({
          delivery_id: move.delivery.id,
          status: move.status,
          at: move.at,
          detail: move.changes.error ?? null,
          recorded_at: recordedAt,
          refused: refusals.get(move) ?? null,
        })),
      )
      .execute();
  });
}

/**
 * moveForward for several deliveries to one status, in one statement guarded as moveForward's is;
 * answers the ids that moved. A change a move does not name keeps the row's value.
 */
async function moveAllForward(db: Database, status: DeliveryStatus, moves: StatusMove[]): Promise<string[]> {
  if (moves.length === 1) {
    const [{ delivery, at, changes }] = moves as [StatusMove];
    return (await moveForward(db, delivery, status, at, changes)) === null ? [delivery.id] : [];
  }
  const id = (m: StatusMove) => m.delivery.id;
  const changed: Partial<Record<(typeof changeColumns)[number], RawBuilder<string | null>>> = {};
  for (const column of changeColumns) {
    const naming = moves.filter((m) => m.changes[column] !== undefined);
    if (naming.length > 0)
      changed[column] = byId(naming, id, (m) => m.changes[column] ?? null, sql.ref<string | null>(column));
  }
  const rows = await db
    .updateTable('deliveries')
    .set({
      status,
      status_at: byId(moves, id, (m) => m.at),
      ...changed,
      ...(status === 'failed' || status === 'bounced' ? { active_key: null } : {}),
    })
    .where('id', 'in', moves.map(id))
    .where(
      'status',
      'in',
      statuses.filter((from) => canMove(from, status)),
    )
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export function findDeliveries(db: Database, ids: string[]): Promise<DeliveryRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('deliveries').selectAll().where('id', 'in', ids).execute();
}

/**
 * The delivery a WhatsApp Cloud API status speaks of: a WhatsApp one with that provider message id.
 * Never another channel's (an e-mail's Message-ID is no WhatsApp message), and never an outbox one,
 * which no provider ever saw.
 */
export function findCloudApiDelivery(
  db: Database,
  providerMessageId: string,
): Promise<DeliveryRow | undefined> {
  return findProviderDelivery(db, 'whatsapp', providerMessageId);
}

/** The delivery of this channel a provider gave this message id, never an outbox one. */
export function findProviderDelivery(
  db: Database,
  channel: Channel,
  providerMessageId: string,
): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('deliveries')
    .selectAll()
    .where('channel', '=', channel)
    .where('provider_message_id', '=', providerMessageId)
    .where('status', '<>', 'outbox')
    .executeTakeFirst();
}

/** The e-mail delivery with this id (a Message-ID's left-hand side), never an outbox one. */
export function findEmailDelivery(db: Database, id: string): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('deliveries')
    .selectAll()
    .where('id', '=', id)
    .where('channel', '=', 'email')
    .where('status', '<>', 'outbox')
    .executeTakeFirst();
}

/** Every attempt for these records, oldest first (callers keep the latest per channel). */
export async function deliveriesForRecords(db: Database, recordIds: string[]): Promise<DeliveryRow[]> {
  const rows: DeliveryRow[] = [];
  for (let i = 0; i < recordIds.length; i += 500) {
    rows.push(
      ...(await db
        .selectFrom('deliveries')
        .selectAll()
        .where('record_id', 'in', recordIds.slice(i, i + 500))
        .orderBy('id')
        .execute()),
    );
  }
  return rows;
}

/**
 * Every event of these deliveries in the order they reached us (a provider's time may be earlier than
 * our own queued event); events written before that was recorded go by their own time.
 */
export async function eventsForDeliveries(
  db: Database,
  deliveryIds: string[],
): Promise<DeliveryEventsTable[]> {
  const rows: DeliveryEventsTable[] = [];
  for (let i = 0; i < deliveryIds.length; i += 500) {
    rows.push(
      ...(await db
        .selectFrom('delivery_events')
        .selectAll()
        .where('delivery_id', 'in', deliveryIds.slice(i, i + 500))
        .orderBy((eb) => eb.fn.coalesce('recorded_at', 'at'))
        .orderBy('at')
        .execute()),
    );
  }
  return rows;
}

export function recentDeliveries(db: Database, ownerId: string, limit: number): Promise<DeliveryRow[]> {
  return db
    .selectFrom('deliveries')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function countSentRecords(db: Database, campaignId: string): Promise<number> {
  const row = await db
    .selectFrom('deliveries')
    .select((eb) => eb.fn.count<number>('record_id').distinct().as('n'))
    .where('campaign_id', '=', campaignId)
    .where('status', 'in', ['outbox', 'sent', 'delivered', 'read'])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** How many of a channel's deliveries were handed to its provider since `since`, by every process. */
export async function countAttemptedSince(db: Database, channel: Channel, since: string): Promise<number> {
  const row = await db
    .selectFrom('deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('channel', '=', channel)
    .where('attempted_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
