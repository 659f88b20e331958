import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // How many times a worker took the job over because the one running it stopped renewing its lease
  // (its process died or hung): a job that took a process down is not simply run again the same way.
  await db.schema
    .alterTable('jobs')
    .addColumn('lost_leases', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('lost_leases').execute();
}
