import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // One row per record x channel x attempt. Its status only moves forward; every change is also
  // appended to delivery_events, which is never updated or deleted.
  await db.schema
    .createTable('deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('record_kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    // '<record>:<channel>' while this attempt counts as the record's send on that channel; null once it
    // failed or a resend superseded it. Unique: two requests at once cannot both send.
    .addColumn('active_key', 'text', (c) => c.unique())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('recipient_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_at', 'text', (c) => c.notNull())
    .addColumn('provider_message_id', 'text')
    .addColumn('error', 'text')
    .addColumn('pdf_sha256', 'text')
    .addColumn('pdf_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('deliveries_record_idx')
    .on('deliveries')
    .columns(['record_id', 'channel', 'id'])
    .execute();
  await db.schema.createIndex('deliveries_owner_idx').on('deliveries').columns(['owner_id', 'id']).execute();
  await db.schema
    .createIndex('deliveries_provider_idx')
    .on('deliveries')
    .column('provider_message_id')
    .execute();

  await db.schema
    .createTable('delivery_events')
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('deliveries.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .execute();
  await db.schema
    .createIndex('delivery_events_delivery_idx')
    .on('delivery_events')
    .columns(['delivery_id', 'at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('delivery_events').execute();
  await db.schema.dropTable('deliveries').execute();
}
