import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.ts';
import { createTestDatabase } from '../../test/app.ts';
import { insertUser } from '../auth/auth.repository.ts';
import { ensureManualCampaign } from '../campaigns/campaigns.repository.ts';
import { noticeKind } from './record-kinds.ts';
import { adjustRecordCount, insertRecords, listRecords, type RecordRow } from './records.repository.ts';
import { RecordsService } from './records.service.ts';
import { PdfLinks } from '../../lib/pdf/links.ts';

describe('deep pages of a long list', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const ownerId = newId();
  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database;
    const now = new Date().toISOString();
    await insertUser(db, { id: ownerId, name: 'A', username: 'a', password_hash: 'x', created_at: now });
    const campaignId = await ensureManualCampaign(db, ownerId, 'notice', now);
    // Every field filled: more rows than one statement may bind, so the insert must split them.
    const rows: RecordRow[] = Array.from({ length: 1500 }, (_, i) => {
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
  });
  afterAll(async () => database.close());

  it('serves every page exactly as a plain offset query would, across boundaries', async () => {
    const service = new RecordsService(database.db, new PdfLinks('test-secret'), 7);
    for (const limit of [1, 5, 10, 13]) {
      for (let page = 1; page <= Math.min(40, Math.ceil(1500 / limit) + 1); page++) {
        const expected = await listRecords(database.db, noticeKind, ownerId, (page - 1) * limit, limit);
        const { items, total } = await service.list(noticeKind, ownerId, { page, limit });
        expect(total).toBe(1500);
        expect(
          items.map((r) => r._id),
          `page ${page} limit ${limit}`,
        ).toEqual(expected.map((r) => r.id));
      }
    }
  });

  it('sees a write made after the boundaries were taken', async () => {
    const service = new RecordsService(database.db, new PdfLinks('test-secret'), 7);
    const before = await service.list(noticeKind, ownerId, { page: 3, limit: 10 });
    const [first] = await listRecords(database.db, noticeKind, ownerId, 0, 1);
    await database.db.deleteFrom('notices').where('id', '=', first!.id).execute();
    await adjustRecordCount(database.db, ownerId, 'notice', -1);
    const after = await service.list(noticeKind, ownerId, { page: 3, limit: 10 });
    expect(after.total).toBe(1499);
    expect(after.items[0]!._id).toBe(before.items[1]!._id);
  });
});
