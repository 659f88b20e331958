import { type Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // rate-limiter-flexible's store layout: the points a key has used in its window, and when the window
  // ends (epoch milliseconds). Every API process counts here, so a limit holds across all of them.
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('expire', 'bigint')
    .execute();
  await db.schema.createIndex('rate_limits_expire_idx').on('rate_limits').column('expire').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
}
