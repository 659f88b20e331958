import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // One verification code per record (issue 30): printed on every notice as a QR code and a link,
  // /v/<code>; its own code, not the notice page's, the same across resends and renders.
  await db.schema
    .createTable('verify_codes')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('record_kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('verify_codes_record_idx')
    .on('verify_codes')
    .columns(['record_kind', 'record_id'])
    .unique()
    .execute();
  // A dropped file is found by its SHA-256 among the files served.
  await db.schema.createIndex('deliveries_pdf_sha256_idx').on('deliveries').column('pdf_sha256').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('deliveries_pdf_sha256_idx').execute();
  await db.schema.dropTable('verify_codes').execute();
}
