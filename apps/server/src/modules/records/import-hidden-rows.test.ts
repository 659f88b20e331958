import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.ts';
import * as recordState from '../../db/migrations/20261126_151722_records_record_state.ts';
import * as ownerListIndex from '../../db/migrations/20261126_183500_records_owner_list_index.ts';
import * as campaignCounts from '../../db/migrations/20261201_campaign_counts_01_versions.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp, createTestDatabase, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { insertUser } from '../auth/auth.repository.ts';
import { insertImportCampaign, markCampaignReady } from '../campaigns/campaigns.repository.ts';
import { indexRecords } from '../search/search-index.ts';
import { noticeKind } from './record-kinds.ts';
import * as records from './records.repository.ts';

// The rows an import has written so far, under a campaign still 'importing', as import.job.ts leaves
// them until its hand-over: they are in no list, count, search or dashboard of their owner.
let t: TestApp;
let asha: SignedIn;
let db: Database;
let manualCampaignId: string;
const importingCampaignId = newId();
const liveIds: string[] = [];
const hiddenIds = [newId(), newId(), newId()];

const get = async <T>(url: string): Promise<T> => {
  const res = await t.app.inject({ method: 'GET', url, headers: asha.headers });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json<T>();
};
const sample = (custName: string) => ({
  ...Object.fromEntries(noticeFields.map((f) => [f.key, `${f.key} sample`])),
  custName,
});

beforeAll(async () => {
  t = await createTestApp();
  asha = await signUp(t.app, 'asha');
  for (const name of ['Lata Shown', 'Mohan Shown']) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/notices',
      headers: asha.headers,
      payload: sample(name),
    });
    expect(res.statusCode, res.body).toBe(201);
    liveIds.push(res.json<{ _id: string; campaignId: string }>()._id);
    manualCampaignId = res.json<{ campaignId: string }>().campaignId;
  }
  ({ db } = await openDatabase(t.config));
  const now = new Date().toISOString();
  const running = { id: importingCampaignId, kind: 'notice' as const, name: 'running.xlsx' };
  await insertImportCampaign(db, { ...running, owner_id: asha.userId, job_id: newId(), created_at: now });
  const rows = hiddenIds.map((id) => ({
    ...sample('Hidden Person'),
    id,
    owner_id: asha.userId,
    record_state: records.IMPORTING,
    campaign_id: importingCampaignId,
    created_at: now,
    updated_at: now,
  }));
  await records.insertRecords(db, noticeKind, rows);
  await indexRecords(db, 'notice', asha.userId, rows);
});
afterAll(async () => {
  await db?.destroy();
  await t?.close();
});

/** What every screen shows asha: list, search, campaigns, a campaign's detail, the dashboard. */
async function whatAshaSees() {
  const list = await get<{ items: { _id: string }[]; total: number }>(
    '/api/notices/by-user-id?page=1&limit=50',
  );
  const listSearch = await get<{ total: number }>('/api/notices/by-user-id?page=1&limit=50&search=hidden');
  const search = await get<{ results: unknown[] }>('/api/search?q=hidden');
  const campaigns = await get<{ total: number }>('/api/campaigns/notice?page=1&limit=50');
  const manual = await get<{ total: number }>(`/api/campaigns/single-campaign/${manualCampaignId}`);
  const importing = await t.app.inject({
    method: 'GET',
    url: `/api/campaigns/single-campaign/${importingCampaignId}`,
    headers: asha.headers,
  });
  const dashboard = await get<{ totalNotices: number; totalNoticeCampaigns: number }>('/api/dashboard');
  const deleteAll = await get<{ erase: number; archive: number }>('/api/notices/delete-all-notices/preview');
  return {
    listIds: list.items.map((item) => item._id).sort(),
    listTotal: list.total,
    listSearchTotal: listSearch.total,
    searchResults: search.results.length,
    campaigns: campaigns.total,
    manualCampaignTotal: manual.total,
    importingCampaign: importing.statusCode,
    dashboard: { notices: dashboard.totalNotices, campaigns: dashboard.totalNoticeCampaigns },
    deleteAllWouldErase: deleteAll.erase,
  };
}

