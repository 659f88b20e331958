import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // A post delivery's article (issue 31): its S10 number, unique across every owner (India Post never
  // gives one twice), and its own path booked → in transit → delivered / returned. The delivery row
  // (channel 'post') holds the generic status and the trail; this holds what only post has.
  await db.schema
    .createTable('post_articles')
    .addColumn('delivery_id', 'text', (c) => c.primaryKey().references('deliveries.id'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('record_kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('article_number', 'text', (c) => c.notNull())
    .addColumn('article_type', 'text', (c) => c.notNull())
    .addColumn('post_status', 'text', (c) => c.notNull())
    .addColumn('return_reason', 'text')
    .addColumn('status_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('post_articles_number_idx')
    .on('post_articles')
    .column('article_number')
    .unique()
    .execute();
  // One article per record: a letter returned is posted again only after a person settles it.
  await db.schema
    .createIndex('post_articles_record_idx')
    .on('post_articles')
    .columns(['record_kind', 'record_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('post_articles_campaign_idx')
    .on('post_articles')
    .columns(['campaign_id', 'record_id'])
    .execute();

  // The scanned AD card or returned envelope of an article, kept with its SHA-256; appended only.
  await db.schema
    .createTable('post_proofs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('deliveries.id'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    // The date the card bears (YYYY-MM-DD), when given: the delivered date.
    .addColumn('delivered_on', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('post_proofs_delivery_idx').on('post_proofs').column('delivery_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('post_proofs').execute();
  await db.schema.dropTable('post_articles').execute();
}
