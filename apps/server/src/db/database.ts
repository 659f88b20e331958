import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresAdapter, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config/env.ts';
import { startTsWorker } from '../lib/ts-worker.ts';
import type { CheckpointerData } from './checkpointer.ts';
import { OwnSchemaPostgresDialect } from './own-schema-introspector.ts';
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

export interface OpenOptions {
  /**
   * A thread of this process that checkpoints SQLite's log (below): for a process that serves, and only
   * from its main thread. A one-shot command (the admin CLI) leaves the checkpoint to SQLite, at close.
   */
  checkpointer?: boolean;
}

export async function openDatabase(
  config: Config,
  { checkpointer: withCheckpointer = isMainThread }: OpenOptions = {},
): Promise<OpenDatabase> {
  if (config.databaseUrl)
    return { db: await openPostgres({ ...config, databaseUrl: config.databaseUrl }), kind: 'postgres' };
  fs.mkdirSync(config.dataDir, { recursive: true });
  const name = path.join(config.dataDir, 'notice-desk.sqlite');
  const file = new SqliteDatabase(name);
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  const checkpointer = withCheckpointer ? await startCheckpointer(file, name) : undefined;
  return {
    db: new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(file, checkpointer) }) }),
    kind: 'sqlite',
  };
}

/** How often the checkpointer thread copies the write-ahead log into the database file. */
const CHECKPOINT_EVERY_MS = 500;
/** The main connection's own checkpoint, should that thread fall behind: past 64 MB of log (4 KB pages). */
const MAIN_CHECKPOINT_PAGES = 16_384;

/**
 * SQLite copies its write-ahead log into the database file (a checkpoint, with an fsync) on the
 * connection whose commit takes the log past 1,000 pages: on the main thread, during a 100,000-row
 * import, dozens of times. A thread of its own does it instead (checkpointer.ts); a 100,000-row import
 * took 7.0-7.1 s without any checkpoint against 7.9-8.8 s with SQLite's own (alternated). Only the main
 * thread of a serving process starts one (OpenOptions): a worker thread's connection (the import's
 * hand-over) is short-lived, and so is the admin CLI.
 */
async function startCheckpointer(file: SqliteDatabase.Database, name: string): Promise<Checkpointer> {
  file.pragma(`wal_autocheckpoint = ${MAIN_CHECKPOINT_PAGES}`);
  const closed = new Int32Array(new SharedArrayBuffer(4));
  const data: CheckpointerData = { file: name, everyMs: CHECKPOINT_EVERY_MS, closed };
  const thread = await startTsWorker(new URL('./checkpointer.ts', import.meta.url), { workerData: data });
  let running = true;
  // A thread that failed leaves the checkpoints to the main connection (above); it must not end the process.
  thread.on('error', () => undefined);
  thread.on('exit', () => (running = false));
  thread.unref();
  return {
    stop() {
      if (!running) return;
      // Its connection closes before the main one, which, closing last, removes the log files at once:
      // whoever removes the data directory next (a test, an operator's script) finds nothing reappear.
      thread.postMessage('stop');
      Atomics.wait(closed, 0, 0, 5000);
    },
  };
}

interface Checkpointer {
  /** Closes the thread's connection, and waits for it (at most 5 s). */
  stop(): void;
}

/**
 * better-sqlite3 prepares a statement on every call Kysely makes; preparing a wide multi-row insert costs
 * more than running it. Keeping the most recently used statements makes repeated queries (every list
 * page, every batch of an import) skip that work.
 */
function withStatementCache(
  file: SqliteDatabase.Database,
  checkpointer: Checkpointer | undefined,
  size = 256,
): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = (sql: string) => {
    // SQLite ends a transaction itself on some errors (SQLITE_FULL: the disk is full); Kysely's rollback
    // after that would fail ('no transaction is active') and be thrown in place of the error that said why.
    if (sql === 'rollback' && !file.inTransaction) sql = 'select 1';
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
  const close = () => {
    checkpointer?.stop();
    return file.close();
  };
  return new Proxy(file, {
    get: (target, key) =>
      key === 'prepare' ? prepare : key === 'close' ? close : Reflect.get(target, key, target),
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
 * query took 0.15 ms, three times running it (docs/benchmarks.md). The name is the statement's own
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

/** The PostgreSQL channel a queued job is announced on; the payload is the schema it was queued in. */
export const JOBS_CHANNEL = 'notice_desk_jobs';

export interface JobWakeups {
  /** Resolves once the first LISTEN is in place (a test waits for it). */
  listening: Promise<void>;
  close(): Promise<void>;
}

/**
 * LISTENs on a connection of its own (not the pool's) for jobs queued in this process's schema by
 * any process, and calls `wake` for each, so a runner starts a job as soon as it is committed rather
 * than at its next poll. A lost connection is opened again a second later, and `wake` called then
 * (a job queued meanwhile was announced to nobody); the poll stays as the floor beneath it all.
 */
export function listenForJobs(
  { databaseUrl: connectionString, databaseSchema: schema }: Pick<Config, 'databaseUrl' | 'databaseSchema'>,
  wake: () => void,
  onError: (err: unknown) => void,
): JobWakeups {
  let closed = false;
  let client: pg.Client | undefined;
  let listened: () => void = () => undefined;
  const listening = new Promise<void>((resolve) => (listened = resolve));
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString, keepAlive: true });
    client = next;
    const again = (err?: unknown) => {
      if (client !== next || closed) return;
      client = undefined;
      if (err) onError(err);
      next.end().catch(() => undefined);
      retry = setTimeout(() => void connect().then(wake), 1000);
    };
    next.on('error', again);
    next.on('end', () => again());
    next.on('notification', (message) => {
      if (message.channel === JOBS_CHANNEL && message.payload === schema) wake();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${JOBS_CHANNEL}`);
      listened();
    } catch (err) {
      again(err);
    }
  };
  void connect();
  return {
    listening,
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
