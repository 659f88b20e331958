import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // The DLT template each record kind's SMS goes on (issue 31): its id on the DLT platform, its text
  // as registered there ({#var#} slots), and the SMS text with a placeholder where each slot is.
  await db.schema
    .createTable('sms_dlt_templates')
    .addColumn('record_kind', 'text', (c) => c.primaryKey())
    .addColumn('dlt_template_id', 'text', (c) => c.notNull())
    .addColumn('registered_text', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sms_dlt_templates').execute();
}
