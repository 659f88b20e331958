import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Channel, DB, DeliveryStatus } from '../../db/schema.ts';

/** A campaign's latest attempt on a record and channel that did not reach the borrower. */
export interface FailedDelivery {
  id: string;
  record_id: string;
  channel: Channel;
  status: DeliveryStatus;
  recipient: string;
  error: string | null;
  status_at: string;
}

/** The id of the latest attempt on the record and channel of the delivery `d`. */
const latestAttemptOf = (eb: ExpressionBuilder<DB & { d: DB['deliveries'] }, 'd'>) =>
  eb
    .selectFrom('deliveries as l')
    .select((inner) => inner.fn.max('l.id').as('latest'))
    .whereRef('l.record_id', '=', 'd.record_id')
    .whereRef('l.channel', '=', 'd.channel');

/**
 * The owner's campaign's records and channels whose latest attempt is in `statuses`, in campaign order
 * (record, then channel). `recordId` narrows it to one record.
 */
export function findLatestFailures(
  db: Database,
  ownerId: string,
  campaignId: string,
  statuses: readonly DeliveryStatus[],
  recordId?: string,
): Promise<FailedDelivery[]> {
  return db
    .selectFrom('deliveries as d')
    .select(['d.id', 'd.record_id', 'd.channel', 'd.status', 'd.recipient', 'd.error', 'd.status_at'])
    .where('d.owner_id', '=', ownerId)
    .where('d.campaign_id', '=', campaignId)
    .where('d.status', 'in', [...statuses])
    .where('d.id', '=', latestAttemptOf)
    .$if(recordId !== undefined, (query) => query.where('d.record_id', '=', recordId!))
    .orderBy('d.record_id')
    .orderBy('d.channel')
    .execute();
}