describe('rows of an import still running', () => {
  it('are in no list, count, search or dashboard, nor in any read of the records repository', async () => {
    expect(await whatAshaSees()).toEqual({
      listIds: [...liveIds].sort(),
      listTotal: 2,
      listSearchTotal: 0,
      searchResults: 0,
      campaigns: 1,
      manualCampaignTotal: 2,
      importingCampaign: 404,
      dashboard: { notices: 2, campaigns: 1 },
      deleteAllWouldErase: 2,
    });
    const owner = asha.userId;
    expect(await records.countCampaignRecords(db, noticeKind, owner, importingCampaignId)).toBe(0);
    expect(await records.listCampaignRecords(db, noticeKind, owner, importingCampaignId, 0, 10)).toEqual([]);
    expect(await records.listBoundaries(db, noticeKind, owner, 1)).toEqual([...liveIds].reverse());
    expect(await records.findRecordsByIds(db, noticeKind, owner, hiddenIds)).toEqual([]);
    expect(await records.findRecordById(db, noticeKind, hiddenIds[0]!)).toBeUndefined();
    expect(await records.findRecordIncludingArchived(db, noticeKind, owner, hiddenIds[0]!)).toBeUndefined();
    const evidence = [db, noticeKind, owner, importingCampaignId, '', 10] as const;
    expect(await records.listCampaignRecordsAfter(...evidence, 'included')).toEqual([]);
    expect(await records.listCampaignRecordsAfter(...evidence)).toEqual([]);
  });

  it('are everywhere once the import hands them over', async () => {
    // What the import's hand-over (imports/hand-over.ts) does with them, in one transaction.
    await db.transaction().execute(async (trx) => {
      expect(await records.revealCampaignRecords(trx, noticeKind, importingCampaignId, asha.userId)).toBe(3);
      await markCampaignReady(trx, importingCampaignId, { imported: 3, skipped: 0 });
      await records.adjustRecordCount(trx, asha.userId, 'notice', 3);
    });
    const seen = await whatAshaSees();
    expect(seen).toMatchObject({
      listTotal: 5,
      listSearchTotal: 3,
      searchResults: 3,
      campaigns: 2,
      importingCampaign: 200,
      dashboard: { notices: 5, campaigns: 2 },
      deleteAllWouldErase: 5,
    });
    expect(seen.listIds).toEqual([...liveIds, ...hiddenIds].sort());
    expect(await records.countCampaignRecords(db, noticeKind, asha.userId, importingCampaignId)).toBe(3);
  });
});

describe('the record state migration', () => {
  it('marks the rows an import held hidden the old way (no owner) as importing, and goes back', async () => {
    const { db, close } = await createTestDatabase();
    try {
      const userId = newId();
      const campaignId = newId();
      const now = new Date().toISOString();
      await insertUser(db, { id: userId, name: 'A', username: 'a', password_hash: 'x', created_at: now });
      await insertImportCampaign(db, {
        id: campaignId,
        owner_id: userId,
        kind: 'notice',
        name: 'x',
        job_id: newId(),
        created_at: now,
      });
      // The migration's own view of the database: any table, any column.
      const any = db as unknown as Parameters<typeof recordState.up>[0];
      // Back to before the record state, through the migrations written after it that read it.
      await campaignCounts.down(any);
      await ownerListIndex.down(any);
      await recordState.down(any);
      const [hidden, live] = [newId(), newId()];
      const row = (id: string, owner: string) => ({
        id,
        owner_id: owner,
        campaign_id: campaignId,
        created_at: now,
        updated_at: now,
      });
      await any
        .insertInto('notices')
        .values([row(hidden, ''), row(live, userId)])
        .execute();
      const read = (id: string) =>
        any.selectFrom('notices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

      await recordState.up(any);
      expect(await read(hidden)).toMatchObject({ owner_id: '', record_state: 'importing' });
      expect(await read(live)).toMatchObject({ owner_id: userId, record_state: 'live' });
      await recordState.down(any);
      expect(await read(hidden)).toMatchObject({ owner_id: '' });
      expect(Object.keys(await read(live))).not.toContain('record_state');
      await recordState.up(any);
      await ownerListIndex.up(any);
      await campaignCounts.up(any);
    } finally {
      await close();
    }
  });
});
