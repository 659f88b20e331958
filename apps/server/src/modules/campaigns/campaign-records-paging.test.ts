import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.ts';
import { createTestDatabase } from '../../test/app.ts';
import { insertUser } from '../auth/auth.repository.ts';
import { noticeKind } from '../records/record-kinds.ts';
import {
  adjustRecordCount,
  insertRecords,
  listCampaignRecords,
  type RecordRow,
} from '../records/records.repository.ts';
import { ensureManualCampaign } from './campaigns.repository.ts';
import { CampaignsService } from './campaigns.service.ts';

const TOTAL = 450;

describe("a campaign's records paged by key", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const ownerId = newId();
  let campaignId = '';
  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database;
    const now = new Date().toISOString();
    await insertUser(db, { id: ownerId, name: 'A', username: 'a', password_hash: 'x', created_at: now });
    campaignId = await ensureManualCampaign(db, ownerId, 'notice', now);
    const rows: RecordRow[] = Array.from({ length: TOTAL }, (_, i) => {
      const row: RecordRow = {
        id: newId(),
        owner_id: ownerId,
        campaign_id: campaignId,
        created_at: now,
        updated_at: now,
      };
      for (const field of noticeKind.fields) row[field.key] = `${field.key} ${i}`;
      return row;
    });
    await insertRecords(db, noticeKind, rows);
    await adjustRecordCount(db, ownerId, 'notice', rows.length);
    // Every ninth record was deleted (archived): in no page.
    const archived = rows.filter((_, i) => i % 9 === 0).map((r) => r.id);
    await db.updateTable('notices').set({ archived_at: now }).where('id', 'in', archived).execute();
    await adjustRecordCount(db, ownerId, 'notice', -archived.length);
  });
  afterAll(async () => database?.close());

  const offsetPage = async (page: number, limit: number) =>
    (await listCampaignRecords(database.db, noticeKind, ownerId, campaignId, (page - 1) * limit, limit)).map(
      (r) => r.id,
    );

  it('answers first, middle, last and past-the-end pages as the OFFSET query did', async () => {
    const service = new CampaignsService(database.db, 7);
    for (const limit of [1, 10, 25]) {
      const { total } = await service.single(ownerId, campaignId, { page: 1, limit });
      expect(total).toBe(TOTAL - Math.ceil(TOTAL / 9));
      const last = Math.ceil(total / limit);
      for (const page of [1, 2, Math.ceil(last / 2), last - 1, last, last + 1]) {
        const answer = await service.single(ownerId, campaignId, { page, limit });
        expect(
          answer.notices!.map((r) => r._id),
          `page ${page} limit ${limit}`,
        ).toEqual(await offsetPage(page, limit));
      }
    }
  });

  it('sees a record deleted after the boundaries were taken', async () => {
    const service = new CampaignsService(database.db, 7);
    await service.single(ownerId, campaignId, { page: 6, limit: 10 });
    const [first] = await listCampaignRecords(database.db, noticeKind, ownerId, campaignId, 0, 1);
    await database.db
      .updateTable('notices')
      .set({ archived_at: new Date().toISOString() })
      .where('id', '=', first!.id)
      .execute();
    await adjustRecordCount(database.db, ownerId, 'notice', -1);
    expect(
      (await service.single(ownerId, campaignId, { page: 6, limit: 10 })).notices!.map((r) => r._id),
    ).toEqual(await offsetPage(6, 10));
  });
});
