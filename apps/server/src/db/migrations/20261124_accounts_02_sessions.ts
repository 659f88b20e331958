import { type Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  // One row per sign-in; a session token names its row (the `sid` claim) and is refused once the row is
  // gone. A password change deletes every other row of the user, a reset every row.
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sessions_user_idx')
    .on('sessions')
    .columns(['user_id', 'expires_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
}
