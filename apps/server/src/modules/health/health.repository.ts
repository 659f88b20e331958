import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

/** Runs the smallest query there is: it throws when the database cannot be reached. */
export async function pingDatabase(db: Database): Promise<void> {
  await sql`select 1`.execute(db);
}
