import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.

/**
 * Runs outside a transaction (db/migrate.ts), so that on PostgreSQL the index is built CONCURRENTLY:
 * a table with rows in it keeps taking writes while it is built. An index on a record table is added
 * the same way, in a migration of its own.
 */
export const outsideTransaction = true;

// The ADMIN's job list (GET /api/jobs), newest first.
export async function up(db: Kysely<any>): Promise<void> {
  // CONCURRENTLY waits for every transaction older than it in the database to end: worth it on a
  // table with rows, which keeps taking writes meanwhile; an empty one (a new database) is indexed at once.
  if ((await isPostgres(db)) && (await db.selectFrom('jobs').select('id').limit(1).execute()).length > 0) {
    // A build that failed leaves an INVALID index behind: dropped, so the rerun builds it again.
    await sql`drop index concurrently if exists jobs_list_idx`.execute(db);
    await sql`create index concurrently jobs_list_idx on jobs (created_at, id)`.execute(db);
  } else {
    await db.schema.createIndex('jobs_list_idx').on('jobs').columns(['created_at', 'id']).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_list_idx').ifExists().execute();
}

const isPostgres = async (db: Kysely<any>) =>
  (await sql<{ v: string }>`select version() as v`.execute(db).catch(() => undefined))?.rows[0]?.v.startsWith(
    'PostgreSQL',
  ) ?? false;
