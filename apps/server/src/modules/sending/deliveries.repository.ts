import type { Database } from '../../db/database.ts';
import type { Channel, DeliveriesTable, DeliveryEventsTable, DeliveryStatus } from '../../db/schema.ts';

export type DeliveryRow = DeliveriesTable;

/** Statuses in the order they happen; a status never moves back down this list. */
const order: Record<Exclude<DeliveryStatus, 'failed'>, number> = {
  queued: 0,
  outbox: 1,
  sent: 1,
  delivered: 2,
  read: 3,
};
const statuses = Object.keys(order) as Exclude<DeliveryStatus, 'failed'>[];

/** Forward only: failed is final, and a message already delivered cannot fail any more. */
function canMove(from: DeliveryStatus, to: DeliveryStatus): boolean {
  if (from === 'failed') return false;
  if (to === 'failed') return order[from] < order.delivered;
  return order[to] > order[from];
}

export const activeKey = (recordId: string, channel: Channel) => `${recordId}:${channel}`;

/**
 * Claims each record's send on a channel: inserts the attempts with their unique active keys, in one
 * statement. Answers the ids it could claim; an attempt whose key another holds (sent, or being sent)
 * is left out: that record is skipped on that channel.
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
      .values(claimed.map((id) => ({ delivery_id: id, status: 'queued' as const, at, detail: null })))
      .execute();
  }
  return claimed;
}

/** A resend: the earlier attempts stay on record but no longer hold the records' sends on those channels. */
export async function releaseActive(db: Database, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.updateTable('deliveries').set({ active_key: null }).where('active_key', 'in', keys).execute();
}

async function appendEvent(
  db: Database,
  deliveryId: string,
  status: DeliveryStatus,
  at: string,
  detail: string | null,
) {
  await db.insertInto('delivery_events').values({ delivery_id: deliveryId, status, at, detail }).execute();
}

/**
 * Moves a delivery to a new status when that is forward (a late 'delivered' never undoes 'read'),
 * recording the event either way. Answers whether the status changed.
 */
export async function advanceStatus(
  db: Database,
  delivery: Pick<DeliveryRow, 'id' | 'status'>,
  status: DeliveryStatus,
  at: string,
  changes: Partial<Pick<DeliveryRow, 'provider_message_id' | 'error' | 'pdf_sha256' | 'pdf_key'>> = {},
): Promise<boolean> {
  await appendEvent(db, delivery.id, status, at, changes.error ?? null);
  if (!canMove(delivery.status, status)) return false;
  const allowedFrom = statuses.filter((from) => canMove(from, status));
  const result = await db
    .updateTable('deliveries')
    .set({
      status,
      status_at: at,
      ...changes,
      // A failed attempt stops holding the record's send, so a later request may try again.
      ...(status === 'failed' ? { active_key: null } : {}),
    })
    .where('id', '=', delivery.id)
    .where('status', 'in', allowedFrom)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function noteRetry(db: Database, id: string, error: string, at: string): Promise<void> {
  await db.updateTable('deliveries').set({ error }).where('id', '=', id).execute();
  await appendEvent(db, id, 'queued', at, error);
}

/** Notes that a send is handing the delivery to its provider now. */
export async function markAttempted(db: Database, id: string, at: string): Promise<void> {
  await db.updateTable('deliveries').set({ attempted_at: at }).where('id', '=', id).execute();
}

export function findDeliveries(db: Database, ids: string[]): Promise<DeliveryRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('deliveries').selectAll().where('id', 'in', ids).execute();
}

export function findByProviderId(db: Database, providerMessageId: string): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('deliveries')
    .selectAll()
    .where('provider_message_id', '=', providerMessageId)
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

/** Every status change of these deliveries, in the order they happened. */
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
