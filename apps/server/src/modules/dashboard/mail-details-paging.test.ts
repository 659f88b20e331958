import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveriesTable, DeliveryStatus } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { createTestDatabase } from '../../test/app.ts';
import { insertUser } from '../auth/auth.repository.ts';
import { recentLiveDeliveries } from './dashboard.repository.ts';
import { DashboardService } from './dashboard.service.ts';

const TOTAL = 420;
const statuses: DeliveryStatus[] = ['sent', 'delivered', 'read', 'failed', 'queued'];

describe('Mails Details paged by key', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const ownerId = newId();
  const otherId = newId();
  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database;
    const now = new Date().toISOString();
    await insertUser(db, { id: ownerId, name: 'A', username: 'a', password_hash: 'x', created_at: now });
    await insertUser(db, { id: otherId, name: 'B', username: 'b', password_hash: 'x', created_at: now });
    const rows: DeliveriesTable[] = Array.from({ length: TOTAL }, (_, i) => ({
      id: newId(),
      // Another owner's deliveries are mixed in: they are in no page of this owner's.
      owner_id: i % 7 === 0 ? otherId : ownerId,
      record_kind: 'notice',
      record_id: newId(),
      campaign_id: newId(),
      channel: i % 2 ? 'email' : 'whatsapp',
      active_key: null,
      recipient: `c${i}@example.com`,
      recipient_name: `Customer ${i}`,
      status: statuses[i % statuses.length]!,
      status_at: now,
      provider_message_id: null,
      error: null,
      pdf_sha256: null,
      pdf_key: null,
      created_at: now,
      attempted_at: null,
      record_address_at_send: null,
      media_id: null,
    }));
    for (let i = 0; i < rows.length; i += 100)
      await db
        .insertInto('deliveries')
        .values(rows.slice(i, i + 100))
        .execute();
  });
  afterAll(async () => database?.close());

  /** What the OFFSET query answered before: the page's ids. */
  const offsetPage = async (page: number, limit: number, status?: DeliveryStatus) =>
    (await recentLiveDeliveries(database.db, ownerId, limit, { offset: (page - 1) * limit, status })).map(
      (d) => d.id,
    );

  it('answers first, middle, last and past-the-end pages as the OFFSET query did, with and without a status', async () => {
    const service = new DashboardService(database.db, 7);
    for (const status of [undefined, 'read', 'queued'] as const) {
      for (const limit of [1, 10, 25]) {
        const { total } = await service.mails(ownerId, { page: 1, limit, status });
        const last = Math.max(1, Math.ceil(total / limit));
        for (const page of [1, 2, Math.ceil(last / 2), last - 1, last, last + 1].filter((p) => p >= 1)) {
          const answer = await service.mails(ownerId, { page, limit, status });
          expect(
            answer.items.map((m) => m._id),
            `status ${status} page ${page} limit ${limit}`,
          ).toEqual(await offsetPage(page, limit, status));
        }
      }
    }
  });

  it('sees a delivery that joins the list, or moves out of a status, after the boundaries were taken', async () => {
    const service = new DashboardService(database.db, 7);
    await service.mails(ownerId, { page: 5, limit: 10, status: 'read' });
    const [newest] = await recentLiveDeliveries(database.db, ownerId, 1, { status: 'read' });
    await database.db
      .updateTable('deliveries')
      .set({ status: 'failed', status_at: new Date().toISOString() })
      .where('id', '=', newest!.id)
      .execute();
    expect(
      (await service.mails(ownerId, { page: 5, limit: 10, status: 'read' })).items.map((m) => m._id),
    ).toEqual(await offsetPage(5, 10, 'read'));
    await database.db
      .updateTable('deliveries')
      .set({ status: 'read', status_at: new Date().toISOString() })
      .where('id', '=', newest!.id)
      .execute();
    expect(
      (await service.mails(ownerId, { page: 5, limit: 10, status: 'read' })).items.map((m) => m._id),
    ).toEqual(await offsetPage(5, 10, 'read'));
  });
});
