import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresAdapter, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config/env.ts';
import type { DB } from './schema.ts';
import { OwnSchemaPostgresDialect } from './own-schema-introspector.ts';

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
    Client: NamingClient,
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
  return new Kysely<DB>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
}

/** Statements a connection keeps prepared at most; past it, statements go unnamed as before. */
const NAMED_PER_CONNECTION = 256;
const DML = /^\s*(select|insert|update|delete|with)\b/i;
/**
 * `select *`, `"t".*`, `returning *`: a prepared statement's columns are fixed when it is prepared, and
 * a column added by a migration since (another process's, in a rolling start) would fail it ("cached
 * plan must not change result type"). Statements that name their columns are unaffected.
 */
const ALL_COLUMNS = /(?:\bselect|\breturning|,)\s*(?:"[^"]+"\.)?\*/i;
/** A statement longer than this is a bulk write of its own shape, not one repeated on every request. */
const NAMED_MAX_LENGTH = 4096;

/**
 * A client that sends the statements every request repeats (reads and small writes) as named, so
 * PostgreSQL parses and plans each once per connection instead of on every call: planning a list page's
 * query took 0.15 ms, three times running it (README, Benchmarks). The name is the statement's own
 * hash, so one text is one name. DDL and statements that read every column stay unnamed.
 */
class NamingClient extends pg.Client {
  /** Statement text to its name, for those sent named on this connection. */
  private readonly named = new Map<string, string>();

  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (typeof text === 'string' && (values === undefined || Array.isArray(values)) && args.length <= 2) {
      const name = this.nameFor(text);
      if (name) return super.query({ name, text, values } as never) as never;
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }

  private nameFor(text: string): string | undefined {
    const known = this.named.get(text);
    if (known) return known;
    if (this.named.size >= NAMED_PER_CONNECTION) return undefined;
    if (text.length > NAMED_MAX_LENGTH || !DML.test(text) || ALL_COLUMNS.test(text)) return undefined;
    const name = `nd_${createHash('sha1').update(text).digest('base64url')}`;
    this.named.set(text, name);
    return name;
  }
}
