import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../config/env.ts';
import { insertUser } from '../modules/auth/auth.repository.ts';
import { copyPostgresTemplate, copySqliteTemplate } from '../test/migrated-template.ts';
import { isPostgres, openDatabase, type Database } from './database.ts';
import { migrateToLatest, migrations, pendingMigrations, prepareSchema } from './migrate.ts';

/** `npm run migrate` and MIGRATE_ON_START=false (issue 32): a database that is behind is named, never used. */
const databaseUrl = process.env.DATABASE_URL;
let config: Config;
let schema: string | undefined;
const open: Database[] = [];
const last = '20261129_deploy_01_jobs_list_index';

const connect = async () => {
  const { db } = await openDatabase(config, { checkpointer: false });
  open.push(db);
  return db;
};

beforeEach(() => {
  schema = databaseUrl ? `test_${randomBytes(6).toString('hex')}` : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-migrate-'));
  config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.destroy()));
  if (databaseUrl && schema) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
  fs.rmSync(config.dataDir, { recursive: true, force: true });
});

describe('migrations', () => {
  it('refuses an empty database without MIGRATE_ON_START, naming the first migration and the step to run', async () => {
    const db = await connect();
    const all = Object.keys(migrations).sort();
    await expect(prepareSchema(db, schema, false)).rejects.toThrow(
      `The database is behind this version: migration ${all[0]} and ${all.length - 1} more has not run. Run \`npm run migrate\` first (MIGRATE_ON_START is false).`,
    );
    // Nothing was written: the refusal made no table.
    expect(await pendingMigrations(db, schema)).toEqual(all);
  });

  it('names the one migration a database lacks; two processes migrating at once run it once, on PostgreSQL CONCURRENTLY', async () => {
    if (schema) await copyPostgresTemplate(databaseUrl!, schema);
    else await copySqliteTemplate(config.dataDir);
    const db = await connect();
    await prepareSchema(db, schema, false);
    // As if an older release had migrated this database, and it had been in service since (a job).
    await sql`drop index jobs_list_idx`.execute(db);
    await db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', last as never)
      .execute();
    const now = new Date().toISOString();
    await insertUser(db, { id: 'u1', name: 'U', username: 'u', password_hash: 'x', created_at: now });
    await sql`insert into jobs (id, kind, owner_id, subject, payload, status, max_attempts, run_after, created_at, updated_at)
      values ('j1', 'send', 'u1', 's', '{}', 'queued', 1, ${now}, ${now}, ${now})`.execute(db);
    await expect(prepareSchema(db, schema, false)).rejects.toThrow(
      `The database is behind this version: migration ${last} has not run.`,
    );
    // `npm run migrate` twice at once (SQLite serves one process: there, once).
    await Promise.all([
      migrateToLatest(db, schema),
      ...(schema ? [migrateToLatest(await connect(), schema)] : []),
    ]);
    expect(await pendingMigrations(db, schema)).toEqual([]);
    const ran = await db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    expect(ran.length).toBe(Object.keys(migrations).length);
    if (isPostgres(db)) {
      const index = await sql<{ valid: boolean; definition: string }>`
        select i.indisvalid as valid, pg_get_indexdef(i.indexrelid) as definition
        from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
        where c.relname = 'jobs_list_idx' and n.nspname = ${schema}`.execute(db);
      expect(index.rows).toEqual([{ valid: true, definition: expect.stringContaining('(created_at, id)') }]);
    }
  });
});
