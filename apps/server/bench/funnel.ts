import { sql } from 'kysely';
import type { DeliveriesTable, DeliveryStatus, NoticePageEventsTable } from '../src/db/schema.ts';
import { newId } from '../src/lib/ids.ts';
import { FunnelService } from '../src/modules/funnel/funnel.service.ts';
import { noticeKind } from '../src/modules/records/record-kinds.ts';
import { benchTarget, migratedWithOwner, seedCampaign, type BenchTarget } from './support.ts';

export const FUNNEL_RECORDS = 100_000;
const RUNS = 7;

export interface FunnelFigures {
  database: string;
  deliveries: number;
  'page events': number;
  'campaign median ms': number;
  'campaign max ms': number;
  /** SQLite runs in this process: its CPU time says what the load around it hides. */
  'campaign CPU ms': number | string;
  'dashboard median ms': number;
  'ADMIN dashboard median ms': number;
}

/** A record's e-mail status, WhatsApp status and page events, spread as a real campaign's might be. */
function storyOf(i: number): { email: DeliveryStatus; whatsapp: DeliveryStatus; page: string[] } {
  const email: DeliveryStatus = i % 20 === 0 ? 'bounced' : i % 7 === 0 ? 'sent' : 'delivered';
  const whatsapp: DeliveryStatus = i % 25 === 0 ? 'failed' : i % 3 === 0 ? 'delivered' : 'read';
  const page: string[] = [];
  if (i % 3 === 0) page.push('link_opened', 'link_opened');
  if (i % 4 === 0) page.push('link_opened', 'verified', 'pdf_viewed');
  if (i % 10 === 0) page.push('acknowledged');
  if (i % 50 === 0) page.push('disputed');
  if (i % 33 === 0) page.push('settle_requested');
  return { email, whatsapp, page };
}

/**
 * The funnel of one campaign of 100,000 notices, each sent on both channels (200,000 deliveries) with
 * about 120,000 notice page events, and the dashboard's over it; asked through the service, warm.
 */
export async function benchFunnel(label: BenchTarget['label']): Promise<FunnelFigures> {
  const target = await benchTarget(label, 'funnel');
  try {
    const { db, kind, ownerId } = await migratedWithOwner(target);
    const now = new Date().toISOString();
    const { campaignId, ids } = await seedCampaign(target, ownerId, noticeKind, FUNNEL_RECORDS);
    let events = 0;
    for (let start = 0; start < ids.length; start += 2_000) {
      await db.transaction().execute(async (trx) => {
        const deliveries: DeliveriesTable[] = [];
        const pageEvents: NoticePageEventsTable[] = [];
        for (let i = start; i < Math.min(ids.length, start + 2_000); i++) {
          const story = storyOf(i);
          for (const channel of ['email', 'whatsapp'] as const)
            deliveries.push({
              id: newId(),
              owner_id: ownerId,
              record_kind: 'notice',
              record_id: ids[i]!,
              campaign_id: campaignId,
              channel,
              active_key: null,
              recipient: channel === 'email' ? `c${i}@example.com` : `91${9_000_000_000 + i}`,
              recipient_name: `Customer ${i}`,
              status: story[channel],
              status_at: now,
              provider_message_id: null,
              error: null,
              pdf_sha256: null,
              pdf_key: null,
              created_at: now,
              attempted_at: now,
              record_address_at_send: null,
              media_id: null,
            });
          for (const [n, event] of story.page.entries())
            pageEvents.push({
              id: newId(),
              code: `code${i}`,
              owner_id: ownerId,
              record_kind: 'notice',
              record_id: ids[i]!,
              campaign_id: campaignId,
              event: event as NoticePageEventsTable['event'],
              channel: n % 2 === 0 ? 'whatsapp' : i % 5 === 0 ? null : 'email',
              at: now,
              ip: '203.0.113.7',
              user_agent: 'bench',
              detail: null,
            });
        }
        for (let j = 0; j < deliveries.length; j += 500)
          await trx
            .insertInto('deliveries')
            .values(deliveries.slice(j, j + 500))
            .execute();
        for (let j = 0; j < pageEvents.length; j += 500)
          await trx
            .insertInto('notice_page_events')
            .values(pageEvents.slice(j, j + 500))
            .execute();
        events += pageEvents.length;
      });
    }
    // As autovacuum leaves the tables once it has passed (index-only scans need the visibility map).
    if (kind === 'postgres') await sql`vacuum analyze`.execute(db);
    const funnel = new FunnelService(db);
    const time = async (ask: () => Promise<unknown>) => {
      await ask();
      const took: number[] = [];
      const cpu: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        await ask();
        const used = process.cpuUsage(cpuBefore);
        took.push(performance.now() - started);
        cpu.push((used.user + used.system) / 1000);
      }
      const median = (values: number[]) => Math.round([...values].sort((a, b) => a - b)[RUNS >> 1]!);
      return { median: median(took), max: Math.round(Math.max(...took)), cpu: median(cpu) };
    };
    const campaign = await time(() => funnel.campaign(ownerId, campaignId));
    const dashboard = await time(() => funnel.dashboard({ _id: ownerId, role: 'USER' }));
    const everyone = await time(() => funnel.dashboard({ _id: ownerId, role: 'ADMIN' }));
    await db.destroy();
    return {
      database: label,
      deliveries: ids.length * 2,
      'page events': events,
      'campaign median ms': campaign.median,
      'campaign max ms': campaign.max,
      'campaign CPU ms': kind === 'sqlite' ? campaign.cpu : '(in the server)',
      'dashboard median ms': dashboard.median,
      'ADMIN dashboard median ms': everyone.median,
    };
  } finally {
    if (!process.env.BENCH_KEEP) await target.cleanup();
    else console.log(`kept: ${JSON.stringify(target.env)}`);
  }
}
