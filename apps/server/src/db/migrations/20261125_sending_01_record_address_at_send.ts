import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // What the record's e-mail or mobile said when a send last handed the delivery to its provider. The
  // message always goes to `recipient` (recorded when the send was asked); when the record was edited
  // in between, the two differ and the delivery shows both.
  await db.schema.alterTable('deliveries').addColumn('record_address_at_send', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deliveries').dropColumn('record_address_at_send').execute();
}
