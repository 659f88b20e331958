import { type Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // The actor's username when the entry was written. actor_id keeps who it was; this keeps what they
  // were called then, so a renamed user's past actions still read, and are found, under the old name.
  // Entries written before this column have none (null): they show the current name only.
  await db.schema.alterTable('audit_log').addColumn('actor_username', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_log').dropColumn('actor_username').execute();
}
