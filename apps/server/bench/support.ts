import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig, type Config } from '../src/config/env.ts';

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
