import { sql } from 'kysely';
import { usernameKey } from '@notice-desk/contract/auth';
import type { Database } from '../../db/database.ts';
import type { SessionsTable, UsersTable } from '../../db/schema.ts';
import { usernameSkeleton } from '../../lib/username-skeleton.ts';

export type UserRow = UsersTable;

export function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The account a username names, in any case or normalisation form: the one with its key. An account kept
 * from before keys (a duplicate by key; see the usernames migration) is found by its exact username.
 */
export async function findUserByUsername(db: Database, username: string): Promise<UserRow | undefined> {
  const key = usernameKey(username);
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('username_key', '=', key), eb('username', '=', username)]))
    .limit(2)
    .execute();
  return rows.find((row) => row.username === username) ?? rows.find((row) => row.username_key === key);
}

/** Accounts whose username has this key or this look-alike skeleton. */
export function findUsersLike(db: Database, key: string, skeleton: string): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('username_key', '=', key), eb('username_skeleton', '=', skeleton)]))
    .limit(10)
    .execute();
}

export async function anyUserExists(db: Database): Promise<boolean> {
  return (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Inserts a user with its username key and skeleton. The first account ever created becomes ADMIN,
 * decided in the same statement; it is also marked `first_account`, whose unique index makes a second
 * "first" account inserted at the same moment (PostgreSQL, another transaction) fail instead of becoming
 * ADMIN too. With `onlyIfFirst` nothing is inserted unless the table is empty (undefined is answered).
 */
export async function insertUser(
  db: Database,
  user: Pick<UserRow, 'id' | 'name' | 'username' | 'password_hash' | 'created_at'>,
  { onlyIfFirst = false }: { onlyIfFirst?: boolean } = {},
): Promise<UserRow | undefined> {
  const first = sql<boolean>`not exists (select 1 from users)`;
  const result = await db
    .insertInto('users')
    .columns([
      'id',
      'name',
      'username',
      'username_key',
      'username_skeleton',
      'password_hash',
      'role',
      'first_account',
      'tokens_valid_after',
      'created_at',
      'updated_at',
    ])
    .expression(
      db
        .selectNoFrom([
          sql.val(user.id).as('id'),
          sql.val(user.name).as('name'),
          sql.val(user.username).as('username'),
          sql.val(usernameKey(user.username)).as('username_key'),
          sql.val(usernameSkeleton(user.username)).as('username_skeleton'),
          sql.val(user.password_hash).as('password_hash'),
          sql<string>`case when ${first} then 'ADMIN' else 'USER' end`.as('role'),
          sql<number | null>`case when ${first} then 1 else null end`.as('first_account'),
          sql.lit(0).as('tokens_valid_after'),
          sql.val(user.created_at).as('created_at'),
          sql.val(user.created_at).as('updated_at'),
        ])
        .$if(onlyIfFirst, (query) => query.where(first)),
    )
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return undefined;
  return findUserById(db, user.id);
}

/** Changes a user; a new username brings its key and skeleton along. */
export async function updateUser(
  db: Database,
  id: string,
  changes: Partial<Pick<UserRow, 'name' | 'username' | 'password_hash' | 'tokens_valid_after'>>,
  updatedAt: string,
): Promise<void> {
  const username =
    changes.username === undefined
      ? {}
      : {
          username_key: usernameKey(changes.username),
          username_skeleton: usernameSkeleton(changes.username),
        };
  await db
    .updateTable('users')
    .set({ ...changes, ...username, updated_at: updatedAt })
    .where('id', '=', id)
    .execute();
}

/** Users whose look-alike skeleton is not computed yet (accounts from before the column). */
export function findUsersWithoutSkeleton(db: Database): Promise<Pick<UserRow, 'id' | 'username'>[]> {
  return db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('username_skeleton', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function setUsernameSkeleton(db: Database, id: string, skeleton: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ username_skeleton: skeleton })
    .where('id', '=', id)
    .where('username_skeleton', 'is', null)
    .execute();
}

export async function insertSession(db: Database, session: SessionsTable): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

/**
 * The user of a session that is still open: the row of `sessionId`, belonging to `userId`, unexpired, of
 * an enabled account. (Disabling deletes the sessions too; this also refuses one a sign-in racing the
 * disable opened.)
 */
export function findSessionUser(
  db: Database,
  sessionId: string,
  userId: string,
  now: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .where('sessions.id', '=', sessionId)
    .where('sessions.user_id', '=', userId)
    .where('sessions.expires_at', '>', now)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
}

/** Notes a successful sign-in, for the ADMIN's Users screen. */
export async function recordSignIn(db: Database, id: string, at: string): Promise<void> {
  await db.updateTable('users').set({ last_sign_in_at: at }).where('id', '=', id).execute();
}

/** Ends the user's sessions, all of them or all but `keep`, and answers how many were open. */
export async function deleteSessions(db: Database, userId: string, keep?: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .$if(keep !== undefined, (query) => query.where('id', '!=', keep!))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ends one session (a logout). */
export async function deleteSession(db: Database, userId: string, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('id', '=', sessionId).execute();
}

/** Moves an open session's end; answers false when the session has ended meanwhile. */
export async function extendSession(
  db: Database,
  sessionId: string,
  now: string,
  expiresAt: string,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ expires_at: expiresAt })
    .where('id', '=', sessionId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteExpiredSessions(db: Database, userId: string, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
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
