import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // How an approved template carries the notice page's link (issue 29): 'button' (a URL button's dynamic
  // suffix, at link_button_index), 'body' (one body parameter more than the mapped fields) or 'none'.
  // Null on a template set before: read as 'none' until it is set again.
  await db.schema.alterTable('whatsapp_approved_templates').addColumn('link_by', 'text').execute();
  await db.schema
    .alterTable('whatsapp_approved_templates')
    .addColumn('link_button_index', 'integer')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('whatsapp_approved_templates').dropColumn('link_button_index').execute();
  await db.schema.alterTable('whatsapp_approved_templates').dropColumn('link_by').execute();
}
