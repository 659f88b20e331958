import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.

/**
 * Runs outside a transaction (db/migrate.ts), so that on PostgreSQL the indexes are built
 * CONCURRENTLY: record tables with rows keep taking writes while they are built.
 */
export const outsideTransaction = true;

/**
 * A send asks which of its records' borrowers (the same loan number or AAN, trimmed, in any case)
 * another campaign served lately (RESERVE_WARN_DAYS). With no index on the borrower, SQLite read every
 * delivery for each request of 10 records: 5 ms a notice at 1,000 notices sent, 15 ms on a resend,
 * growing with every notice sent. Indexed, each record finds its borrower's other records, then their
 * deliveries, by index.
 */
const borrowerIndexes = [
  { name: 'notices_owner_borrower_idx', table: 'notices', column: 'loanNo' },
  { name: 'credit_cards_owner_borrower_idx', table: 'credit_cards', column: 'aanNo' },
];

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = await isPostgres(db);
  for (const { name, table, column } of borrowerIndexes) {
    const on = sql`${sql.table(table)} (owner_id, lower(trim(${sql.ref(column)})))`;
    // CONCURRENTLY waits for every transaction older than it to end: worth it on a table with rows.
    if (postgres && (await db.selectFrom(table).select('id').limit(1).execute()).length > 0) {
      // A build that failed leaves an INVALID index behind: dropped, so the rerun builds it again.
      await sql`drop index concurrently if exists ${sql.ref(name)}`.execute(db);
      await sql`create index concurrently ${sql.ref(name)} on ${on}`.execute(db);
    } else {
      await sql`create index ${sql.ref(name)} on ${on}`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { name } of borrowerIndexes) await db.schema.dropIndex(name).ifExists().execute();
}

const isPostgres = async (db: Kysely<any>) =>
  (await sql<{ v: string }>`select version() as v`.execute(db).catch(() => undefined))?.rows[0]?.v.startsWith(
    'PostgreSQL',
  ) ?? false;
