import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { startServerProcess } from '../src/test/server-process.ts';
import { cpuSeconds } from './process-stats.ts';
import { benchTarget, migratedWithOwner, seedSendableNotices, type BenchTarget } from './support.ts';

/** Notices with a page: each is visited a few times a run, under the per-code limit. */
const PAGES = 2_000;
export const VISITORS_PER_SECOND = 200;
const SECONDS = Number(process.env.BENCH_NOTICE_PAGE_SECONDS ?? 30);
const ANCHOR_SECONDS = 10;
const WARM_SECONDS = 3;

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
 * a verified event written, a token signed). Three request streams at VISITORS_PER_SECOND each, at once,
 * after a few seconds' warm-up; before them the anchor, the health check alone at their total rate;
 * and the server's CPU time a visitor.
 */
export async function benchNoticePage(
  label: BenchTarget['label'],
): Promise<{ figures: NoticePageFigures[]; cpuMsPerVisitor: number }> {
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
      const figuresOf = (request: string, result: autocannon.Result): NoticePageFigures => ({
        database: label,
        request,
        'requests/s': Math.round(result.requests.average),
        'p50 ms': result.latency.p50,
        'p99 ms': result.latency.p99,
        'max ms': result.latency.max,
        errors: result.errors + result.non2xx,
      });
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
      const visit = (rate: number, duration: number) =>
        Promise.all(
          Object.entries(streams).map(async ([request, stream]) => {
            const result = await autocannon({
              url: server.baseUrl,
              connections: 50,
              overallRate: rate,
              duration,
              headers: { 'content-type': 'application/json', 'accept-encoding': 'br, gzip' },
              requests: [{ method: stream.method, setupRequest: (req) => ({ ...req, ...stream.make() }) }],
            });
            return figuresOf(request, result);
          }),
        );
      // Warm, not counted: a fresh process compiles and optimises its routes in its first seconds (a
      // served process has long done so), which at 600 requests a second is a second of queue.
      await visit(VISITORS_PER_SECOND / 4, WARM_SECONDS);
      // The anchor, just before: the same process answering its health check (one database read, no
      // write) at the three streams' rate together. What the machine and one process give at this minute.
      const anchor = await autocannon({
        url: `${server.baseUrl}/api/health`,
        connections: 50,
        overallRate: VISITORS_PER_SECOND * 3,
        duration: ANCHOR_SECONDS,
      });
      const cpuAtStart = cpuSeconds(server.child.pid!);
      const results = await visit(VISITORS_PER_SECOND, SECONDS);
      // What a visitor costs the server: steadier than its latency on a machine others load.
      const cpuMsPerVisitor =
        ((cpuSeconds(server.child.pid!) - cpuAtStart) * 1000) / (VISITORS_PER_SECOND * SECONDS);
      return {
        figures: [
          figuresOf(`anchor: GET /api/health alone, ${VISITORS_PER_SECOND * 3}/s`, anchor),
          ...results,
        ],
        cpuMsPerVisitor: Number(cpuMsPerVisitor.toFixed(2)),
      };
    } finally {
      await server.stop();
    }
  } finally {
    await target.cleanup();
  }
}
