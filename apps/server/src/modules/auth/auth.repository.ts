import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { UsersTable } from '../../db/schema.ts';

export type UserRow = UsersTable;

export function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByUsername(db: Database, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

/** Inserts a user; the first account ever created becomes ADMIN, decided in the same statement. */
export async function insertUser(
  db: Database,
  user: Pick<UserRow, 'id' | 'name' | 'username' | 'password_hash' | 'created_at'>,
): Promise<UserRow> {
  await db
    .insertInto('users')
    .columns([
      'id',
      'name',
      'username',
      'password_hash',
      'role',
      'tokens_valid_after',
      'created_at',
      'updated_at',
    ])
    .expression(
      db.selectNoFrom([
        sql.val(user.id).as('id'),
        sql.val(user.name).as('name'),
        sql.val(user.username).as('username'),
        sql.val(user.password_hash).as('password_hash'),
        sql<string>`case when exists (select 1 from users) then 'USER' else 'ADMIN' end`.as('role'),
        sql.lit(0).as('tokens_valid_after'),
        sql.val(user.created_at).as('created_at'),
        sql.val(user.created_at).as('updated_at'),
      ]),
    )
    .execute();
  return (await findUserById(db, user.id))!;
}

export async function updateUser(
  db: Database,
  id: string,
  changes: Partial<Pick<UserRow, 'name' | 'username' | 'password_hash' | 'tokens_valid_after'>>,
  updatedAt: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...changes, updated_at: updatedAt })
    .where('id', '=', id)
    .execute();
}

export async function insertPasswordReset(
  db: Database,
  reset: { id: string; user_id: string; token_hash: string; expires_at: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({ ...reset, used_at: null })
    .execute();
}

/** Marks an unused, unexpired reset as used and returns its user id; null when there is none. */
export async function consumePasswordReset(
  db: Database,
  tokenHash: string,
  now: string,
): Promise<string | null> {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}
