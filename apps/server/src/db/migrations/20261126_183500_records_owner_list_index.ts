import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
const recordTables = ['credit_cards', 'notices'];

/**
 * The owner index held live rows, archived ones too, so a list page (`archived_at is null`) read the
 * table row of every entry it skipped to check it: up to 100 a page, from a million-row table that no
 * cache holds. It now holds exactly the rows a list shows, and skipping stays in the index.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of recordTables) {
    await db.schema.dropIndex(`${table}_owner_live_idx`).execute();
    await db.schema
      .createIndex(`${table}_owner_listed_idx`)
      .on(table)
      .columns(['owner_id', 'id'])
      .where((eb) =>
        eb.and([eb(sql.ref('record_state'), '=', sql.lit('live')), eb(sql.ref('archived_at'), 'is', null)]),
      )
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of recordTables) {
    await db.schema.dropIndex(`${table}_owner_listed_idx`).execute();
    await db.schema
      .createIndex(`${table}_owner_live_idx`)
      .on(table)
      .columns(['owner_id', 'id'])
      .where(sql.ref('record_state'), '=', 'live')
      .execute();
  }
}
