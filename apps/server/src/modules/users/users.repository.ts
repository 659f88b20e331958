import { sql } from 'kysely';
import { isPostgres, type Database } from '../../db/database.ts';
import type { UserRow } from '../auth/auth.repository.ts';

/** The ADMIN's statements about accounts; creating one, sessions and roles are auth's and the admin CLI's. */

/** An account's place in the Users list: username order (case and normalisation folded), then id. */
export type UserKey = readonly [usernameKey: string, id: string];

/** A page of accounts in username order, `offset` rows on from the account at `from` (included) when given. */
export function listUsers(
  db: Database,
  { offset, limit, from }: { offset: number; limit: number; from?: UserKey },
): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .$if(from !== undefined, (query) =>
      query.where((eb) => eb(eb.refTuple('username_key', 'id'), '>=', eb.tuple(from![0], from![1]))),
    )
    .orderBy('username_key')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The accounts at positions 0, stride, 2·stride, … of the Users list: one pass over its index. */
export async function userBoundaries(db: Database, stride: number): Promise<UserKey[]> {
  const ranked = db
    .selectFrom('users')
    .select([
      'username_key',
      'id',
      sql<number>`row_number() over (order by username_key, id)`.as('position'),
    ]);
  const rows = await db
    .selectFrom(ranked.as('ranked'))
    .select(['ranked.username_key', 'ranked.id'])
    .where(sql<boolean>`(ranked.position - 1) % ${stride} = 0`)
    .orderBy('ranked.username_key')
    .orderBy('ranked.id')
    .execute();
  // Every account has a key: sign-up and the admin command line set it, the migration filled the rest.
  return rows.map((row) => [row.username_key!, row.id] as const);
}

/**
 * How many accounts there are, and a version of the list's order: accounts are never deleted, so a new
 * account (the count) or a rename (the newest change) is what moves rows in it.
 */
export async function usersState(db: Database): Promise<{ total: number; version: string }> {
  const row = await db
    .selectFrom('users')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('updated_at').as('changed')])
    .executeTakeFirst();
  const total = Number(row?.n ?? 0);
  return { total, version: `${total}:${row?.changed ?? ''}` };
}

/**
 * The ids of the enabled ADMINs. On PostgreSQL their rows stay locked until the transaction ends, so two
 * ADMINs demoting or disabling each other at once cannot both see the other as the one left: the second
 * waits, and then reads the first's change. (SQLite runs one writing transaction at a time anyway.)
 */
export async function lockEnabledAdmins(db: Database): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'ADMIN')
    .where('disabled_at', 'is', null)
    .$if(isPostgres(db), (query) => query.forUpdate())
    .execute();
  return rows.map((row) => row.id);
}

/** Disables (an instant) or enables (null) an account. */
export async function setDisabledAt(
  db: Database,
  id: string,
  disabledAt: string | null,
  updatedAt: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ disabled_at: disabledAt, updated_at: updatedAt })
    .where('id', '=', id)
    .execute();
}
