import { sql } from 'kysely';
import { campaignFilterStatuses } from '@notice-desk/contract/sending';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { DeliveriesTable, DeliveryEventsTable, NoticePageEventsTable } from '../src/db/schema.ts';
import { newId } from '../src/lib/ids.ts';
import {
  countFilteredRecords,
  countLatestStatuses,
  countSentLiveRecords,
  countServedWithin,
  listCampaignAddresses,
} from '../src/modules/campaigns/campaigns.repository.ts';
import { CampaignsService } from '../src/modules/campaigns/campaigns.service.ts';
import { noticeKind } from '../src/modules/records/record-kinds.ts';
import { SERVICE_DEFAULTS, ServiceDatesService } from '../src/modules/service-dates/service-dates.service.ts';
import { benchTarget, seedCampaign, type BenchTarget } from './support.ts';

const RECORDS = 100_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const DAY = 86_400_000;

export interface ServiceFilterFigures {
  database: BenchTarget['label'];
  'seed s': number;
  [query: string]: number | string;
}

/**
 * A campaign of 100,000 notices, each sent by e-mail and WhatsApp over the last 90 days, most delivered
 * or read, a tenth also booked by post (a third of those returned), a tenth with notice page visits:
 * the campaign page with each status of its filter (delivery statuses and service statuses: a page of
 * 50, its total and every count), and its record-ids, median of BENCH_RUNS (7) runs after one to warm.
 * The page keeps its whole-campaign counts while nothing they read is written, so it is timed twice
 * with no filter: as read again (counts kept) and after a notice page visit before each read (counted
 * again); each count alone says what the second costs.
 * The anchor, a plain count of the campaign's records, gives the machine's speed at that minute.
 */
export async function benchServiceFilters(label: BenchTarget['label']): Promise<ServiceFilterFigures> {
  const target = await benchTarget(label, 'service_filters');
  const { db, kind } = await openDatabase(target.config);
  try {
    await migrateToLatest(db, kind === 'postgres' ? target.config.databaseSchema : undefined);
    const seedStart = performance.now();
    const { ownerId, campaignId, ids } = await seedServiceCampaign(target, db);
    const seedSeconds = (performance.now() - seedStart) / 1000;

    const campaigns = new CampaignsService(
      db,
      undefined,
      '91',
      new ServiceDatesService(db, SERVICE_DEFAULTS),
    );
    const figures: ServiceFilterFigures = { database: label, 'seed s': Math.round(seedSeconds) };
    // `before` runs ahead of each timed run, untimed (a write the run must then see).
    const median = async (run: () => Promise<unknown>, before?: () => Promise<unknown>) => {
      await run();
      const times: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        await before?.();
        const start = performance.now();
        await run();
        times.push(performance.now() - start);
      }
      return Math.round(times.sort((a, b) => a - b)[RUNS >> 1]!);
    };
    const info = noticeKind;
    // The anchor: the machine's speed at this minute, on a query no change here touches.
    figures['anchor: count the campaign ms'] = await median(() =>
      db
        .selectFrom('notices')
        .where('campaign_id', '=', campaignId)
        .select((eb) => eb.fn.countAll().as('n'))
        .execute(),
    );
    const filterOf = (status: 'respond_by_passed' | 'opened') =>
      new ServiceDatesService(db, SERVICE_DEFAULTS)
        .filterFor('notice', campaignId, [status])
        .then((service) => ({ statuses: [], service }));
    figures['count respond_by_passed alone ms'] = await median(async () =>
      countFilteredRecords(db, info, ownerId, campaignId, await filterOf('respond_by_passed')),
    );
    figures['count opened alone ms'] = await median(async () =>
      countFilteredRecords(db, info, ownerId, campaignId, await filterOf('opened')),
    );
    figures['latest statuses alone ms'] = await median(() => countLatestStatuses(db, campaignId));
    // The page's other whole-campaign counts, each alone: what reading the page after a change costs.
    const campaign = { info, ownerId, campaignId };
    figures['sent records alone ms'] = await median(() => countSentLiveRecords(db, info.table, campaignId));
    figures['addresses (not serviceable) alone ms'] = await median(() => listCampaignAddresses(db, campaign));
    const passed = await filterOf('respond_by_passed');
    figures['respond-by counts alone ms'] = await median(() =>
      countServedWithin(db, campaign, passed.service, passed.service.servedWithin),
    );
    const page = () => campaigns.single(ownerId, campaignId, { page: 1, limit: 50 });
    // Nothing written between reads: the counts are those kept at the first.
    figures['page, no filter ms'] = await median(page);
    // A visit to a notice page before each read: the counts are counted again.
    figures['page, no filter, after a write ms'] = await median(page, () =>
      db
        .insertInto('notice_page_events')
        .values({
          id: newId(),
          code: 'c-bench',
          owner_id: ownerId,
          record_kind: 'notice',
          record_id: ids[1]!,
          campaign_id: campaignId,
          event: 'link_opened',
          channel: 'email',
          at: new Date().toISOString(),
          ip: '203.0.113.1',
          user_agent: 'bench',
          detail: null,
        })
        .execute(),
    );
    for (const status of campaignFilterStatuses) {
      const body = await campaigns.single(ownerId, campaignId, { page: 1, limit: 50, status: [status] });
      figures[`${status} (${body.total}) ms`] = await median(() =>
        campaigns.single(ownerId, campaignId, { page: 1, limit: 50, status: [status] }),
      );
    }
    figures['record-ids respond_by_passed ms'] = await median(() =>
      campaigns.recordIds(ownerId, campaignId, { status: ['respond_by_passed'] }),
    );
    return figures;
  } finally {
    await db.destroy();
    await target.cleanup();
  }
}

