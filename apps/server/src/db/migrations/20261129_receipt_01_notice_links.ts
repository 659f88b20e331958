import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // One notice page per record (issue 29): its code is in every message, the same across resends.
  await db.schema
    .createTable('notice_links')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('record_kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Wrong answers to the check in a row (their values are never kept), and the lock they set.
    .addColumn('failed_checks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_by', 'text')
    .execute();
  await db.schema
    .createIndex('notice_links_record_idx')
    .on('notice_links')
    .columns(['record_kind', 'record_id'])
    .unique()
    .execute();

  // What a visitor did on a notice page: appended, never updated or deleted (the receipt evidence).
  await db.schema
    .createTable('notice_page_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('record_kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    // The channel whose message carried the link the visitor came by (null: not known).
    .addColumn('channel', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('detail', 'text')
    .execute();
  await db.schema
    .createIndex('notice_page_events_record_idx')
    .on('notice_page_events')
    .columns(['record_id', 'at'])
    .execute();
  await db.schema
    .createIndex('notice_page_events_campaign_idx')
    .on('notice_page_events')
    .columns(['campaign_id', 'event'])
    .execute();

  // A borrower's answer from the notice page: a dispute, a request to settle, a call-back request.
  await db.schema
    .createTable('notice_responses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('record_kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('file_key', 'text')
    .addColumn('file_name', 'text')
    .addColumn('file_type', 'text')
    .addColumn('file_sha256', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('handled_at', 'text')
    .addColumn('handled_by', 'text')
    .execute();
  await db.schema
    .createIndex('notice_responses_owner_idx')
    .on('notice_responses')
    .columns(['owner_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notice_responses').execute();
  await db.schema.dropTable('notice_page_events').execute();
  await db.schema.dropTable('notice_links').execute();
}
