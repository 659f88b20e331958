import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { noticeFields } from '@notice-desk/contract/notice';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { openDatabase } from '../../db/database.ts';
import {
  importProgress,
  signUpOver,
  startNoticeImportOver,
  startServerProcess,
} from '../../test/server-process.ts';
import { recordSheet, sheetXml, workbookOf, writeSheet } from '../../test/xlsx.ts';

// Kills the server (API and in-process worker) with SIGKILL while it imports, restarts it on the same
// data, and checks the import then completes exactly once: one campaign with every row, never a part.
// 8,000 rows: an import long enough to be killed past half of them (20,000 took 122 s of the suite).
// PostgreSQL imports faster (one transaction): 8,000 rows were once all in before the kill landed.
const ROWS = process.env.DATABASE_URL ? 16_000 : 8_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-crash-'));
const sheet = path.join(dir, 'notices.xlsx');

beforeAll(async () => {
  await writeSheet(sheet, recordSheet(noticeFields, ROWS));
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('an import survives its process being killed', () => {
  it.each([
    ['as soon as it is queued', 0],
    // 2%: an import reports 1% as soon as a worker takes it up, before any row.
    ['once its first rows are written', 2],
    ['past half of its rows', 50],
  ])(
    'killed %s: after restart, exactly one whole campaign',
    async (_, killAtPercent) => {
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
      if (killAtPercent > 0) {
        // Watch the import and kill at the chosen point: on SQLite by the hidden rows it has written; on
        // PostgreSQL, where the import is one transaction whose rows no other connection sees before
        // the commit, by its progress (the share of the sheet read, a little ahead of the rows).
        const watch = await openDatabase(loadConfig(env));
        const reached = async () => {
          if (env.DATABASE_URL) return (await importProgress(watch.db)) >= killAtPercent;
          const hidden = await watch.db
            .selectFrom('notices')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('record_state', '=', 'importing')
            .executeTakeFirstOrThrow();
          return Number(hidden.n) >= (ROWS * killAtPercent) / 100;
        };
        for (let i = 0; i < 2000 && !(await reached()); i++) await new Promise((r) => setTimeout(r, 5));
        // Killed at once: closing the watching connection first gave the import time to finish.
        server.child.kill('SIGKILL');
        await watch.db.destroy();
      } else server.child.kill('SIGKILL');
      await new Promise((r) => server.child.once('exit', r));

      // Whatever the moment, nothing half-imported is visible.
      const { db } = await openDatabase(loadConfig(env));
      const ready = await db.selectFrom('campaigns').selectAll().where('status', '=', 'ready').execute();
      const visible = await db
        .selectFrom('notices')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('record_state', '=', 'live')
        .executeTakeFirstOrThrow();
      // Killed before the end (so the test proves something), and nothing of the attempt is visible.
      expect(ready).toHaveLength(0);
      expect(Number(visible.n)).toBe(0);
      await db.destroy();

      server = await startServerProcess(env);
      // The job was taken over from a dead process: its file is now read in a child process of its own.
      const readers = killAtPercent > 0 ? watchSheetReaders(server.child.pid!) : undefined;
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
        if (readers) expect(readers.stop()).toBeGreaterThan(0);
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

/** Counts the server's child processes that read a sheet (sheet-worker.ts), as seen in /proc. */
function watchSheetReaders(serverPid: number): { stop(): number } {
  const seen = new Set<number>();
  const look = () => {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (parent !== serverPid) continue;
        if (/sheet-worker[-.]/.test(fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8')))
          seen.add(Number(entry));
      } catch {
        // gone meanwhile
      }
    }
  };
  const timer = setInterval(look, 20);
  return {
    stop() {
      clearInterval(timer);
      return seen.size;
    },
  };
}

describe('a file that takes the server down cannot do it again', () => {
  const envFor = (dataDir: string) => {
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      JOB_LEASE: '5s',
      JWT_SECRET: 'crash-test-secret-crash-test-secret-0123',
    };
    if (process.env.DATABASE_URL) {
      Object.assign(env, {
        DATABASE_URL: process.env.DATABASE_URL,
        DATABASE_SCHEMA: `crash_${randomBytes(5).toString('hex')}`,
      });
    }
    return env;
  };
  const dropSchema = async (env: Record<string, string>) => {
    if (!env.DATABASE_SCHEMA) return;
    const { db } = await openDatabase(loadConfig(env));
    await sql`drop schema ${sql.id(env.DATABASE_SCHEMA)} cascade`.execute(db);
    await db.destroy();
  };
  const progressOf = async (baseUrl: string, headers: Record<string, string>) =>
    (await (await fetch(`${baseUrl}/api/notices/by-user-id/progress-count`, { headers })).json()) as {
      status?: string;
      error?: string | null;
    };

  it('a 2 KB sheet with a cell ZZZZZZZ2 (a column index of about 8 billion) fails its import, and the server stays up', async () => {
    const env = envFor(fs.mkdtempSync(path.join(dir, 'data-')));
    const file = path.join(dir, 'column-bomb.xlsx');
    const header = noticeFields
      .slice(0, 20)
      .map((f, i) => `<c r="${String.fromCharCode(65 + i)}1" t="inlineStr"><is><t>${f.label}</t></is></c>`);
    fs.writeFileSync(
      file,
      workbookOf({
        sheet: sheetXml(`<row r="1">${header.join('')}</row><row r="2"><c r="ZZZZZZZ2"><v>1</v></c></row>`),
      }),
    );
    expect(fs.statSync(file).size).toBeLessThan(4096);
    const server = await startServerProcess(env);
    try {
      const user = await signUpOver(server.baseUrl, 'asha');
      await startNoticeImportOver(server.baseUrl, user.headers, file);
      let progress: { status?: string; error?: string | null } = {};
      for (let i = 0; i < 150 && progress.status !== 'failed' && progress.status !== 'done'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        progress = await progressOf(server.baseUrl, user.headers);
      }
      expect(progress).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/^Cell ZZZZZZZ2 is past column XFD/),
      });
      expect(server.child.exitCode).toBeNull();
      expect((await fetch(`${server.baseUrl}/api/health`)).ok).toBe(true);
    } finally {
      await server.stop();
      await dropSchema(env);
    }
  }, 60_000);

  it('an import whose server process died twice is not started a third time: it fails, naming the file', async () => {
    const env = envFor(fs.mkdtempSync(path.join(dir, 'data-')));
    /** Kills the server once it runs the import: it has claimed the job (after `takeovers` takeovers). */
    const killWhileImporting = async (
      server: Awaited<ReturnType<typeof startServerProcess>>,
      takeovers: number,
    ) => {
      const watch = await openDatabase(loadConfig(env));
      // A takeover waits for the dead process's lease (5 s); until then the rows seen are the dead attempt's.
      for (let i = 0; i < 600; i++) {
        const job = await watch.db.selectFrom('jobs').select(['status', 'lost_leases']).executeTakeFirst();
        if (job?.status === 'running' && job.lost_leases >= takeovers) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await watch.db.destroy();
      // Into its rows (8,000 take seconds). Its rows are no sign on PostgreSQL, where the import is one
      // transaction, nor is its progress after a takeover (the dead attempt's); either way the process
      // dies holding the job, which is what counts.
      await new Promise((r) => setTimeout(r, 500));
      server.child.kill('SIGKILL');
      await new Promise((r) => server.child.once('exit', r));
    };
    let server = await startServerProcess(env);
    const user = await signUpOver(server.baseUrl, 'asha');
    await startNoticeImportOver(server.baseUrl, user.headers, sheet);
    await killWhileImporting(server, 0);
    server = await startServerProcess(env); // takes the job over once its lease has run out (5 s)
    await killWhileImporting(server, 1);
    server = await startServerProcess(env);
    try {
      let progress: { status?: string; error?: string | null } = {};
      for (let i = 0; i < 300 && progress.status !== 'failed' && progress.status !== 'done'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        progress = await progressOf(server.baseUrl, user.headers);
      }
      expect(progress).toMatchObject({
        status: 'failed',
        error:
          'notices.xlsx was not imported: the server process running its import stopped 2 times while it ran, so it was not started again. Check the file in Excel (or split it into smaller files) and import it again.',
      });
      const { db } = await openDatabase(loadConfig(env));
      const job = await db.selectFrom('jobs').select(['lost_leases', 'attempts']).executeTakeFirstOrThrow();
      expect(job).toEqual({ lost_leases: 2, attempts: 3 });
      const visible = await db
        .selectFrom('notices')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(visible.n)).toBe(0); // what the killed attempts wrote is gone
      await db.destroy();
    } finally {
      await server.stop();
      await dropSchema(env);
    }
  }, 120_000);
});
