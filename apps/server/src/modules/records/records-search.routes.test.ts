import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { creditCardKind, noticeKind } from './record-kinds.ts';

// One app for the file: every test only reads what beforeAll wrote.
let t: TestApp;
let asha: SignedIn;
let ravi: SignedIn;
const ids = new Map<string, string>();

const notice = (custName: string, extra: Record<string, string> = {}) => ({
  ...Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key} sample`])),
  custName,
  loanNo: `LN-${custName.length}`,
  custMobileNo: '0000000000',
  ...extra,
});

async function add(who: SignedIn, url: string, payload: Record<string, string>, key: string) {
  const res = await t.app.inject({ method: 'POST', url, headers: who.headers, payload });
  expect(res.statusCode, res.body).toBe(201);
  const record = res.json<{ _id: string; campaignId: string }>();
  ids.set(key, record._id);
  ids.set(`${key} campaign`, record.campaignId);
}

beforeAll(async () => {
  t = await createTestApp();
  asha = await signUp(t.app, 'asha');
  ravi = await signUp(t.app, 'ravi');
  // Ravi is the oldest of 14, so the first page of 10 does not show him.
  await add(asha, '/api/notices', notice('Ravi Kumar', { loanNo: 'LN-2024/0042' }), 'ravi');
  for (let i = 0; i < 12; i++) await add(asha, '/api/notices', notice(`Asha Rao ${i}`), `asha${i}`);
  await add(asha, '/api/notices', notice('रवि शर्मा', { custMobileNo: '+91 98450-12345' }), 'devanagari');
  await add(ravi, '/api/notices', notice('Ravi Kumar'), 'others');
  const card = Object.fromEntries(creditCardKind.fields.map((f) => [f.key, `${f.key} sample`]));
  await add(asha, '/api/credit-cards', { ...card, custName: 'Ravi Card' }, 'card');
});
afterAll(async () => t?.close());

const list = (who: SignedIn, query: string, url = '/api/notices/by-user-id') =>
  t.app.inject({ method: 'GET', url: `${url}?${query}`, headers: who.headers });

async function found(search: string, paging = 'page=1&limit=10') {
  const res = await list(asha, `${paging}&search=${encodeURIComponent(search)}`);
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json<{ items: { _id: string; custName: string }[]; total: number }>();
  return { total: page.total, names: page.items.map((item) => item.custName) };
}

describe('the record lists’ search parameter', () => {
  it('finds a record beyond the first page and counts only the matches', async () => {
    expect((await list(asha, 'page=1&limit=10')).json().total).toBe(14);
    expect(await found('Ravi')).toEqual({ total: 1, names: ['Ravi Kumar'] });
    expect(await found('kum')).toEqual({ total: 1, names: ['Ravi Kumar'] });
    expect(await found('ln-2024/00')).toEqual({ total: 1, names: ['Ravi Kumar'] });
    expect(await found('+91 98450')).toEqual({ total: 1, names: ['रवि शर्मा'] });
  });

  it('pages through the matches, newest first', async () => {
    expect(await found('asha', 'page=1&limit=5')).toMatchObject({
      total: 12,
      names: ['Asha Rao 11', 'Asha Rao 10', 'Asha Rao 9', 'Asha Rao 8', 'Asha Rao 7'],
    });
    expect(await found('asha', 'page=3&limit=5')).toEqual({ total: 12, names: ['Asha Rao 1', 'Asha Rao 0'] });
    expect(await found('asha', 'page=4&limit=5')).toEqual({ total: 12, names: [] });
  });

  it('keeps to the caller’s records of the list’s kind', async () => {
    expect((await list(ravi, 'search=ravi')).json()).toMatchObject({ total: 1 });
    const cards = (await list(asha, 'search=ravi', '/api/credit-cards/by-user-id')).json();
    expect(cards.items.map((item: { _id: string }) => item._id)).toEqual([ids.get('card')]);
  });

  it('lists everything for a blank search and finds Devanagari names', async () => {
    expect((await found('   ')).total).toBe(14);
    expect(await found('रवि')).toEqual({ total: 1, names: ['रवि शर्मा'] });
    expect(await found('शर्')).toEqual({ total: 1, names: ['रवि शर्मा'] });
  });

  it('finds a campaign’s records the same way, in campaign order, within that campaign', async () => {
    const campaign = (query: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/campaigns/single-campaign/${ids.get('ravi campaign')}?${query}`,
        headers: asha.headers,
      });
    const page = (await campaign('page=3&limit=5&search=asha')).json();
    expect(page.total).toBe(12);
    expect(page.notices.map((row: { custName: string }) => row.custName)).toEqual([
      'Asha Rao 10',
      'Asha Rao 11',
    ]);
    expect((await campaign('search=kumar')).json().notices).toEqual([
      expect.objectContaining({ _id: ids.get('ravi') }),
    ]);
    expect((await campaign('search=%25_')).json()).toMatchObject({ total: 0, notices: [] });
    expect((await campaign('')).json().total).toBe(14);
  });

  it('answers hostile text quietly: wildcards, quotes and punctuation find nothing, and nothing fails', async () => {
    for (const text of ['%', '_', '%%', '__', "'", '"', "' or 1=1 --", '\\', '!'.repeat(100), '%_%']) {
      expect(await found(text), text).toEqual({ total: 0, names: [] });
    }
    // One letter is a search too: every word starting with it ('Ravi', 'Rao', not 'रवि').
    expect((await found('r')).total).toBe(13);
    expect((await found("ravi'")).total).toBe(1);
  });

  it('refuses text too long, a repeated parameter and half a character, saying why', async () => {
    const long = await list(asha, `search=${'a'.repeat(1000)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toEqual({ search: 'Search text must be at most 100 characters.' });
    expect((await list(asha, `search=${'a'.repeat(100)}`)).statusCode).toBe(200);
    expect((await list(asha, 'search=a&search=b')).json().error).toEqual({
      search: 'search must be given once.',
    });
    // A lone surrogate cannot be sent as UTF-8: its bytes arrive as U+FFFD or are refused, never a 500.
    for (const raw of ['%ED%A0%80', '%ED%B0%80ravi', '%uD800', '%F0%9F'])
      expect((await list(asha, `search=${raw}`)).statusCode, raw).toBeLessThan(500);
  });
});
