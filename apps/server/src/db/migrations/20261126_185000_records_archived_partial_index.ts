import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
const recordTables = ['credit_cards', 'notices'];

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of recordTables) {
    // Every read of this index asks for archived records (archived_at is not null), and almost no
    // record is archived: indexing the others made every imported row write an entry no query reads.
    await db.schema.dropIndex(`${table}_archived_idx`).execute();
    await db.schema
      .createIndex(`${table}_archived_idx`)
      .on(table)
      .column('archived_at')
      .where(sql.ref('archived_at'), 'is not', null)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of recordTables) {
    await db.schema.dropIndex(`${table}_archived_idx`).execute();
    await db.schema.createIndex(`${table}_archived_idx`).on(table).column('archived_at').execute();
  }
}
