import type { Database } from '../../db/database.ts';

/**
 * Notes that WhatsApp failed a message for its media id (WhatsApp's time, `failedAt`); notes older
 * than `keepMs` go, since no media id that old is used again.
 */
export async function noteMediaFailure(
  db: Database,
  mediaId: string,
  failedAt: string,
  keepMs: number,
): Promise<void> {
  const oldest = new Date(Date.now() - keepMs).toISOString();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('whatsapp_media_failures').where('failed_at', '<', oldest).execute();
    await trx
      .insertInto('whatsapp_media_failures')
      .values({ media_id: mediaId, failed_at: failedAt })
      .onConflict((oc) => oc.column('media_id').doNothing())
      .execute();
  });
}

/** Whether WhatsApp failed a message for this media id. */
export async function mediaFailed(db: Database, mediaId: string): Promise<boolean> {
  const found = await db
    .selectFrom('whatsapp_media_failures')
    .select('media_id')
    .where('media_id', '=', mediaId)
    .executeTakeFirst();
  return found !== undefined;
}
