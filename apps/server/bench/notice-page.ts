import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { startServerProcess } from '../src/test/server-process.ts';
import { benchTarget, migratedWithOwner, seedSendableNotices, type BenchTarget } from './support.ts';

/** Notices with a page: each is visited a few times a run, under the per-code limit. */
const PAGES = 2_000;
export const VISITORS_PER_SECOND = 200;
const SECONDS = Number(process.env.BENCH_NOTICE_PAGE_SECONDS ?? 30);

export interface NoticePageFigures {
  database: string;
  request: string;
  'requests/s': number;
  'p50 ms': number;
  'p99 ms': number;
  'max ms': number;
  errors: number;
}

/**
 * The public notice page under visitors arriving at a fixed rate (not as fast as answers come back,
 * which would hide queueing): each visitor loads the page (its HTML), asks what it may show
 * (the intro, which writes a link_opened event) and answers the check (verify: the digits compared,
 * a verified event written, a token signed). Three request streams at VISITORS_PER_SECOND each, at once.
 */
export async function benchNoticePage(label: BenchTarget['label']): Promise<NoticePageFigures[]> {
  const target = await benchTarget(label, 'notice_page');
  try {
    const { db, ownerId } = await migratedWithOwner(target);
    const now = new Date().toISOString();
    const { campaignId, ids } = await seedSendableNotices(target, ownerId, PAGES);
    // The codes a send makes (notice-pages.service.ts linkFor), written as it writes them.
    const pages = ids.map((recordId, i) => ({
      code: randomBytes(16).toString('base64url'),
      answer: String(100_000_000 + i).slice(-4),
      recordId,
    }));
    for (let start = 0; start < pages.length; start += 500)
      await db
        .insertInto('notice_links')
        .values(
          pages.slice(start, start + 500).map((p) => ({
            code: p.code,
            owner_id: ownerId,
            record_kind: 'notice' as const,
            record_id: p.recordId,
            campaign_id: campaignId,
            created_at: now,
          })),
        )
        .execute();
    await db.destroy();

    // Every visitor comes from this one address here: its own limit would measure itself.
    const server = await startServerProcess({
      ...target.env,
      NOTICE_PAGE_ADDRESS_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
    });
    try {
      const pick = () => pages[Math.floor(Math.random() * pages.length)]!;
      const streams = {
        'the page (HTML)': { method: 'GET' as const, make: () => ({ path: `/n/${pick().code}?c=w` }) },
        'what it shows before the check': {
          method: 'GET' as const,
          make: () => ({ path: `/api/public/notices/${pick().code}?c=w` }),
        },
        'the check (verify)': {
          method: 'POST' as const,
          make: () => {
            const page = pick();
            return {
              path: `/api/public/notices/${page.code}/verify?c=w`,
              body: JSON.stringify({ answer: page.answer }),
            };
          },
        },
      };
      const results = await Promise.all(
        Object.entries(streams).map(async ([request, stream]) => {
          const result = await autocannon({
            url: server.baseUrl,
            connections: 50,
            overallRate: VISITORS_PER_SECOND,
            duration: SECONDS,
            headers: { 'content-type': 'application/json', 'accept-encoding': 'br, gzip' },
            requests: [{ method: stream.method, setupRequest: (req) => ({ ...req, ...stream.make() }) }],
          });
          return {
            database: label,
            request,
            'requests/s': Math.round(result.requests.average),
            'p50 ms': result.latency.p50,
            'p99 ms': result.latency.p99,
            'max ms': result.latency.max,
            errors: result.errors + result.non2xx,
          };
        }),
      );
      return results;
    } finally {
      await server.stop();
    }
  } finally {
    await target.cleanup();
  }
}
