import type { Database } from '../db/database.ts';
import type { DeliveryStatus } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import * as deliveries from '../modules/sending/deliveries.repository.ts';

type Seed = Partial<Omit<deliveries.DeliveryRow, 'status'>> & Pick<deliveries.DeliveryRow, 'owner_id'>;

/**
 * A delivery as the send path leaves it: claimed as `queued` (a notice of a record and campaign of its
 * own, unless given), then moved to `status` as the send would move it, with `changes` (a provider
 * message id, an error). Answers its id.
 */
export async function seedDelivery(
  db: Database,
  seed: Seed,
  status: DeliveryStatus = 'queued',
  changes: Parameters<typeof deliveries.advanceStatus>[4] = {},
): Promise<string> {
  const id = seed.id ?? newId();
  const at = new Date().toISOString();
  const channel = seed.channel ?? 'email';
  await deliveries.claimDeliveries(db, [
    {
      id,
      record_kind: 'notice',
      record_id: newId(),
      campaign_id: newId(),
      channel,
      active_key: `${newId()}:${channel}`,
      recipient: channel === 'email' ? 'customer@example.com' : '919876500001',
      recipient_name: 'Customer',
      status_at: at,
      provider_message_id: null,
      error: null,
      pdf_sha256: null,
      pdf_key: null,
      created_at: at,
      attempted_at: null,
      record_address_at_send: null,
      media_id: null,
      ...seed,
      status: 'queued',
    },
  ]);
  if (status !== 'queued') await deliveries.advanceStatus(db, { id, status: 'queued' }, status, at, changes);
  return id;
}
