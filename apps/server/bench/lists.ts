import autocannon from 'autocannon';
import { sql } from 'kysely';
import { noticeFields } from '@notice-desk/contract/notice';
import { openDatabase } from '../src/db/database.ts';
import { newId } from '../src/lib/ids.ts';
import { ensureManualCampaign } from '../src/modules/campaigns/campaigns.repository.ts';
import { noticeKind } from '../src/modules/records/record-kinds.ts';
import {
  adjustRecordCount,
  insertRecords,
  type RecordRow,
} from '../src/modules/records/records.repository.ts';
import { signUpOver, startServerProcess } from '../src/test/server-process.ts';
import { benchTarget, type BenchTarget } from './support.ts';

const MAIN_RECORDS = 1_000_000;
const OTHER_USERS = 3;
const OTHER_RECORDS = 20_000;
const LIMIT = 10;
const CONNECTIONS = 50;
const DURATION_S = 20;

async function seed(target: BenchTarget, ownerId: string, count: number): Promise<void> {
  const { db } = await openDatabase(target.config);
  const now = new Date().toISOString();
  const campaignId = await ensureManualCampaign(db, ownerId, 'notice', now);
  const chunk = 500;
  const perTransaction = 20_000;
  for (let start = 0; start < count; start += perTransaction) {
    await db.transaction().execute(async (trx) => {
      for (let i = start; i < Math.min(count, start + perTransaction); i += chunk) {
        const rows: RecordRow[] = [];
        for (let j = i; j < Math.min(count, i + chunk); j++) {
          const row: RecordRow = {
            id: newId(),
            owner_id: ownerId,
            campaign_id: campaignId,
            created_at: now,
            updated_at: now,
          };
          for (const field of noticeFields) row[field.key] = `${field.key.slice(0, 6)} ${j}`;
          rows.push(row);
        }
        await insertRecords(trx, noticeKind, rows);
      }
    });
  }
  await adjustRecordCount(db, ownerId, 'notice', count);
  await db.destroy();
}

export interface ListFigures {
  database: string;
  'requests/s': number;
  'p50 ms': number;
  'p99 ms': number;
  errors: number;
  'seed s': number;
}

/** 1,000,000 notices for one user among others, pages across the whole range, 50 connections for 20 s. */
export async function benchLists(label: BenchTarget['label']): Promise<ListFigures> {
  const target = await benchTarget(label, 'lists');
  const server = await startServerProcess(target.env);
  try {
    const main = await signUpOver(server.baseUrl, 'bench-main');
    const seedStart = performance.now();
    await seed(target, main.userId, MAIN_RECORDS);
    for (let u = 0; u < OTHER_USERS; u++) {
      const other = await signUpOver(server.baseUrl, `bench-other-${u}`);
      await seed(target, other.userId, OTHER_RECORDS);
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

    const result = await autocannon({
      url: server.baseUrl,
      connections: CONNECTIONS,
      duration: DURATION_S,
      headers: main.headers,
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: path() }) }],
    });
    return {
      database: label,
      'requests/s': Math.round(result.requests.average),
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      errors: result.errors + result.non2xx,
      'seed s': Math.round(seedSeconds),
    };
  } finally {
    await server.stop();
    await target.cleanup();
  }
}
