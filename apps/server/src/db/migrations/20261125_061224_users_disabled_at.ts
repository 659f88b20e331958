import { type Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // When an ADMIN disabled the account (null while it is enabled): it cannot sign in, and its sessions
  // were deleted when it was set. Kept as a time rather than a flag, so the Users screen can say since when.
  await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
  // The last successful sign-in, for the Users screen; null for accounts that have not signed in since.
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('last_sign_in_at').execute();
  await db.schema.alterTable('users').dropColumn('disabled_at').execute();
}
