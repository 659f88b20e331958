import { CompiledQuery, sql } from 'kysely';
import { isPostgres, type Database } from './database.ts';

/** SQLite binds at most this many values per statement here (its own limit is 32,766). */
const SQLITE_VALUES_PER_STATEMENT = 4200;
/** PostgreSQL takes this many rows per statement: each column's values go as one array. */
const POSTGRES_ROWS_PER_STATEMENT = 5000;

const statements = new Map<string, string>();

type Row = Readonly<Record<string, string | undefined>>;

/**
 * Inserts many rows of text columns (records, search terms) the fastest way each database takes
 * them; an import writes hundreds of thousands. `rows` is read as it goes, so only one statement's
 * rows exist at a time.
 *
 * - PostgreSQL: `insert … select * from unnest($1::text[], …)`, one array per column, so a statement
 *   of 5,000 rows binds 6 or 42 values, not 30,000 or 210,000 (binding and parsing each costs more
 *   than inserting it).
 * - SQLite: multi-row VALUES statements of up to 4,200 values, the rest in powers of two, so there
 *   are few statement shapes and each is prepared once (the driver keeps prepared statements).
 *
 * The SQL of each shape is built once: building a Kysely query costs more than running it.
 */
export async function insertTextRows(
  db: Database,
  table: string,
  columns: readonly string[],
  rows: Iterable<Row>,
): Promise<void> {
  const postgres = isPostgres(db);
  const perStatement = postgres
    ? POSTGRES_ROWS_PER_STATEMENT
    : Math.max(1, Math.floor(SQLITE_VALUES_PER_STATEMENT / columns.length));
  const write = postgres ? insertAsArrays : insertAsValues;
  let chunk: Row[] = [];
  for (const row of rows) {
    chunk.push(row);
    if (chunk.length === perStatement) {
      await write(db, table, columns, chunk);
      chunk = [];
    }
  }
  if (postgres) {
    if (chunk.length) await write(db, table, columns, chunk);
    return;
  }
  for (let start = 0; start < chunk.length;) {
    const size = 2 ** Math.floor(Math.log2(chunk.length - start));
    await write(db, table, columns, chunk.slice(start, start + size));
    start += size;
  }
}

async function insertAsValues(db: Database, table: string, columns: readonly string[], chunk: Row[]) {
  const key = `sqlite:${table}:${columns.join(',')}:${chunk.length}`;
  let text = statements.get(key);
  if (!text) {
    const placeholders = sql.join(
      chunk.map(() => sql`(${sql.join(columns.map(() => sql`${''}`))})`),
      sql`, `,
    );
    text =
      sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${placeholders}`.compile(
        db,
      ).sql;
    statements.set(key, text);
  }
  const parameters: string[] = [];
  for (const row of chunk) for (const column of columns) parameters.push(row[column] ?? '');
  await db.executeQuery(CompiledQuery.raw(text, parameters));
}

async function insertAsArrays(db: Database, table: string, columns: readonly string[], chunk: Row[]) {
  const key = `postgres:${table}:${columns.join(',')}`;
  let text = statements.get(key);
  if (!text) {
    const arrays = sql.join(columns.map(() => sql`${[]}::text[]`));
    text =
      sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) select * from unnest(${arrays})`.compile(
        db,
      ).sql;
    statements.set(key, text);
  }
  const arrays = columns.map((column) => textArray(chunk.map((row) => row[column] ?? '')));
  await db.executeQuery(CompiledQuery.raw(text, arrays));
}

const NEEDS_ESCAPE = /["\\]/;

/**
 * The values as a PostgreSQL text[] literal, `{"a","b"}`: what the pg driver makes of an array, made
 * with one join instead of two regular-expression replaces per value (an import sends millions).
 */
export function textArray(values: readonly string[]): string {
  if (values.length === 0) return '{}';
  const plain = !values.some((value) => NEEDS_ESCAPE.test(value));
  const elements = plain ? values : values.map((value) => value.replace(/["\\]/g, '\\$&'));
  return `{"${elements.join('","')}"}`;
}
