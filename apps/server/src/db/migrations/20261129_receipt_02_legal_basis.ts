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
  // The service filters read a campaign's deliveries by record, and each one's dispatch and receipt
  // events (status, time, refusal) from the index alone.
  await db.schema
    .createIndex('deliveries_campaign_record_idx')
    .on('deliveries')
    .columns(['campaign_id', 'record_id', 'id'])
    .execute();
  await db.schema
    .createIndex('delivery_events_service_idx')
    .on('delivery_events')
    .columns(['delivery_id', 'status', 'at', 'refused'])
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
  await db.schema.dropIndex('delivery_events_service_idx').execute();
  await db.schema.dropIndex('deliveries_campaign_record_idx').execute();
  await db.schema.dropTable('legal_bases').execute();
}
