import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { noticeKind } from '../src/modules/records/record-kinds.ts';
import { signUpOver, startServerProcess } from '../src/test/server-process.ts';
import { benchTarget, hammer, seedCampaign, type BenchTarget, type HttpFigures } from './support.ts';

const MAIN_RECORDS = 1_000_000;
const OTHER_USERS = 3;
const OTHER_RECORDS = 20_000;
const LIMIT = 10;
const DURATION_S = 20;

/** 1,000,000 notices for one user among others, pages across the whole range, 50 connections for 20 s. */
export async function benchLists(label: BenchTarget['label']): Promise<HttpFigures> {
  const target = await benchTarget(label, 'lists');
  const server = await startServerProcess(target.env);
  try {
    const main = await signUpOver(server.baseUrl, 'bench-main');
    const seedStart = performance.now();
    await seedCampaign(target, main.userId, noticeKind, MAIN_RECORDS);
    for (let u = 0; u < OTHER_USERS; u++) {
      const other = await signUpOver(server.baseUrl, `bench-other-${u}`);
      await seedCampaign(target, other.userId, noticeKind, OTHER_RECORDS);
    }
    const seedSeconds = (performance.now() - seedStart) / 1000;
    // Fresh statistics, as autovacuum would have gathered after a real load of this size.
    const { db } = await openDatabase(target.config);
    await sql`analyze`.execute(db);
    await db.destroy();
    const pages = MAIN_RECORDS / LIMIT;
    const path = () => `/api/notices/by-user-id?page=${1 + Math.floor(Math.random() * pages)}&limit=${LIMIT}`;
    // One deep request first, as a real user's first visit would, so the measurement is of steady state.
    const warm = await fetch(`${server.baseUrl}/api/notices/by-user-id?page=${pages}&limit=${LIMIT}`, {
      headers: main.headers,
    });
    const warmBody = (await warm.json()) as { total: number; items: unknown[] };
    if (warmBody.total !== MAIN_RECORDS || warmBody.items.length !== LIMIT)
      throw new Error('seeded list is wrong');

    return await hammer(
      label,
      { baseUrl: server.baseUrl, headers: main.headers, path },
      { seconds: DURATION_S, seedSeconds },
    );
  } finally {
    await server.stop();
    await target.cleanup();
  }
}
