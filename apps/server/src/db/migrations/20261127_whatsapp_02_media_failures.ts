import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // The WhatsApp media id a message's PDF went by (null for e-mail, the outbox, and sends before this).
  await db.schema.alterTable('deliveries').addColumn('media_id', 'text').execute();
  // Media ids WhatsApp took a message with, then failed it for its media (a status webhook's 131053):
  // never used again, by any process. Kept as long as an id may be used again (a week), by `failed_at`.
  await db.schema
    .createTable('whatsapp_media_failures')
    .addColumn('media_id', 'text', (c) => c.primaryKey())
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('whatsapp_media_failures_failed_idx')
    .on('whatsapp_media_failures')
    .column('failed_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('whatsapp_media_failures').execute();
  await db.schema.alterTable('deliveries').dropColumn('media_id').execute();
}
