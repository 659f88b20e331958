import type { Database } from '../../db/database.ts';
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

/** The owner's latest deliveries, newest first, from `offset`, leaving out those of archived records. */
export function recentLiveDeliveries(
  db: Database,
  ownerId: string,
  limit: number,
  { offset = 0, status }: { offset?: number; status?: DeliveryStatus } = {},
): Promise<DeliveriesTable[]> {
  return liveDeliveries(db, ownerId, status)
    .selectAll('d')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countLiveDeliveries(
  db: Database,
  ownerId: string,
  status?: DeliveryStatus,
): Promise<number> {
  const row = await liveDeliveries(db, ownerId, status)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
