import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // What an import did with rows its owner had already imported ('skip', 'new' or 'update'), and how
  // many rows that was; null for manual entries and imports from before the choice.
  await db.schema.alterTable('campaigns').addColumn('duplicate_choice', 'text').execute();
  await db.schema.alterTable('campaigns').addColumn('duplicate_rows', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('campaigns').dropColumn('duplicate_rows').execute();
  await db.schema.alterTable('campaigns').dropColumn('duplicate_choice').execute();
}
