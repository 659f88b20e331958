import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import type { DeliveryStatus } from '../../db/schema.ts';
import { seedDelivery } from '../../test/deliveries.ts';
import { createTestDatabase } from '../../test/app.ts';
import { insertUser } from '../auth/auth.repository.ts';
import * as deliveries from './deliveries.repository.ts';

let db: Database;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ db, close } = await createTestDatabase());
  await insertUser(db, {
    id: 'u1',
    name: 'U',
    username: 'u1',
    password_hash: 'x',
    created_at: new Date().toISOString(),
  });
});
afterAll(async () => close());

/**
 * One send job's outcomes as the batch writes them: most move, one met a status another change wrote
 * first (a webhook's), one is refused before any statement (its known status cannot move), one fails
 * and gives up its key.
 */
async function scenario(write: (moves: deliveries.StatusMove[]) => Promise<void>) {
  // After the seeds' own times: the trail orders by when an event was recorded, then by its time, and a
  // seed and a move recorded in the same millisecond must still come out in one order.
  const at = new Date(Date.now() + 3_600_000).toISOString();
  // The seeds' own times differ between two runs of the scenario: only the moves' time is compared.
  const when = (time: string | null) => (time === at ? 'the move' : 'before');
  const sent = await seedDelivery(db, { owner_id: 'u1' });
  const withMedia = await seedDelivery(db, { owner_id: 'u1', channel: 'whatsapp' });
  const readMeanwhile = await seedDelivery(db, { owner_id: 'u1', channel: 'whatsapp' });
  await deliveries.advanceStatus(db, { id: readMeanwhile, status: 'queued' }, 'read', at);
  const knownRead = await seedDelivery(db, { owner_id: 'u1' }, 'read');
  const failed = await seedDelivery(db, { owner_id: 'u1' });
  const ids = [sent, withMedia, readMeanwhile, knownRead, failed];
  const move = (
    id: string,
    status: DeliveryStatus,
    changes: deliveries.StatusMove['changes'],
    from: DeliveryStatus = 'queued',
  ): deliveries.StatusMove => ({ delivery: { id, status: from }, status, at, changes });
  await write([
    move(sent, 'sent', { provider_message_id: 'm-1', pdf_sha256: 'h1', pdf_key: 'k1', error: null }),
    move(withMedia, 'sent', { provider_message_id: 'm-2', media_id: 'media-2', pdf_key: 'k2' }),
    move(readMeanwhile, 'sent', { provider_message_id: 'm-3' }),
    move(knownRead, 'sent', { provider_message_id: 'm-4' }, 'read'),
    move(failed, 'failed', { error: 'No such mailbox', pdf_key: 'k5' }),
  ]);
  const rows = await deliveries.findDeliveries(db, ids);
  const events = await deliveries.eventsForDeliveries(db, ids);
  return ids.map((id) => {
    const row = rows.find((r) => r.id === id);
    return {
      row: row && {
        status: row.status,
        status_at: when(row.status_at),
        provider_message_id: row.provider_message_id,
        media_id: row.media_id,
        pdf_sha256: row.pdf_sha256,
        pdf_key: row.pdf_key,
        error: row.error,
        holdsKey: row.active_key !== null,
      },
      events: events
        .filter((e) => e.delivery_id === id)
        .map((e) => ({ status: e.status, at: when(e.at), detail: e.detail, refused: e.refused })),
    };
  });
}

describe('status moves written a batch at a time', () => {
  it('leave each delivery and its trail as one move at a time would', async () => {
    const batched = await scenario((moves) => deliveries.advanceStatuses(db, moves));
    const oneByOne = await scenario(async (moves) => {
      for (const { delivery, status, at, changes } of moves)
        await deliveries.advanceStatus(db, delivery, status, at, changes);
    });
    expect(batched).toEqual(oneByOne);
    expect(batched.map((d) => d.row?.status)).toEqual(['sent', 'sent', 'read', 'read', 'failed']);
    expect(batched[2]!.events.at(-1)!.refused).toBe(
      'not applied: the delivery was already read; a status never moves backwards',
    );
    expect(batched[4]!.row!.holdsKey).toBe(false);
  });

  it('record hand-overs in one go: each its own time and address, a note where the address changed', async () => {
    const ids = await Promise.all([1, 2, 3].map(() => seedDelivery(db, { owner_id: 'u1' })));
    await deliveries.markAllAttempted(
      db,
      ids.map((id, i) => ({
        delivery: { id },
        at: `2026-11-29T10:00:0${i}.000Z`,
        recordAddress: `customer${i}@example.com`,
        note: i === 1 ? 'The address changed.' : null,
      })),
    );
    const rows = await deliveries.findDeliveries(db, ids);
    expect(
      ids.map((id) => rows.find((r) => r.id === id)).map((r) => [r!.attempted_at, r!.record_address_at_send]),
    ).toEqual([
      ['2026-11-29T10:00:00.000Z', 'customer0@example.com'],
      ['2026-11-29T10:00:01.000Z', 'customer1@example.com'],
      ['2026-11-29T10:00:02.000Z', 'customer2@example.com'],
    ]);
    const notes = (await deliveries.eventsForDeliveries(db, ids)).filter((e) => e.detail !== null);
    expect(notes.map((e) => [e.delivery_id, e.status, e.detail])).toEqual([
      [ids[1], 'queued', 'The address changed.'],
    ]);
  });
});
