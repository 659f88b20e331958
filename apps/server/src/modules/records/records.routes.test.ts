import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { creditCardKind, noticeKind } from './record-kinds.ts';

let t: TestApp;
let asha: SignedIn;
let ravi: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  asha = await signUp(t.app, 'asha');
  ravi = await signUp(t.app, 'ravi');
});
afterEach(async () => {
  await t.close();
});

describe.each([creditCardKind, noticeKind])('$label records', (info) => {
  const { base, list, deleteAll } = info.routes;
  const sample = (tag: string) => Object.fromEntries(info.fields.map((f) => [f.key, `${f.key} ${tag}`]));
  const call = (who: SignedIn, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const create = async (who: SignedIn, tag: string) => {
    const res = await call(who, 'POST', base, sample(tag));
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Record<string, string>>();
  };

  it('creates, reads, updates and deletes a record', async () => {
    const created = await create(asha, 'one');
    expect(created).toMatchObject({
      ...sample('one'),
      _id: expect.any(String),
      pdfLink: expect.stringContaining(`${info.kind}/`),
    });
    // The view adds when the record was served and is to be answered by (never sent, so not yet), and its
    // notice page (none before the first send).
    const notServed = {
      servedOn: null,
      servedBy: null,
      respondBy: null,
      shown: { servedOn: null, respondBy: null },
    };
    expect((await call(asha, 'GET', `${base}/${created._id}`)).json()).toEqual({
      ...created,
      service: notServed,
      noticeLink: null,
    });

    const merged = { ...created, ...sample('two') };
    const updated = await call(asha, 'PUT', `${base}/${created._id}`, merged);
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ ...sample('two'), _id: created._id });

    const deleted = await call(asha, 'DELETE', `${base}/${created._id}`);
    expect(deleted.json()).toEqual({ message: info.deletedMessage, archived: 0, erased: 1 });
    expect((await call(asha, 'GET', `${base}/${created._id}`)).statusCode).toBe(404);
    expect((await call(asha, 'GET', `${list}?page=1&limit=10`)).json().total).toBe(0);
  });

  it('puts a hand-typed record in the Manual entries campaign, one per owner and kind', async () => {
    const a = await create(asha, 'a');
    const b = await create(asha, 'b');
    const c = await create(ravi, 'c');
    expect(a.campaignId).toBe(b.campaignId);
    expect(c.campaignId).not.toBe(a.campaignId);
  });

  it('lists the owner’s records newest first, a page at a time, with the total', async () => {
    for (let i = 0; i < 12; i++) await create(asha, `n${i}`);
    await create(ravi, 'other');
    const first = (await call(asha, 'GET', `${list}?page=1&limit=5`)).json();
    expect(first.total).toBe(12);
    expect(first.pdfUrl).toEqual(expect.any(String));
    expect(first.items.map((r: Record<string, string>) => r[info.fields[0]!.key])).toEqual(
      [11, 10, 9, 8, 7].map((i) => `${info.fields[0]!.key} n${i}`),
    );
    const last = (await call(asha, 'GET', `${list}?page=3&limit=5`)).json();
    expect(last.items).toHaveLength(2);
    const beyond = (await call(asha, 'GET', `${list}?page=9&limit=5`)).json();
    expect(beyond).toMatchObject({ items: [], total: 12 });
    const defaults = (await call(asha, 'GET', list)).json();
    expect(defaults.items).toHaveLength(10);
  });

  it('names each missing required field with its message', async () => {
    const res = await call(asha, 'POST', base, {});
    expect(res.statusCode).toBe(400);
    const required = info.fields.filter((f) => f.required);
    expect(res.json().error).toEqual(Object.fromEntries(required.map((f) => [f.key, f.required])));
    const blank = await call(asha, 'POST', base, { ...sample('x'), [required[0]!.key]: '   ' });
    expect(blank.json().error).toEqual({ [required[0]!.key]: required[0]!.required });
    expect((await call(asha, 'GET', list)).json().total).toBe(0);
  });

  it('refuses a 100 KB field, a number or object for a string, and drops unknown fields', async () => {
    const key = info.fields[0]!.key;
    const long = await call(asha, 'POST', base, { ...sample('x'), [key]: 'x'.repeat(100_000) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error[key]).toMatch(/at most 2000 characters/);
    const number = await call(asha, 'POST', base, { ...sample('x'), [key]: 42 });
    expect(number.json().error[key]).toMatch(/must be text/);
    const object = await call(asha, 'POST', base, { ...sample('x'), [key]: { $gt: '' } });
    expect(object.statusCode).toBe(400);
    expect((await call(asha, 'GET', list)).json().total).toBe(0);
    const extra = await call(asha, 'POST', base, { ...sample('x'), owner_id: ravi.userId, isAdmin: true });
    expect(extra.statusCode).toBe(201);
    expect(extra.json()).not.toHaveProperty('isAdmin');
    expect((await call(ravi, 'GET', list)).json().total).toBe(0);
  });

  it('refuses an id that is not an id, page=0 and an oversized limit', async () => {
    const badId = await call(asha, 'GET', `${base}/not-an-id`);
    expect(badId.statusCode).toBe(400);
    expect(badId.json().error).toEqual({ id: 'The id is not a record id.' });
    expect((await call(asha, 'GET', `${list}?page=0`)).json().error).toEqual({
      page: 'page must be 1 or more.',
    });
    expect((await call(asha, 'GET', `${list}?limit=100000`)).json().error).toEqual({
      limit: 'limit must be at most 10000.',
    });
    expect((await call(asha, 'GET', `${list}?page=abc`)).statusCode).toBe(400);
  });

  it('keeps owners apart: another user’s id answers 404 and changes nothing', async () => {
    const mine = await create(asha, 'mine');
    const id = mine._id;
    expect((await call(ravi, 'GET', `${base}/${id}`)).statusCode).toBe(404);
    expect((await call(ravi, 'PUT', `${base}/${id}`, sample('hijack'))).statusCode).toBe(404);
    expect((await call(ravi, 'DELETE', `${base}/${id}`)).statusCode).toBe(404);
    expect((await call(ravi, 'POST', deleteAll)).json().deleted).toBe(0);
    expect((await call(asha, 'GET', `${base}/${id}`)).json()).toEqual({
      ...mine,
      service: expect.any(Object),
      noticeLink: null,
    });
    expect((await call(ravi, 'GET', list)).json()).toMatchObject({ items: [], total: 0 });
  });

  it('deletes all of the caller’s records of the kind and no one else’s', async () => {
    await create(asha, '1');
    await create(asha, '2');
    await create(ravi, '3');
    const res = await call(asha, 'POST', deleteAll);
    expect(res.json()).toEqual({
      message: 'All Credit cards deleted successfully.',
      deleted: 2,
      archived: 0,
      erased: 2,
    });
    expect((await call(asha, 'GET', list)).json().total).toBe(0);
    expect((await call(ravi, 'GET', list)).json().total).toBe(1);
    expect((await call(asha, 'POST', base, sample('after'))).statusCode).toBe(201);
    expect((await call(asha, 'GET', list)).json().total).toBe(1);
  });

  it('answers 401 without a token', async () => {
    for (const [method, url] of [
      ['GET', list],
      ['POST', base],
      ['POST', deleteAll],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
  });
});
