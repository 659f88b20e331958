import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // 1 where the line made the import skip its row, 0 where it is a note on a row that was imported
  // (an unknown language): a running import's progress counts the skipped rows only.
  await db.schema
    .alterTable('import_problems')
    .addColumn('skips_row', 'integer', (column) => column.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('import_problems').dropColumn('skips_row').execute();
}
