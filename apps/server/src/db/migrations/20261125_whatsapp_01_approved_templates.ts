import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // The approved WhatsApp template each record kind is sent with: its name and language at Meta, and
  // the record fields that fill its body parameters {{1}}, {{2}}… in order (a JSON list of field keys).
  await db.schema
    .createTable('whatsapp_approved_templates')
    .addColumn('record_kind', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('body_fields', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The rate a channel goes out at now is counted from the deliveries handed over in the last seconds.
  await db.schema
    .createIndex('deliveries_channel_attempted_idx')
    .on('deliveries')
    .columns(['channel', 'attempted_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('deliveries_channel_attempted_idx').execute();
  await db.schema.dropTable('whatsapp_approved_templates').execute();
}
