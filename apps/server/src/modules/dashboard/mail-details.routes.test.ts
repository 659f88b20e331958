import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.ts';
import type { DeliveryStatus } from '../../db/schema.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { seedDelivery } from '../../test/deliveries.ts';

let t: TestApp;
let db: Database;
let asha: SignedIn;
let ravi: SignedIn;

const delivery = (owner: SignedIn, status: DeliveryStatus, name: string) =>
  seedDelivery(
    db,
    { owner_id: owner.userId, recipient: `${name}@example.com`, recipient_name: name },
    status,
    {
      error: status === 'failed' ? 'refused' : null,
    },
  );

beforeAll(async () => {
  t = await createTestApp();
  db = (await openDatabase(t.config)).db;
  asha = await signUp(t.app, 'asha');
  ravi = await signUp(t.app, 'ravi');
  // 130 of asha's: more than the dashboard's latest 100.
  for (let i = 0; i < 130; i++) await delivery(asha, i % 10 === 0 ? 'failed' : 'sent', `customer-${i}`);
  await delivery(ravi, 'failed', 'ravis-customer');
});
afterAll(async () => {
  await db?.destroy();
  await t?.close();
});

const mails = (who: SignedIn, query: string) =>
  t.app.inject({ method: 'GET', url: `/api/dashboard/mails?${query}`, headers: who.headers });

describe('GET /api/dashboard/mails', () => {
  it('pages past the latest 100, newest first, and filters by status', async () => {
    const last = (await mails(asha, 'page=7&limit=20')).json();
    expect(last.total).toBe(130);
    expect(last.items).toHaveLength(10);
    expect(last.items.at(-1).name).toBe('customer-0');
    const failed = (await mails(asha, 'status=failed&limit=100')).json();
    expect(failed.total).toBe(13);
    expect(
      failed.items.every((m: { status: string; error: string }) => m.status === 'failed' && m.error),
    ).toBe(true);
    expect(failed.items.map((m: { name: string }) => m.name)).not.toContain('ravis-customer');
    expect((await mails(asha, 'status=bounced')).json()).toEqual({ items: [], total: 0 });
  });

  it('refuses an unknown status, a page written otherwise than in digits, a limit over 500, and no session', async () => {
    const bad = await mails(asha, 'status=lost');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(
      /status must be one of queued, outbox, sent, delivered, read, failed, bounced/,
    );
    expect((await mails(asha, 'page=1e3')).statusCode).toBe(400);
    expect((await mails(asha, 'limit=501')).json().message).toMatch(/limit must be at most 500/);
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard/mails' })).statusCode).toBe(401);
  });
});
