import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignsTable } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { createTestDatabase } from '../../test/app.ts';
import { insertUser } from '../auth/auth.repository.ts';
import type { EvidenceService } from '../evidence/evidence.service.ts';
import { noticeKind } from '../records/record-kinds.ts';
import { insertRecords, type RecordRow } from '../records/records.repository.ts';
import { listArchivedCampaigns, listArchivedRecords } from './archive.repository.ts';
import { ArchiveService } from './archive.service.ts';

const CAMPAIGNS = 230;
const RECORDS = 460;

describe('the archive paged by key', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const ownerId = newId();
  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database;
    const now = new Date().toISOString();
    await insertUser(db, { id: ownerId, name: 'A', username: 'a', password_hash: 'x', created_at: now });
    // A delete archives many rows at one instant: ties on archived_at are ordered by id.
    const archivedAt = (i: number) => new Date(Date.UTC(2026, 10, 1, 0, Math.floor(i / 10))).toISOString();
    const campaigns: CampaignsTable[] = Array.from({ length: CAMPAIGNS }, (_, i) => ({
      id: newId(),
      owner_id: ownerId,
      kind: 'notice',
      name: `Campaign ${i}`,
      source: 'import',
      imported_count: 0,
      skipped_count: 0,
      status: 'ready',
      job_id: null,
      created_at: now,
      archived_at: i % 5 === 0 ? null : archivedAt(i),
      column_mapping: null,
      duplicate_choice: null,
      duplicate_rows: null,
    }));
    for (let i = 0; i < campaigns.length; i += 100)
      await db
        .insertInto('campaigns')
        .values(campaigns.slice(i, i + 100))
        .execute();
    const rows: RecordRow[] = Array.from({ length: RECORDS }, (_, i) => {
      const row: RecordRow = {
        id: newId(),
        owner_id: ownerId,
        campaign_id: campaigns[i % CAMPAIGNS]!.id,
        created_at: now,
        updated_at: now,
      };
      for (const field of noticeKind.fields) row[field.key] = `${field.key} ${i}`;
      return row;
    });
    await insertRecords(db, noticeKind, rows);
    for (const [i, row] of rows.entries())
      if (i % 4 !== 0)
        await db
          .updateTable('notices')
          .set({ archived_at: archivedAt(i * 7) })
          .where('id', '=', row.id)
          .execute();
  }, 120_000);
  afterAll(async () => database?.close());

  const service = () => new ArchiveService(database.db, {} as EvidenceService, 7);

  it('answers first, middle, last and past-the-end pages of archived records as the OFFSET query did', async () => {
    const archive = service();
    for (const limit of [1, 10, 25]) {
      const { total } = await archive.records('notice', { page: 1, limit });
      expect(total).toBe(RECORDS - RECORDS / 4);
      const last = Math.ceil(total / limit);
      for (const page of [1, 2, Math.ceil(last / 2), last - 1, last, last + 1]) {
        const answer = await archive.records('notice', { page, limit });
        const expected = await listArchivedRecords(database.db, noticeKind, (page - 1) * limit, limit);
        expect(
          answer.items.map((r) => r._id),
          `page ${page} limit ${limit}`,
        ).toEqual(expected.map((r) => r.id));
      }
    }
  });

  it('answers first, middle, last and past-the-end pages of archived campaigns as the OFFSET query did', async () => {
    const archive = service();
    for (const limit of [1, 10, 25]) {
      const { total } = await archive.campaigns({ page: 1, limit });
      expect(total).toBe(CAMPAIGNS - CAMPAIGNS / 5);
      const last = Math.ceil(total / limit);
      for (const page of [1, 2, Math.ceil(last / 2), last - 1, last, last + 1]) {
        const answer = await archive.campaigns({ page, limit });
        const expected = await listArchivedCampaigns(database.db, (page - 1) * limit, limit);
        expect(
          answer.items.map((c) => c._id),
          `page ${page} limit ${limit}`,
        ).toEqual(expected.map((c) => c.id));
      }
    }
  });
});
