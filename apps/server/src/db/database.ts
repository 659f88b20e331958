import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config/env.ts';
import type { DB } from './schema.ts';

export type Database = Kysely<DB>;
export type DatabaseKind = 'sqlite' | 'postgres';

export interface OpenDatabase {
  db: Database;
  kind: DatabaseKind;
}

// COUNT(*) and BIGINT columns come back from pg as strings; every such value here fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Whether `db` talks to PostgreSQL (else SQLite): for the few statements written per dialect. */
export const isPostgres = (db: Database) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The file a SQLite database lives in (a second connection, on another thread, opens it too). */
export async function sqliteFile(db: Database): Promise<string> {
  const files = await sql<{ name: string; file: string }>`pragma database_list`.execute(db);
  const file = files.rows.find((row) => row.name === 'main')?.file;
  if (!file) throw new Error('The SQLite database has no file to open a second connection to.');
  return file;
}

export async function openDatabase(config: Config): Promise<OpenDatabase> {
  if (config.databaseUrl)
    return { db: await openPostgres({ ...config, databaseUrl: config.databaseUrl }), kind: 'postgres' };
  fs.mkdirSync(config.dataDir, { recursive: true });
  const file = new SqliteDatabase(path.join(config.dataDir, 'notice-desk.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  return {
    db: new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) }),
    kind: 'sqlite',
  };
}

/**
 * better-sqlite3 prepares a statement on every call Kysely makes; preparing a wide multi-row insert costs
 * more than running it. Keeping the most recently used statements makes repeated queries (every list
 * page, every batch of an import) skip that work.
 */
function withStatementCache(file: SqliteDatabase.Database, size = 256): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = (sql: string) => {
    let statement = cache.get(sql);
    if (statement) {
      cache.delete(sql);
    } else {
      statement = file.prepare(sql);
      if (cache.size >= size) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, statement);
    return statement;
  };
  return new Proxy(file, {
    get: (target, key) => (key === 'prepare' ? prepare : Reflect.get(target, key, target)),
  });
}

async function openPostgres({
  databaseUrl: connectionString,
  databaseSchema: schema,
  databasePoolMax,
  databaseStatementTimeoutMs,
}: Config & { databaseUrl: string }): Promise<Database> {
  if (schema !== 'public') {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString,
    max: databasePoolMax,
    connectionTimeoutMillis: 5000,
    // A server that vanished without closing the connection (a dead host, a dropped NAT entry) is noticed.
    keepAlive: true,
    options: `-c search_path="${schema}" -c statement_timeout=${databaseStatementTimeoutMs}`,
  });
  // A client losing its server (a PostgreSQL restart) must not crash the process. The pool listens on
  // its idle clients; a checked-out client between two queries (inside a transaction, say) emits
  // 'error' with nobody listening, so every client gets a listener of its own. Its next query fails
  // ("not queryable", answered 503) and the pool drops it when it is released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}
