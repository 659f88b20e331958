import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.ts';
import type { DeliveryChannel } from '@notice-desk/contract/sending';
import type { Channel, DeliveryStatus, NoticePageEventsTable } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { seedDelivery } from '../../test/deliveries.ts';
import { seedPageEvent } from '../../test/notice-page.ts';
import * as deliveries from '../sending/deliveries.repository.ts';
import * as dates from './service-dates.repository.ts';
import { serviceDates } from './service-dates.ts';

/**
 * The service filters read each record's first dispatch and receipt from `record_service_facts`, which
 * triggers keep as events are written. Whatever order and mix of events arrive (provider reports out of
 * order, replays, refusals written after their event, page visits, letters booked and returned), the table must give the served-on
 * instant the rule gives from the events themselves (service-dates.ts): compared here for random trails.
 */

let t: TestApp;
let db: Database;

beforeAll(async () => {
  t = await createTestApp();
  db = (await openDatabase(t.config, { checkpointer: false })).db;
}, 60_000);
afterAll(async () => {
  await db.destroy();
  await t.close();
});

/** A small seeded generator, so a failure can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}

const DAY = 86_400_000;
const statuses: DeliveryStatus[] = ['sent', 'delivered', 'read', 'failed', 'delivered', 'read'];
/** A letter's tracking: delivered (an AD card) or returned, or a replay of its booking. */
const postStatuses: DeliveryStatus[] = ['delivered', 'bounced', 'sent', 'bounced'];
const pageEvents: NoticePageEventsTable['event'][] = [
  'link_opened',
  'verified',
  'pdf_viewed',
  'acknowledged',
];

async function randomTrail(
  rng: ReturnType<typeof random>,
  page: { owner_id: string; record_id: string; campaign_id: string },
  now: number,
) {
  const at = () => new Date(now - Math.floor(rng.next() * 90 * DAY)).toISOString();
  for (let d = Math.floor(rng.next() * 3); d > 0; d--) {
    const channel = rng.pick<DeliveryChannel>(['email', 'whatsapp', 'post']);
    // A post delivery is a row like the others (modules/post writes it through a wider type).
    const id = await seedDelivery(db, { ...page, channel: channel as Channel, active_key: null });
    // Our own send moves it to sent (an event we write), or it is left queued.
    if (rng.next() < 0.7) await deliveries.advanceStatus(db, { id, status: 'queued' }, 'sent', at());
    // Then the provider's reports, in any order, some replayed: a refused one is updated after its insert.
    for (let e = Math.floor(rng.next() * 4); e > 0; e--) {
      const [row] = await deliveries.findDeliveries(db, [id]);
      const status = rng.pick(channel === 'post' ? postStatuses : statuses);
      const when = at();
      const key = rng.next() < 0.2 ? `${status}@replayed` : `${status}@${Date.parse(when) / 1000}:${e}`;
      await deliveries.recordProviderEvent(db, row!, { status, at: when, eventKey: key });
    }
  }
  for (let e = Math.floor(rng.next() * 3); e > 0; e--)
    await seedPageEvent(db, page, rng.pick(pageEvents), at());
}

describe('record_service_facts', () => {
  it('gives every record the served-on the events give, for random trails', async () => {
    const seed = Number(process.env.SERVICE_FACTS_SEED ?? Date.now() % 100_000);
    const rng = random(seed);
    const now = Date.now();
    const campaign = newId();
    const records = Array.from({ length: 60 }, () => ({
      owner_id: newId(),
      record_id: newId(),
      campaign_id: campaign,
    }));
    for (const page of records) await randomTrail(rng, page, now);

    const nowIso = new Date(now).toISOString();
    for (const [deemedServiceDays, postDeemedServiceDays] of [
      [30, 30],
      [30, 0],
      [0, 10],
      [45, 5],
    ] as const) {
      const rules = { deemedServiceDays, postDeemedServiceDays, now: nowIso };
      const fromTable = new Map(
        (await dates.servedRecords(db, campaign, rules).execute()).map((row) => [
          row.record_id,
          row.served_on && new Date(Date.parse(row.served_on)).toISOString(),
        ]),
      );
      const ids = records.map((r) => r.record_id);
      const [facts, page] = await Promise.all([
        dates.deliveryFactsForRecords(db, ids),
        dates.pageEventsForRecords(db, ids),
      ]);
      for (const id of ids) {
        const expected = serviceDates(
          {
            deliveries: facts.filter((f) => f.record_id === id),
            page: page.filter((p) => p.record_id === id),
          },
          { ...rules, periodDays: 15, timeZone: 'Asia/Kolkata' },
        ).servedOn;
        expect(
          fromTable.get(id) ?? null,
          `seed ${seed}, record ${id}, deemed ${deemedServiceDays}, by post ${postDeemedServiceDays}`,
        ).toBe(expected);
      }
    }
  });
});
