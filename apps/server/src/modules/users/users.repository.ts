import type { UserListQuery } from '@notice-desk/contract/users';
import { isPostgres, type Database } from '../../db/database.ts';
import type { UserRow } from '../auth/auth.repository.ts';

/** The ADMIN's statements about accounts; creating one, sessions and roles are auth's and the admin CLI's. */

/** A page of accounts in username order (case and normalisation folded), with how many there are. */
export async function listUsers(
  db: Database,
  { page, limit }: UserListQuery,
): Promise<{ rows: UserRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('users')
      .selectAll()
      .orderBy('username_key')
      .orderBy('id')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
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
