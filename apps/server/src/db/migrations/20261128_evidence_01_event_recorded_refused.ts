import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // When we wrote each event (a provider's own time, in `at`, may be earlier than our queued event, or
  // arrive late): the history is told in the order events reached us. Null for events before this.
  await db.schema.alterTable('delivery_events').addColumn('recorded_at', 'text').execute();
  // Why an event did not move the delivery's status (a 'delivered' after 'read', a 'failed' after
  // delivery); null when it moved it, or was only a note.
  await db.schema.alterTable('delivery_events').addColumn('refused', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('delivery_events').dropColumn('refused').execute();
  await db.schema.alterTable('delivery_events').dropColumn('recorded_at').execute();
}
