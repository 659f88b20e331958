import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { insertImportCampaign, markCampaignReady } from './campaigns.repository.ts';

// One app for the file: every test only reads what beforeAll wrote.
let t: TestApp;
let asha: SignedIn;
let ravi: SignedIn;

const NAMES = [
  'Ravi March.xlsx',
  'ravi april.xlsx',
  '100% done.xlsx',
  'north_zone.xlsx',
  'northXzone.xlsx',
  'O\'Brien "quoted".xlsx',
  'back\\slash!.xlsx',
  'रवि सूची.xlsx',
];

beforeAll(async () => {
  t = await createTestApp();
  asha = await signUp(t.app, 'asha');
  ravi = await signUp(t.app, 'ravi');
  const { db } = await openDatabase(t.config);
  try {
    const campaigns = [
      ...NAMES.map((name) => ({ owner: asha, name })),
      { owner: ravi, name: 'Ravi others.xlsx' },
    ];
    for (const [index, { owner, name }] of campaigns.entries()) {
      const id = newId();
      const created_at = new Date(Date.UTC(2026, 0, index + 1)).toISOString();
      await insertImportCampaign(db, {
        id,
        owner_id: owner.userId,
        kind: 'notice',
        name,
        job_id: newId(),
        created_at,
      });
      await markCampaignReady(db, id, { imported: 1, skipped: 0 });
    }
  } finally {
    await db.destroy();
  }
});
afterAll(async () => t?.close());

const list = (who: SignedIn, query: string, type = 'notice') =>
  t.app.inject({ method: 'GET', url: `/api/campaigns/${type}?${query}`, headers: who.headers });

async function found(search: string) {
  const res = await list(asha, `page=1&limit=10&search=${encodeURIComponent(search)}`);
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json<{ items: { name: string }[]; total: number }>();
  return { total: page.total, names: page.items.map((item) => item.name).sort() };
}

describe('the campaign lists’ search parameter', () => {
  it('finds campaigns whose name holds the text anywhere, ignoring case, and counts them', async () => {
    expect((await list(asha, 'page=1&limit=2')).json().total).toBe(NAMES.length);
    expect(await found('RAVI')).toEqual({ total: 2, names: ['Ravi March.xlsx', 'ravi april.xlsx'] });
    expect(await found('pril')).toEqual({ total: 1, names: ['ravi april.xlsx'] });
    expect(await found('सूची')).toEqual({ total: 1, names: ['रवि सूची.xlsx'] });
    expect((await list(ravi, 'search=ravi')).json().total).toBe(1);
    expect((await list(asha, 'search=ravi', 'credit-card')).json().total).toBe(0);
    expect((await found('  ')).total).toBe(NAMES.length);
  });

  it('reads %, _, quotes, backslashes and the escape character as themselves', async () => {
    expect(await found('%')).toEqual({ total: 1, names: ['100% done.xlsx'] });
    expect(await found('_')).toEqual({ total: 1, names: ['north_zone.xlsx'] });
    expect(await found('h_z')).toEqual({ total: 1, names: ['north_zone.xlsx'] });
    expect(await found("o'brien")).toEqual({ total: 1, names: ['O\'Brien "quoted".xlsx'] });
    expect(await found('"quoted"')).toEqual({ total: 1, names: ['O\'Brien "quoted".xlsx'] });
    expect(await found('\\slash!')).toEqual({ total: 1, names: ['back\\slash!.xlsx'] });
    expect(await found('!')).toEqual({ total: 1, names: ['back\\slash!.xlsx'] });
    expect(await found('%_%')).toEqual({ total: 0, names: [] });
    expect(await found('!'.repeat(100))).toEqual({ total: 0, names: [] });
  });

  it('refuses text too long or half a character, saying why, and never fails', async () => {
    const long = await list(asha, `search=${'%'.repeat(1000)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toEqual({ search: 'Search text must be at most 100 characters.' });
    for (const raw of ['%ED%A0%80', '%ED%B0%80ravi', '%uD800', '%F0%9F'])
      expect((await list(asha, `search=${raw}`)).statusCode, raw).toBeLessThan(500);
  });
});
