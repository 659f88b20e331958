import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // The fallback between channels (issue 31): a ladder per record kind (scope 'kind', the default an
  // ADMIN sets) and per campaign that has its own (scope 'campaign'); the ladder is JSON.
  await db.schema
    .createTable('fallback_ladders')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('scope_id', 'text', (c) => c.notNull())
    .addColumn('ladder', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('fallback_ladders_pk', ['scope', 'scope_id'])
    .execute();
  // One row per record and step (a channel is used once in a ladder): its key is the claim, so of any
  // workers that find a step due, one inserts the row and takes it; the row then keeps the decision.
  await db.schema
    .createTable('fallback_steps')
    .addColumn('record_kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('step_after', 'integer', (c) => c.notNull())
    .addColumn('step_unless', 'text')
    // 'claimed' while a worker takes it, then 'taken', 'skipped' or 'not_sent'.
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('decision', 'text')
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    // The delivery whose trail holds the decision in words.
    .addColumn('delivery_id', 'text')
    .addPrimaryKeyConstraint('fallback_steps_pk', ['record_kind', 'record_id', 'channel'])
    .execute();
  // A campaign's records a post step made post records (the print file, labels, booking list).
  await db.schema
    .createIndex('fallback_steps_campaign_idx')
    .on('fallback_steps')
    .columns(['campaign_id', 'channel', 'outcome', 'record_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fallback_steps').execute();
  await db.schema.dropTable('fallback_ladders').execute();
}
