import type { Database } from '../../db/database.ts';
import type { DeliveriesTable } from '../../db/schema.ts';

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

/** The owner's latest deliveries, newest first, leaving out those of archived records (deleted from view). */
export function recentLiveDeliveries(
  db: Database,
  ownerId: string,
  limit: number,
): Promise<DeliveriesTable[]> {
  return db
    .selectFrom('deliveries as d')
    .selectAll('d')
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
    )
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
}
