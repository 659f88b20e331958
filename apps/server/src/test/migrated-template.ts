import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { sql } from 'kysely';
import { loadConfig } from '../config/env.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';

/**
 * A migrated database, made once and copied for every test: migrating took 30-50 ms on SQLite and
 * 210-240 ms on PostgreSQL per test on an idle machine (3-6 s on PostgreSQL at load average 20),
 * copying a SQLite file takes about 1 ms and replaying a PostgreSQL schema's dump 4-8 times less than
 * migrating it. The copy is made under a name derived from the migrations' own text, in the system's
 * temporary directory, so a changed or added migration makes a new one and a developer's next run of
 * one file reuses it. Every test still starts from the migrations' result (buildApp migrates again and
 * finds nothing to do), and the migrations still run in full: once, here.
 */

const migrationSources = [
  path.resolve(import.meta.dirname, '../db/migrate.ts'),
  ...fs
    .readdirSync(path.resolve(import.meta.dirname, '../db/migrations'))
    .sort()
    .map((name) => path.resolve(import.meta.dirname, '../db/migrations', name)),
];

function migrationsKey(extra: string): string {
  const hash = createHash('sha256').update(extra);
  for (const file of migrationSources) hash.update(file).update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

const cacheDir = path.join(os.tmpdir(), 'notice-desk-test-templates');

/** Writes `file` whole or not at all: several test workers may make the same template at once. */
function writeAtomically(file: string, write: (partial: string) => void): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    write(partial);
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

const testSecret = 'test-secret-test-secret-test-secret-0123';

/** The path of a migrated SQLite database file to copy (made on first use). */
export async function sqliteTemplate(): Promise<string> {
  const file = path.join(cacheDir, `sqlite-${migrationsKey('sqlite')}.sqlite`);
  if (fs.existsSync(file)) return file;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-template-'));
  try {
    const { db } = await openDatabase(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: testSecret }), {
      checkpointer: false,
    });
    try {
      await migrateToLatest(db);
      // Everything in the file itself, none in the write-ahead log, so the file alone is the database.
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    } finally {
      await db.destroy();
    }
    writeAtomically(file, (partial) => fs.copyFileSync(path.join(dataDir, 'notice-desk.sqlite'), partial));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return file;
}

/** Puts the migrated SQLite database in `dataDir`, unless a database is already there. */
export async function copySqliteTemplate(dataDir: string): Promise<void> {
  const target = path.join(dataDir, 'notice-desk.sqlite');
  if (fs.existsSync(target)) return;
  const template = await sqliteTemplate();
  fs.mkdirSync(dataDir, { recursive: true });
  fs.copyFileSync(template, target);
}

const execFileAsync = promisify(execFile);

/**
 * The SQL that makes a migrated schema (pg_dump of one migrated once), with the schema's name as
 * `templateName`; undefined when pg_dump is missing or fails (the caller then migrates as before).
 */
async function postgresTemplate(
  databaseUrl: string,
): Promise<{ text: string; templateName: string } | undefined> {
  const key = migrationsKey(`postgres ${databaseUrl}`);
  const templateName = `tpl_${key}`;
  const file = path.join(cacheDir, `postgres-${key}.sql`);
  if (fs.existsSync(file)) return { text: fs.readFileSync(file, 'utf8'), templateName };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // One worker makes it; the others wait and read its file.
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [templateName]);
    if (fs.existsSync(file)) return { text: fs.readFileSync(file, 'utf8'), templateName };
    await client.query(`DROP SCHEMA IF EXISTS "${templateName}" CASCADE`);
    const config = loadConfig({
      DATA_DIR: os.tmpdir(),
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: templateName,
      JWT_SECRET: testSecret,
    });
    const { db } = await openDatabase(config, { checkpointer: false });
    try {
      await migrateToLatest(db, templateName);
    } finally {
      await db.destroy();
    }
    let dump: string;
    try {
      ({ stdout: dump } = await execFileAsync(
        'pg_dump',
        ['--schema', templateName, '--inserts', '--no-owner', '--no-privileges', databaseUrl],
        { maxBuffer: 64 * 1024 * 1024 },
      ));
    } catch {
      return undefined;
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS "${templateName}" CASCADE`);
    }
    // psql's own commands (\restrict) are not SQL; the rest runs as one simple query.
    const text = dump
      .split('\n')
      .filter((line) => !line.startsWith('\\'))
      .join('\n');
    writeAtomically(file, (partial) => fs.writeFileSync(partial, text));
    return { text, templateName };
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [templateName]).catch(() => undefined);
    await client.end();
  }
}

const postgresTemplates = new Map<string, ReturnType<typeof postgresTemplate>>();

/** Makes `schema` a migrated copy; does nothing when no template could be made (buildApp migrates). */
export async function copyPostgresTemplate(databaseUrl: string, schema: string): Promise<void> {
  if (!postgresTemplates.has(databaseUrl)) postgresTemplates.set(databaseUrl, postgresTemplate(databaseUrl));
  const template = await postgresTemplates.get(databaseUrl);
  if (!template) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(template.text.replaceAll(template.templateName, schema));
  } finally {
    await client.end();
  }
}
