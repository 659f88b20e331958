import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig, type Config } from '../src/config/env.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { newId } from '../src/lib/ids.ts';
import { insertUser } from '../src/modules/auth/auth.repository.ts';
import { insertImportCampaign, markCampaignReady } from '../src/modules/campaigns/campaigns.repository.ts';
import { noticeKind, type RecordKindInfo } from '../src/modules/records/record-kinds.ts';
import {
  adjustRecordCount,
  insertRecords,
  type RecordRow,
} from '../src/modules/records/records.repository.ts';
import { indexRecords } from '../src/modules/search/search-index.ts';

export interface BenchTarget {
  label: 'SQLite' | 'PostgreSQL';
  /** Environment for the server process and for loadConfig in this one. */
  env: Record<string, string>;
  config: Config;
  cleanup(): Promise<void>;
}

const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh SQLite DATA_DIR, or a fresh PostgreSQL schema, for one benchmark. */
export async function benchTarget(label: BenchTarget['label'], name: string): Promise<BenchTarget> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `notice-desk-bench-${name}-`));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    // Benchmarks hammer from one address (thousands of requests a second, dozens of sign-ups a
    // minute): the per-address request limit and password-check cap would measure themselves.
    RATE_LIMIT: '0',
    PASSWORD_CHECKS_PER_MINUTE: '0',
    // Each notice prints its verification link, APP_URL/v/<code>; unset, APP_URL follows the port, so a
    // second process on another port would find none of the first one's PDFs kept and print them anew.
    APP_URL: 'https://notices.example.in',
  };
  let schema: string | undefined;
  if (label === 'PostgreSQL') {
    schema = `bench_${name}`;
    await dropSchema(schema);
    Object.assign(env, { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema });
  }
  return {
    label,
    env,
    config: loadConfig(env),
    async cleanup() {
      if (schema) await dropSchema(schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export function table(rows: Record<string, string | number>[]): void {
  console.table(rows);
}

/** How seedCampaign fills each row beyond its ids, and whether it writes the rows' search terms. */
/** The target's database, migrated, with one user to own what a benchmark seeds. */
export async function migratedWithOwner(target: BenchTarget) {
  const { db, kind } = await openDatabase(target.config);
  await migrateToLatest(db, kind === 'postgres' ? target.config.databaseSchema : undefined);
  const ownerId = newId();
  await insertUser(db, {
    id: ownerId,
    name: 'Bench',
    username: 'bench',
    password_hash: 'x',
    created_at: new Date().toISOString(),
  });
  return { db, kind, ownerId };
}

export interface SeedOptions {
  fill?: (row: RecordRow, i: number) => void;
  /** Index the rows for the header search, as an import does (the search benchmark needs it). */
  searchable?: boolean;
}

/** Rows per committed transaction: a million-row seed never holds one transaction open for minutes. */
const SEED_ROWS_PER_TRANSACTION = 20_000;

/** One campaign of `count` records of a kind, written straight to the database (as an import leaves it). */
export async function seedCampaign(
  target: BenchTarget,
  ownerId: string,
  info: RecordKindInfo,
  count: number,
  { fill, searchable = false }: SeedOptions = {},
): Promise<{ campaignId: string; ids: string[] }> {
  const { db } = await openDatabase(target.config);
  const now = new Date().toISOString();
  const campaignId = newId();
  await db
    .insertInto('jobs')
    .values({
      id: campaignId,
      kind: 'seed',
      owner_id: ownerId,
      subject: 'seed',
      payload: '{}',
      status: 'done',
      attempts: 1,
      max_attempts: 1,
      run_after: now,
      lease_until: null,
      locked_by: null,
      progress: 100,
      result: null,
      error: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await insertImportCampaign(db, {
    id: campaignId,
    owner_id: ownerId,
    kind: info.kind,
    name: `bench ${info.kind} ${count}`,
    job_id: campaignId,
    created_at: now,
  });
  const ids: string[] = [];
  for (let first = 0; first < count; first += SEED_ROWS_PER_TRANSACTION) {
    const end = Math.min(count, first + SEED_ROWS_PER_TRANSACTION);
    await db.transaction().execute(async (trx) => {
      for (let start = first; start < end; start += 500) {
        const rows: RecordRow[] = [];
        for (let i = start; i < Math.min(end, start + 500); i++) {
          const row: RecordRow = {
            id: newId(),
            owner_id: ownerId,
            campaign_id: campaignId,
            created_at: now,
            updated_at: now,
          };
          for (const f of info.fields) row[f.key] = `${f.label} ${i}`;
          fill?.(row, i);
          rows.push(row);
          ids.push(row.id);
        }
        await insertRecords(trx, info, rows);
        if (searchable) await indexRecords(trx, info.kind, ownerId, rows);
      }
    });
  }
  await markCampaignReady(db, campaignId, { imported: count, skipped: 0 });
  await adjustRecordCount(db, ownerId, info.kind, count);
  await db.destroy();
  return { campaignId, ids };
}

/**
 * A campaign of `count` notices to mail and WhatsApp (or the channels `modeOfDispatch` names), each to
 * its own address, number and PIN code.
 */
export function seedSendableNotices(
  target: BenchTarget,
  ownerId: string,
  count: number,
  modeOfDispatch = 'Email and WhatsApp',
) {
  return seedCampaign(target, ownerId, noticeKind, count, {
    fill: (row, i) => {
      row.emailId = `customer${i}@example.com`;
      row.custMobileNo = `9${String(100_000_000 + i)}`;
      row.zipCode = String(110_001 + ((i * 7919) % 800_000));
      row.modeOfDispatch = modeOfDispatch;
    },
  });
}

/** Throughput and latency of one endpoint under load, as the list and search benchmarks print them. */
export interface HttpFigures {
  database: string;
  'requests/s': number;
  'p50 ms': number;
  'p99 ms': number;
  errors: number;
  'seed s': number;
}

/** `connections` clients asking `path()` again the moment each answer arrives, for `seconds`. */
export async function hammer(
  label: BenchTarget['label'],
  request: { baseUrl: string; headers: Record<string, string>; path: () => string },
  {
    connections = 50,
    seconds = 20,
    seedSeconds,
  }: { connections?: number; seconds?: number; seedSeconds: number },
): Promise<HttpFigures> {
  const result = await autocannon({
    url: request.baseUrl,
    connections,
    duration: seconds,
    headers: request.headers,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: request.path() }) }],
  });
  return {
    database: label,
    'requests/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    errors: result.errors + result.non2xx,
    'seed s': Math.round(seedSeconds),
  };
}
