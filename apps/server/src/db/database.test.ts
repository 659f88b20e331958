import { sql } from 'kysely';
import pg from 'pg';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { openDatabase } from './database.ts';
import { migrateToLatest } from './migrate.ts';

const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)('PostgreSQL connections (PostgreSQL pass)', () => {
  it('cancels a statement that runs past DATABASE_STATEMENT_TIMEOUT, and the pool goes on', async () => {
    const config = loadConfig({ DATABASE_URL: databaseUrl, DATABASE_STATEMENT_TIMEOUT: '1s' });
    const { db } = await openDatabase(config);
    try {
      const started = performance.now();
      await expect(sql`select pg_sleep(5)`.execute(db)).rejects.toThrow(/statement timeout/);
      expect(performance.now() - started).toBeLessThan(4000);
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  it('keeps repeated statements prepared, and a column added meanwhile (another process migrating) breaks none', async () => {
    const schema = `prepared_${process.pid}`;
    // One connection, so the statements prepared are on the one that reads pg_prepared_statements.
    const config = {
      ...loadConfig({ DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema }),
      databasePoolMax: 1,
    };
    const { db } = await openDatabase(config);
    try {
      await sql`create table t (id text primary key, a text not null)`.execute(db);
      await sql`insert into t (id, a) values (${'1'}, ${'x'})`.execute(db);
      const named = () => sql<{ id: string; a: string }>`select id, a from t where id = ${'1'}`.execute(db);
      const every = () => sql`select * from t where id = ${'1'}`.execute(db);
      for (let i = 0; i < 7; i++) await Promise.all([named(), every()]); // past PostgreSQL's five custom plans
      const prepared = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_prepared_statements`.execute(db);
      expect(prepared.rows[0]!.n).toBeGreaterThan(0);
      await sql`alter table t add column b text not null default 'y'`.execute(db);
      expect((await named()).rows).toEqual([{ id: '1', a: 'x' }]);
      expect((await every()).rows).toEqual([{ id: '1', a: 'x', b: 'y' }]);
    } finally {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
    }
  });

  it('migrates while other schemas of the same database are created and dropped, and reads only its own tables', async () => {
    const schema = `own_${process.pid}`;
    const config = loadConfig({ DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema });
    const { db } = await openDatabase(config);
    const churn = new pg.Client({ connectionString: databaseUrl });
    await churn.connect();
    let churning = true;
    let cycles = 0;
    // Another process's schemas coming and going, each with a table (Kysely's own introspector failed on
    // one dropped while it read, with 'schema "…" does not exist', within a few reads).
    const churned = (async () => {
      while (churning) {
        const other = `churn_${process.pid}_${cycles++}`;
        await churn.query(`create schema ${other}; create table ${other}.t (id serial, a text)`);
        await churn.query(`drop schema ${other} cascade`);
      }
    })();
    try {
      await migrateToLatest(db, schema);
      const started = performance.now();
      let reads = 0;
      while (performance.now() - started < 2000 || reads < 50) {
        const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
        expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([schema]));
        reads += 1;
      }
      expect(cycles).toBeGreaterThan(10);
      const tables = await db.introspection.getTables();
      expect(tables.map((table) => table.name)).toContain('users');
      expect(tables.map((table) => table.name)).not.toContain('kysely_migration');
    } finally {
      churning = false;
      await churned;
      await churn.end();
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
    }
  });
});

describe.skipIf(databaseUrl)('SQLite checkpoints (SQLite pass)', () => {
  it('copies the write-ahead log into the database file on a thread of its own, long before the main connection would', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkpoint-'));
    const { db } = await openDatabase(loadConfig({ DATA_DIR: dataDir }));
    const main = path.join(dataDir, 'notice-desk.sqlite');
    try {
      await sql`create table t (id integer primary key, a text not null)`.execute(db);
      const before = fs.statSync(main).size;
      // About 2 MB of log: SQLite's own checkpoint would wait for 4 MB, the main connection's for 64 MB.
      for (let i = 0; i < 20; i++) {
        await sql`insert into t (a) select ${'x'.repeat(1000)} from (with recursive n(k) as (select 1 union all select k + 1 from n where k < 100) select k from n)`.execute(
          db,
        );
      }
      const end = Date.now() + 5000;
      while (fs.statSync(main).size < before + 1_500_000 && Date.now() < end)
        await new Promise((r) => setTimeout(r, 50));
      expect(fs.statSync(main).size).toBeGreaterThan(before + 1_500_000);
    } finally {
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
