import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // The column mapping an import used (JSON: header row and each column's field or null), kept with
  // its campaign; null for campaigns from before it was kept and for 'Manual entries'.
  await db.schema.alterTable('campaigns').addColumn('column_mapping', 'text').execute();
  // The mapping a user confirmed for a header row, per kind, found again by the header row's
  // normalised text (hashed), so the same sheet layout is pre-filled the next time.
  await db.schema
    .createTable('import_mappings')
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('header_key', 'text', (c) => c.notNull())
    .addColumn('mapping', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_mappings_pk', ['owner_id', 'kind', 'header_key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_mappings').execute();
  await db.schema.alterTable('campaigns').dropColumn('column_mapping').execute();
}
