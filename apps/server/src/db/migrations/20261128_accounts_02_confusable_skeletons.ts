import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
// Look-alike skeletons are now made from Unicode's whole confusables table: the stored ones, made from
// a smaller list, are cleared, and the start makes them afresh (fillUsernameSkeletons).
export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('users').set({ username_skeleton: null }).execute();
}

export async function down(): Promise<void> {
  // Nothing to undo: the start makes every cleared skeleton again.
}
