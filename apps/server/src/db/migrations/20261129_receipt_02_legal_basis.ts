import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // A notice's legal basis and response period (issue 29): one row per record kind (the default) and
  // one per campaign that overrides it. scope is 'kind' (scope_id the record kind) or 'campaign'.
  await db.schema
    .createTable('legal_bases')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('scope_id', 'text', (c) => c.notNull())
    .addColumn('basis', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('period_days', 'integer', (c) => c.notNull())
    .addColumn('served_when', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('legal_bases_pk', ['scope', 'scope_id'])
    .execute();
  // The service filters read a campaign's notice page events by record (opened, acknowledged, disputed).
  await db.schema
    .createIndex('notice_page_events_campaign_record_idx')
    .on('notice_page_events')
    .columns(['campaign_id', 'event', 'record_id', 'at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('notice_page_events_campaign_record_idx').execute();
  await db.schema.dropTable('legal_bases').execute();
}
