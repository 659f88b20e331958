import type { Database } from '../../db/database.ts';
import { idBoundaries } from '../../db/id-boundaries.ts';
import type { DeliveriesTable, DeliveryStatus } from '../../db/schema.ts';

/** The owner's live campaigns per kind (not those still importing, nor those a delete archived). */
export function countCampaignsByKind(db: Database, ownerId: string): Promise<{ kind: string; n: number }[]> {
  return db
    .selectFrom('campaigns')
    .select(['kind', (eb) => eb.fn.countAll<number>().as('n')])
    .where('owner_id', '=', ownerId)
    .where('status', '=', 'ready')
    .where('archived_at', 'is', null)
    .groupBy('kind')
    .execute();
}

/** The owner's deliveries, leaving out those of archived records (deleted from view); of one status when given. */
function liveDeliveries(db: Database, ownerId: string, status?: DeliveryStatus) {
  let query = db
    .selectFrom('deliveries as d')
    .where('d.owner_id', '=', ownerId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notices')
            .select('notices.id')
            .whereRef('notices.id', '=', 'd.record_id')
            .where('notices.archived_at', 'is not', null),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('credit_cards')
            .select('credit_cards.id')
            .whereRef('credit_cards.id', '=', 'd.record_id')
            .where('credit_cards.archived_at', 'is not', null),
        ),
      ),
    );
  if (status) query = query.where('d.status', '=', status);
  return query;
}

/**
 * The owner's latest deliveries, newest first, leaving out those of archived records: `offset` rows on
 * from the delivery `fromId` (included) when given, else from the newest.
 */
export function recentLiveDeliveries(
  db: Database,
  ownerId: string,
  limit: number,
  { offset = 0, status, fromId }: { offset?: number; status?: DeliveryStatus; fromId?: string } = {},
): Promise<DeliveriesTable[]> {
  return liveDeliveries(db, ownerId, status)
    .$if(fromId !== undefined, (query) => query.where('d.id', '<=', fromId!))
    .selectAll('d')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The ids at positions 0, stride, 2·stride, … of the owner's newest-first deliveries (of one status). */
export function liveDeliveryBoundaries(
  db: Database,
  ownerId: string,
  stride: number,
  status?: DeliveryStatus,
): Promise<string[]> {
  return idBoundaries(db, liveDeliveries(db, ownerId, status), 'd.id', stride);
}

/**
 * How many of the owner's live deliveries (of one status) there are, and a version of that list: it
 * changes when one joins it (a newer id, a status moved in at a newer time) or leaves it (the count).
 */
export async function liveDeliveriesState(
  db: Database,
  ownerId: string,
  status?: DeliveryStatus,
): Promise<{ total: number; version: string }> {
  const row = await liveDeliveries(db, ownerId, status)
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.max('d.id').as('newest'),
      eb.fn.max('d.status_at').as('moved'),
    ])
    .executeTakeFirst();
  const total = Number(row?.n ?? 0);
  return { total, version: `${total}:${row?.newest ?? ''}:${row?.moved ?? ''}` };
}
