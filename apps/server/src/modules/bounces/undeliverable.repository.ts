import type { Database } from '../../db/database.ts';
import type { Channel, UndeliverableAddressesTable } from '../../db/schema.ts';

/** How an address is kept and looked up: e-mail addresses lower-cased, numbers as recorded. */
export const addressKey = (channel: Channel, address: string) =>
  channel === 'email' ? address.trim().toLowerCase() : address.trim();

/** Remembers that a message to this address bounced or failed for good; the latest reason wins. */
export async function remember(db: Database, row: UndeliverableAddressesTable): Promise<void> {
  const values = { ...row, address: addressKey(row.channel, row.address) };
  await db
    .insertInto('undeliverable_addresses')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['owner_id', 'channel', 'address'])
        .doUpdateSet({ delivery_id: values.delivery_id, reason: values.reason, at: values.at }),
    )
    .execute();
}

/** Of these addresses on a channel, the ones the owner's earlier messages bounced from or failed at. */
export async function findRemembered(
  db: Database,
  ownerId: string,
  channel: Channel,
  addresses: string[],
): Promise<UndeliverableAddressesTable[]> {
  const keys = [...new Set(addresses.map((a) => addressKey(channel, a)).filter(Boolean))];
  const rows: UndeliverableAddressesTable[] = [];
  for (let i = 0; i < keys.length; i += 500) {
    rows.push(
      ...(await db
        .selectFrom('undeliverable_addresses')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .where('channel', '=', channel)
        .where('address', 'in', keys.slice(i, i + 500))
        .execute()),
    );
  }
  return rows;
}
