import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { noticeFields } from '@notice-desk/contract/notice';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { openDatabase } from '../../db/database.ts';
import { signUpOver, startNoticeImportOver, startServerProcess } from '../../test/server-process.ts';
import { recordSheet, writeSheet } from '../../test/xlsx.ts';

// Kills the server (API and in-process worker) with SIGKILL while it imports, restarts it on the same
// data, and checks the import then completes exactly once: one campaign with every row, never a part.
const ROWS = 20_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-crash-'));
const sheet = path.join(dir, 'notices.xlsx');

beforeAll(async () => {
  await writeSheet(sheet, recordSheet(noticeFields, ROWS));
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('an import survives its process being killed', () => {
  it.each([
    ['as soon as it is queued', 0],
    ['once its first rows are written', 1],
    ['past half of its rows', ROWS / 2],
  ])(
    'killed %s: after restart, exactly one whole campaign',
    async (_, killAtRows) => {
      const dataDir = fs.mkdtempSync(path.join(dir, 'data-'));
      const env: Record<string, string> = {
        DATA_DIR: dataDir,
        JOB_LEASE: '5s', // long enough that a busy CI machine never loses a live lease
        JWT_SECRET: 'crash-test-secret-crash-test-secret-0123',
      };
      if (process.env.DATABASE_URL) {
        Object.assign(env, {
          DATABASE_URL: process.env.DATABASE_URL,
          DATABASE_SCHEMA: `crash_${randomBytes(5).toString('hex')}`,
        });
      }
      let server = await startServerProcess(env);
      const user = await signUpOver(server.baseUrl, 'asha');
      await startNoticeImportOver(server.baseUrl, user.headers, sheet);
      if (killAtRows > 0) {
        // Watch the rows the import writes (hidden, no owner yet) and kill at the chosen point.
        const watch = await openDatabase(loadConfig(env));
        for (let i = 0; i < 1000; i++) {
          const hidden = await watch.db
            .selectFrom('notices')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('owner_id', '=', '')
            .executeTakeFirstOrThrow();
          if (Number(hidden.n) >= killAtRows) break;
          await new Promise((r) => setTimeout(r, 5));
        }
        await watch.db.destroy();
      }
      server.child.kill('SIGKILL');
      await new Promise((r) => server.child.once('exit', r));

      // Whatever the moment, nothing half-imported is visible.
      const { db } = await openDatabase(loadConfig(env));
      const ready = await db.selectFrom('campaigns').selectAll().where('status', '=', 'ready').execute();
      const visible = await db
        .selectFrom('notices')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_id', '!=', '')
        .executeTakeFirstOrThrow();
      // Killed before the end (so the test proves something), and nothing of the attempt is visible.
      expect(ready).toHaveLength(0);
      expect(Number(visible.n)).toBe(0);
      await db.destroy();

      server = await startServerProcess(env);
      try {
        let progress: { status?: string; imported?: number } = {};
        for (let i = 0; i < 300 && progress.status !== 'done'; i++) {
          await new Promise((r) => setTimeout(r, 200));
          const res = await fetch(`${server.baseUrl}/api/notices/by-user-id/progress-count`, {
            headers: user.headers,
          });
          progress = (await res.json()) as typeof progress;
        }
        expect(progress, JSON.stringify(progress)).toMatchObject({ status: 'done', imported: ROWS });
        const campaigns = (await (
          await fetch(`${server.baseUrl}/api/campaigns/notice`, { headers: user.headers })
        ).json()) as { total: number; items: { imported: number }[] };
        expect(campaigns.total).toBe(1);
        expect(campaigns.items[0]!.imported).toBe(ROWS);
        const list = (await (
          await fetch(`${server.baseUrl}/api/notices/by-user-id?limit=1`, { headers: user.headers })
        ).json()) as { total: number };
        expect(list.total).toBe(ROWS);
      } finally {
        await server.stop();
      }
      const after = await openDatabase(loadConfig(env));
      const rows = await after.db
        .selectFrom('notices')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(ROWS); // no hidden leftovers of the killed attempt
      if (env.DATABASE_SCHEMA)
        await sql`drop schema ${sql.id(env.DATABASE_SCHEMA)} cascade`.execute(after.db);
      await after.db.destroy();
    },
    120_000,
  );
});
