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
});
