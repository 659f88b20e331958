import { PAGE_MAX } from '@notice-desk/contract/paging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditCardKind, noticeKind, type RecordKindInfo } from './modules/records/record-kinds.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from './test/app.ts';

/**
 * Every list that pages takes the one paging schema of packages/contract: page and limit are whole
 * numbers in plain digits within bounds, so (page - 1) × limit stays a safe integer and an OFFSET both
 * databases take. Anything else is a 400 naming the parameter, never a 500 from the database.
 */

let t: TestApp;
let admin: SignedIn;
/** Each paged list with the largest limit it takes. */
let lists: { url: string; doc?: string; limitMax: number }[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await signUp(t.app, 'admin');
  const create = async (kind: RecordKindInfo) => {
    const fields = Object.fromEntries(kind.fields.map((f) => [f.key, `${f.key} 1`]));
    const res = await t.app.inject({
      method: 'POST',
      url: kind.routes.base,
      headers: admin.headers,
      payload: fields,
    });
    return res.json<{ campaignId: string }>().campaignId;
  };
  const campaignId = await create(noticeKind);
  await create(creditCardKind);
  lists = [
    { url: '/api/notices/by-user-id', limitMax: 10_000 },
    { url: '/api/credit-cards/by-user-id', limitMax: 10_000 },
    { url: '/api/campaigns/notice', doc: '/api/campaigns/{type}', limitMax: 10_000 },
    { url: '/api/campaigns/credit-card', doc: '/api/campaigns/{type}', limitMax: 10_000 },
    {
      url: `/api/campaigns/single-campaign/${campaignId}`,
      doc: '/api/campaigns/single-campaign/{id}',
      limitMax: 10_000,
    },
    { url: '/api/emailTemplates/getdata', limitMax: 10_000 },
    { url: '/api/whatsapptemplates/getdata', limitMax: 10_000 },
    { url: '/api/audit', limitMax: 100 },
    { url: '/api/archive/notices', limitMax: 100 },
    { url: '/api/archive/credit-cards', limitMax: 100 },
    { url: '/api/archive/campaigns', limitMax: 100 },
    { url: '/api/dashboard/mails', limitMax: 500 },
    { url: '/api/users', limitMax: 100 },
    { url: '/api/jobs', limitMax: 100 },
    { url: '/api/responses', limitMax: 100 },
    {
      url: `/api/campaigns/${campaignId}/failed-rows`,
      doc: '/api/campaigns/{campaignId}/failed-rows',
      limitMax: 1000,
    },
  ];
});
afterAll(async () => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin.headers });
const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

/** What was sent, the parameter the answer must name, and what it must say. */
const hostile: { query: string; field: 'page' | 'limit'; says: (limitMax: number) => string }[] = [
  { query: 'page=1e15', field: 'page', says: () => `page must be at most ${PAGE_MAX}.` },
  { query: 'page=1e15&limit=10', field: 'page', says: () => `page must be at most ${PAGE_MAX}.` },
  { query: 'page=1e308', field: 'page', says: () => `page must be at most ${PAGE_MAX}.` },
  { query: 'page=99999999999999999999', field: 'page', says: () => `page must be at most ${PAGE_MAX}.` },
  { query: `page=${PAGE_MAX + 1}`, field: 'page', says: () => `page must be at most ${PAGE_MAX}.` },
  { query: 'page=-1', field: 'page', says: () => 'page must be 1 or more.' },
  { query: 'page=0', field: 'page', says: () => 'page must be 1 or more.' },
  { query: 'page=1.5', field: 'page', says: () => 'page must be a whole number.' },
  { query: 'page=NaN', field: 'page', says: () => 'page must be a number.' },
  { query: 'page=Infinity', field: 'page', says: () => 'page must be a number.' },
  { query: 'page=', field: 'page', says: () => 'page must be a number.' },
  { query: 'page=0x10', field: 'page', says: () => 'page must be written in plain digits, such as 2.' },
  { query: 'page=1e3', field: 'page', says: () => 'page must be written in plain digits, such as 2.' },
  { query: 'page=%2B2', field: 'page', says: () => 'page must be written in plain digits, such as 2.' },
  { query: 'page=%202', field: 'page', says: () => 'page must be written in plain digits, such as 2.' },
  { query: 'page=1&page=2', field: 'page', says: () => 'page must be given once.' },
  { query: 'limit=1e9', field: 'limit', says: (max) => `limit must be at most ${max}.` },
  { query: 'limit=1e1', field: 'limit', says: () => 'limit must be written in plain digits, such as 2.' },
  { query: 'limit=0', field: 'limit', says: () => 'limit must be 1 or more.' },
  { query: 'limit=2.5', field: 'limit', says: () => 'limit must be a whole number.' },
  { query: 'limit=ten', field: 'limit', says: () => 'limit must be a number.' },
  { query: 'limit=5&limit=5', field: 'limit', says: () => 'limit must be given once.' },
];

describe('paging', () => {
  it('is the same schema on every list that pages, as the API description shows', async () => {
    const doc = (await get('/api/docs/json')).json<{
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    }>();
    const paged = Object.entries(doc.paths)
      .filter(([, operations]) =>
        operations.get?.parameters?.some((p) => p.in === 'query' && p.name === 'page'),
      )
      .map(([path]) => path)
      .sort();
    expect(paged).toEqual([...new Set(lists.map((l) => l.doc ?? l.url))].sort());
  });

  it('refuses absurd page and limit values on every list with a 400 naming the parameter', async () => {
    for (const list of lists)
      for (const bad of hostile) {
        const res = await get(withQuery(list.url, bad.query));
        expect(res.statusCode, `${list.url} ${bad.query}: ${res.body}`).toBe(400);
        const body = res.json();
        expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
        expect(body.error[bad.field], `${list.url} ${bad.query}`).toBe(bad.says(list.limitMax));
      }
  });

  it('answers the deepest page at the largest limit with no rows, never a database error', async () => {
    for (const list of lists) {
      const res = await get(withQuery(list.url, `page=${PAGE_MAX}&limit=${list.limitMax}`));
      expect(res.statusCode, `${list.url}: ${res.body}`).toBe(200);
      const body = res.json();
      expect(body.items ?? body.notices).toEqual([]);
      // The archive, the mails, the failed rows, the notice pages' responses and the jobs hold nothing
      // here (nothing was sent or imported); every other list holds a row.
      if (
        !/^\/api\/archive\/|^\/api\/dashboard\/mails$|\/failed-rows$|^\/api\/responses$|^\/api\/jobs$/.test(
          list.url,
        )
      )
        expect(body.total).toBeGreaterThan(0);
    }
  });

  it('takes plain page numbers as before, and the defaults when absent', async () => {
    for (const list of lists) {
      expect((await get(withQuery(list.url, 'page=1&limit=5'))).statusCode).toBe(200);
      expect((await get(withQuery(list.url, 'page=007'))).statusCode).toBe(200);
      expect((await get(list.url)).statusCode).toBe(200);
    }
  });

  it('bounds the search limit the same way', async () => {
    for (const [query, says] of [
      ['limit=1e9', 'limit must be at most 20.'],
      ['limit=0x10', 'limit must be written in plain digits, such as 2.'],
      ['limit=-3', 'limit must be 1 or more.'],
      ['limit=1&limit=2', 'limit must be given once.'],
    ]) {
      const res = await get(`/api/search?q=ab&${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.limit).toBe(says);
    }
    expect((await get('/api/search?q=ab&limit=20')).statusCode).toBe(200);
  });
});
