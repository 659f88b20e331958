import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // Addresses a message to them bounced or failed for good (or whose owner complained), one row per
  // owner, channel and address (lower-cased): the next send to one asks first or leaves it out.
  await db.schema
    .createTable('undeliverable_addresses')
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('undeliverable_addresses_pk', ['owner_id', 'channel', 'address'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('undeliverable_addresses').execute();
}
