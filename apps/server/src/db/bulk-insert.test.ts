import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../modules/auth/auth.repository.ts';
import { ensureManualCampaign } from '../modules/campaigns/campaigns.repository.ts';
import { createTestDatabase } from '../test/app.ts';
import { insertTextRows } from './bulk-insert.ts';
import type { Database } from './database.ts';

let db: Database;
let close: () => Promise<void>;
let campaignId: string;
beforeAll(async () => {
  ({ db, close } = await createTestDatabase());
  // A campaign for the terms to belong to (record_search.campaign_id references campaigns).
  const now = new Date().toISOString();
  await insertUser(db, { id: 'u1', name: 'U', username: 'u1', password_hash: 'x', created_at: now });
  campaignId = await ensureManualCampaign(db, 'u1', 'notice', now);
});
afterAll(async () => close());

/** Values a naive array literal or VALUES list would mangle. */
const awkward = [
  '',
  'NULL',
  'null',
  '{a,b}',
  '"quoted"',
  'back\\slash',
  "it's",
  'comma, here',
  'नमस्ते 🙂',
  ' spaced ',
];

const columns = ['owner_id', 'term', 'record_id', 'kind', 'field', 'campaign_id'];
const row = (i: number) => ({
  owner_id: 'u1',
  term: `${awkward[i % awkward.length]}|${i}`,
  record_id: `r${String(i).padStart(6, '0')}`,
  kind: 'notice',
  field: 'custName',
  campaign_id: campaignId,
});

describe('insertTextRows', () => {
  it.each([0, 1, 7, 701, 5001, 12_345])('writes %i rows exactly as given', async (count) => {
    await db.deleteFrom('record_search').execute();
    // A generator: the rows are read as they are written.
    function* rows() {
      for (let i = 0; i < count; i++) yield row(i);
    }
    await insertTextRows(db, 'record_search', columns, rows());
    const stored = await db.selectFrom('record_search').selectAll().orderBy('record_id').execute();
    expect(stored).toHaveLength(count);
    expect(stored).toEqual(Array.from({ length: count }, (_, i) => row(i)));
  });

  it('writes a missing value as an empty text', async () => {
    await db.deleteFrom('record_search').execute();
    await insertTextRows(db, 'record_search', columns, [{ ...row(1), kind: undefined }]);
    expect(await db.selectFrom('record_search').select('kind').execute()).toEqual([{ kind: '' }]);
  });
});
