import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { openDatabase } from './database.ts';

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
    const config = loadConfig({ DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema, DATABASE_POOL_MAX: '1' });
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
});
