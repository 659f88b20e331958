import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // The identity of an event a provider reported ('<status>@<provider's Unix seconds>'); null for the
  // events the product records itself. Unique per delivery, so a replayed webhook, even many at once
  // on several processes, is recorded once: inserts of the same key do nothing. NULLs never collide.
  await db.schema.alterTable('delivery_events').addColumn('provider_event', 'text').execute();
  await db.schema
    .createIndex('delivery_events_provider_event_idx')
    .on('delivery_events')
    .columns(['delivery_id', 'provider_event'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('delivery_events_provider_event_idx').execute();
  await db.schema.alterTable('delivery_events').dropColumn('provider_event').execute();
}
