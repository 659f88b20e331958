import type { Database } from '../../db/database.ts';
import type { UploadsTable } from '../../db/schema.ts';

export async function insertUpload(db: Database, upload: UploadsTable): Promise<void> {
  await db.insertInto('uploads').values(upload).execute();
}

export function findUpload(
  db: Database,
  ownerId: string,
  storedName: string,
): Promise<UploadsTable | undefined> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('stored_name', '=', storedName)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
}

export async function deleteUpload(db: Database, ownerId: string, storedName: string): Promise<void> {
  await db
    .deleteFrom('uploads')
    .where('stored_name', '=', storedName)
    .where('owner_id', '=', ownerId)
    .execute();
}
