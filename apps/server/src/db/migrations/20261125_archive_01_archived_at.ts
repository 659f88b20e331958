import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // A served record (one with a delivery that was attempted or is being sent) is never erased by a
  // delete: it is archived instead, set aside from every list, count and search, and kept with its
  // deliveries, events and PDFs as evidence. A campaign holding archived records is archived with them.
  for (const table of ['credit_cards', 'notices', 'campaigns']) {
    await db.schema.alterTable(table).addColumn('archived_at', 'text').execute();
    // The ADMIN's archive lists read newest archived first.
    await db.schema.createIndex(`${table}_archived_idx`).on(table).column('archived_at').execute();
  }
  // When each scheduled chore (the daily retention sweep) last ran: one process claims a run by moving
  // last_run_at forward in one guarded update, so a chore runs once however many processes there are.
  await db.schema
    .createTable('scheduled_runs')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('last_run_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('scheduled_runs').execute();
  for (const table of ['campaigns', 'notices', 'credit_cards']) {
    await db.schema.dropIndex(`${table}_archived_idx`).execute();
    await db.schema.alterTable(table).dropColumn('archived_at').execute();
  }
}
