import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig, type Config } from '../src/config/env.ts';
import { openDatabase } from '../src/db/database.ts';
import { newId } from '../src/lib/ids.ts';
import { insertImportCampaign, markCampaignReady } from '../src/modules/campaigns/campaigns.repository.ts';
import type { RecordKindInfo } from '../src/modules/records/record-kinds.ts';
import {
  adjustRecordCount,
  insertRecords,
  type RecordRow,
} from '../src/modules/records/records.repository.ts';

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

/** One campaign of `count` records of a kind, written straight to the database (as an import leaves it). */
export async function seedCampaign(
  target: BenchTarget,
  ownerId: string,
  info: RecordKindInfo,
  count: number,
  fill: (row: RecordRow, i: number) => void = () => undefined,
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
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += 500) {
      const rows: RecordRow[] = [];
      for (let i = start; i < Math.min(count, start + 500); i++) {
        const row: RecordRow = {
          id: newId(),
          owner_id: ownerId,
          campaign_id: campaignId,
          created_at: now,
          updated_at: now,
        };
        for (const f of info.fields) row[f.key] = `${f.label} ${i}`;
        fill(row, i);
        rows.push(row);
        ids.push(row.id);
      }
      await insertRecords(trx, info, rows);
    }
  });
  await markCampaignReady(db, campaignId, { imported: count, skipped: 0 });
  await adjustRecordCount(db, ownerId, info.kind, count);
  await db.destroy();
  return { campaignId, ids };
}
