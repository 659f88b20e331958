import type { Role } from '@notice-desk/contract/auth';
import type { Database } from '../../db/database.ts';

/** The statements only the admin command line needs; the rest of the users' SQL is auth.repository.ts. */

export async function setUserRole(db: Database, id: string, role: Role, updatedAt: string): Promise<void> {
  await db.updateTable('users').set({ role, updated_at: updatedAt }).where('id', '=', id).execute();
}

/** Marks every unused reset link of a user as used, so none still works after an admin sets the password. */
export async function expirePasswordResets(db: Database, userId: string, now: string): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
