import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // The funnel reads a campaign's attempts and page events record by record: these hold every column
  // it reads, in that order, so it never visits the tables (0.3 s at 100,000 records without them).
  await db.schema
    .createIndex('deliveries_funnel_idx')
    .on('deliveries')
    .columns(['campaign_id', 'record_id', 'channel', 'status'])
    .execute();
  await db.schema
    .createIndex('notice_page_events_funnel_idx')
    .on('notice_page_events')
    .columns(['campaign_id', 'record_id', 'event', 'channel'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('notice_page_events_funnel_idx').execute();
  await db.schema.dropIndex('deliveries_funnel_idx').execute();
}
