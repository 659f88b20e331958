import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
const recordTables = ['credit_cards', 'notices'];

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of recordTables) {
    // 'importing' while an import holds the row hidden (rows are written as the file is read, under
    // their owner), 'live' once the import hands them over. Until now a hidden row had no owner ('').
    await db.schema
      .alterTable(table)
      .addColumn('record_state', 'text', (c) => c.notNull().defaultTo('live'))
      .execute();
    await db.updateTable(table).set({ record_state: 'importing' }).where('owner_id', '=', '').execute();
    // The owner's list reads (owner_id, id) newest first. Live rows only: an import's hidden rows never
    // sit between them to be skipped, and writing them costs this index nothing until the hand-over.
    await db.schema.dropIndex(`${table}_owner_created_idx`).execute();
    await db.schema
      .createIndex(`${table}_owner_live_idx`)
      .on(table)
      .columns(['owner_id', 'id'])
      .where(sql.ref('record_state'), '=', 'live')
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of recordTables) {
    await db.schema.dropIndex(`${table}_owner_live_idx`).execute();
    await db.schema.createIndex(`${table}_owner_created_idx`).on(table).columns(['owner_id', 'id']).execute();
    await db.updateTable(table).set({ owner_id: '' }).where('record_state', '=', 'importing').execute();
    await db.schema.alterTable(table).dropColumn('record_state').execute();
  }
}