/**
 * The bench's campaign: 100,000 notices, each sent by e-mail and WhatsApp over the last 90 days, with
 * their events, notice page visits and a kind's legal basis (NI Act s.138, 15 days), analysed.
 */
export async function seedServiceCampaign(
  target: BenchTarget,
  db: Database,
): Promise<{ ownerId: string; campaignId: string; ids: string[] }> {
  const ownerId = newId();
  const at = new Date().toISOString();
  await db
    .insertInto('users')
    .values({
      id: ownerId,
      name: 'Bench',
      username: 'bench-service',
      password_hash: 'x',
      role: 'USER',
      tokens_valid_after: 0,
      created_at: at,
      updated_at: at,
      username_key: 'bench-service',
      username_skeleton: 'bench-service',
      first_account: null,
      disabled_at: null,
      last_sign_in_at: null,
    })
    .execute();
  const { campaignId, ids } = await seedCampaign(target, ownerId, noticeKind, RECORDS);
  const now = Date.now();
  for (let start = 0; start < ids.length; start += 2_000) {
    await db.transaction().execute(async (trx) => {
      const deliveries: DeliveriesTable[] = [];
      const events: DeliveryEventsTable[] = [];
      const page: NoticePageEventsTable[] = [];
      for (let i = start; i < Math.min(ids.length, start + 2_000); i++) {
        const recordId = ids[i]!;
        const sentAt = now - ((i * 7_919_000) % (90 * DAY));
        // A tenth also by post, a third of those returned (deemed served by their own clock, or not).
        const channels =
          i % 10 === 5 ? (['email', 'whatsapp', 'post'] as const) : (['email', 'whatsapp'] as const);
        for (const channel of channels) {
          const id = newId();
          const outcome = (i + (channel === 'email' ? 0 : 3)) % 10;
          const status =
            channel === 'post'
              ? i % 30 === 5
                ? 'bounced'
                : 'sent'
              : outcome < 5
                ? 'delivered'
                : outcome < 7
                  ? 'read'
                  : 'sent';
          const iso = (ms: number) => new Date(ms).toISOString();
          deliveries.push({
            id,
            owner_id: ownerId,
            record_kind: 'notice',
            record_id: recordId,
            campaign_id: campaignId,
            // Post rows too, as modules/post writes them (through a type that admits them).
            channel: channel as DeliveriesTable['channel'],
            active_key: `${recordId}:${channel}`,
            recipient:
              channel === 'email'
                ? `c${i}@example.com`
                : channel === 'post'
                  ? `Address ${i}`
                  : `91900000${i}`,
            recipient_name: `Customer ${i}`,
            status,
            status_at: iso(sentAt),
            provider_message_id: `m-${id}`,
            error: null,
            pdf_sha256: null,
            pdf_key: null,
            created_at: iso(sentAt),
            attempted_at: iso(sentAt),
            record_address_at_send: null,
            media_id: null,
          });
          const event = (s: DeliveryEventsTable['status'], at: number) =>
            events.push({
              delivery_id: id,
              status: s,
              at: iso(at),
              detail: null,
              provider_event: null,
              recorded_at: iso(at),
              refused: null,
            });
          if (channel === 'post') {
            event('sent', sentAt + 1_000);
            if (status === 'bounced') event('bounced', sentAt + 3 * DAY);
            continue;
          }
          event('queued', sentAt);
          event('sent', sentAt + 1_000);
          if (status !== 'sent') event('delivered', sentAt + 60_000 * (1 + (i % 600)));
          if (status === 'read') event('read', sentAt + 3_600_000 * (1 + (i % 48)));
        }
        if (i % 10 === 0) {
          const pageEvent = (event: NoticePageEventsTable['event'], at: number) =>
            page.push({
              id: newId(),
              code: `c${i}`,
              owner_id: ownerId,
              record_kind: 'notice',
              record_id: recordId,
              campaign_id: campaignId,
              event,
              channel: 'email',
              at: new Date(at).toISOString(),
              ip: '203.0.113.1',
              user_agent: 'bench',
              detail: null,
            });
          pageEvent('link_opened', sentAt + 7_200_000);
          pageEvent('verified', sentAt + 7_260_000);
          if (i % 30 === 0) pageEvent('acknowledged', sentAt + 7_300_000);
          if (i % 100 === 0) pageEvent('disputed', sentAt + 7_400_000);
        }
      }
      for (let j = 0; j < deliveries.length; j += 500)
        await trx
          .insertInto('deliveries')
          .values(deliveries.slice(j, j + 500))
          .execute();
      for (let j = 0; j < events.length; j += 500)
        await trx
          .insertInto('delivery_events')
          .values(events.slice(j, j + 500))
          .execute();
      for (let j = 0; j < page.length; j += 500)
        await trx
          .insertInto('notice_page_events')
          .values(page.slice(j, j + 500))
          .execute();
    });
  }
  await db
    .insertInto('legal_bases')
    .values({
      scope: 'kind',
      scope_id: 'notice',
      basis: 'ni-138',
      label: 'NI Act s.138',
      period_days: 15,
      served_when: 'first-event',
      updated_at: new Date().toISOString(),
      updated_by: ownerId,
    })
    .execute();
  await sql`analyze`.execute(db);
  return { ownerId, campaignId, ids };
}
