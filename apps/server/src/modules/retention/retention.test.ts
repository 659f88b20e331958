import fs from 'node:fs';
import path from 'node:path';
import { noticeFields } from '@notice-desk/contract/notice';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/env.ts';
import { openDatabase, type Database } from '../../db/database.ts';
import { FolderStore } from '../../lib/storage.ts';
import { createTestApp, signUp, uploadFile, type SignedIn, type TestApp } from '../../test/app.ts';
import { recordSheet, writeSheet } from '../../test/xlsx.ts';
import { RetentionService } from './retention.service.ts';

const DAY = 24 * 3600 * 1000;

let t: TestApp;
let db: Database;
let asha: SignedIn;
let logged: string[];

beforeEach(async () => {
  t = await createTestApp({ UPLOAD_RETENTION: '7d', OUTBOX_RETENTION: '30d' });
  asha = await signUp(t.app, 'asha');
  db = (await openDatabase(t.config)).db;
  logged = [];
});
afterEach(async () => {
  await db.destroy();
  await t.close();
});

/** A sweeper over the app's database and files, as another process would run it; its log is kept. */
function sweeper(
  settings = { uploadRetentionMs: 7 * DAY, outboxRetentionMs: 30 * DAY, jobRetentionMs: 30 * DAY },
) {
  const log = pino({ level: 'info' }, { write: (line: string) => void logged.push(line) });
  return new RetentionService(db, new FolderStore(t.config.dataDir), settings, log);
}

const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: asha.headers, ...(payload ? { payload } : {}) });

async function upload(rows: (string | number | null)[][], name: string): Promise<string> {
  const file = path.join(t.config.dataDir, `fixture-${Math.random()}.xlsx`);
  await writeSheet(file, rows);
  const data = fs.readFileSync(file);
  fs.rmSync(file);
  return uploadFile(t.app, asha, name, data);
}

const storedPath = (storedName: string) => path.join(t.config.dataDir, 'uploads', asha.userId, storedName);
const uploadRow = (storedName: string) =>
  db.selectFrom('uploads').select('stored_name').where('stored_name', '=', storedName).executeTakeFirst();

/** Starts the import of an upload and waits for it to end; answers how it ended. */
async function importAndWait(storedName: string): Promise<string> {
  const res = await call('POST', '/api/notices/upload-notice-info', { file: storedName, name: 'Batch' });
  expect(res.statusCode, res.body).toBe(202);
  for (let i = 0; i < 600; i++) {
    const { status } = (await call('GET', '/api/notices/by-user-id/progress-count')).json();
    if (status === 'done' || status === 'failed') {
      // The upload goes right after the job is marked done: wait for that to settle.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return status;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the import did not end');
}

/** Writes an outbox file dated `ageDays` ago. */
function outboxFile(name: string, ageDays: number, bytes = 100): string {
  const file = path.join(t.config.dataDir, 'outbox', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.alloc(bytes, 'x'));
  const at = new Date(Date.now() - ageDays * DAY);
  fs.utimesSync(file, at, at);
  return file;
}

describe('uploads', () => {
  it('are deleted, file and record, as soon as their import succeeds', async () => {
    for (const count of [1, 3]) {
      const stored = await upload(recordSheet(noticeFields, count, `ok${count}-`), `ok ${count}.xlsx`);
      expect(fs.existsSync(storedPath(stored))).toBe(true);
      expect(await importAndWait(stored)).toBe('done');
      expect(fs.existsSync(storedPath(stored)), `${count} row(s)`).toBe(false);
      expect(await uploadRow(stored)).toBeUndefined();
    }
  }, 60_000);

  it('are kept after a failed import until UPLOAD_RETENTION, then swept', async () => {
    const failed = [
      await upload(
        [
          ['Not a header', 'Nor this'],
          ['1', '2'],
        ],
        'no columns.xlsx',
      ),
      await upload([['Loan No.'], ['L-1']], 'missing columns.xlsx'),
    ];
    for (const stored of failed) expect(await importAndWait(stored)).toBe('failed');
    const neverImported = await upload(recordSheet(noticeFields, 1), 'not yet.xlsx');
    const all = [...failed, neverImported];
    for (const stored of all) expect(fs.existsSync(storedPath(stored))).toBe(true);

    const sweep = sweeper();
    const sixDays = await sweep.sweep(new Date(Date.now() + 6 * DAY));
    expect(sixDays.uploads).toEqual({ files: 0, bytes: 0 });
    for (const stored of all) expect(fs.existsSync(storedPath(stored))).toBe(true);

    const sizes = all.reduce((sum, stored) => sum + fs.statSync(storedPath(stored)).size, 0);
    const eightDays = await sweep.sweep(new Date(Date.now() + 8 * DAY));
    expect(eightDays.uploads).toEqual({ files: 3, bytes: sizes });
    for (const stored of all) {
      expect(fs.existsSync(storedPath(stored))).toBe(false);
      expect(await uploadRow(stored)).toBeUndefined();
    }
    // An upload swept away cannot be imported any more: it is gone, not half there.
    const res = await call('POST', '/api/notices/upload-notice-info', { file: neverImported, name: 'Late' });
    expect(res.statusCode).toBe(404);
  }, 60_000);

  it('are kept past UPLOAD_RETENTION while their import waits to run or to retry', async () => {
    const stored = await upload(recordSheet(noticeFields, 1), 'waiting.xlsx');
    const now = new Date().toISOString();
    for (const status of ['queued', 'running'] as const) {
      await db
        .insertInto('jobs')
        .values({
          id: `retry-${status}`,
          kind: 'import',
          owner_id: asha.userId,
          subject: 'notice',
          payload: JSON.stringify({
            kind: 'notice',
            fileKey: `uploads/${asha.userId}/${stored}`,
            campaignName: 'W',
          }),
          status,
          attempts: 1,
          max_attempts: 3,
          // Far ahead and leased far ahead: this app's runner leaves it alone.
          run_after: '2999-01-01T00:00:00.000Z',
          lease_until: '2999-01-01T00:00:00.000Z',
          locked_by: 'another-worker',
          progress: 0,
          result: null,
          error: 'The provider asked to wait.',
          created_at: now,
          updated_at: now,
        })
        .execute();
      expect((await sweeper().sweep(new Date(Date.now() + 30 * DAY))).uploads.files, status).toBe(0);
      expect(fs.existsSync(storedPath(stored))).toBe(true);
      expect(await uploadRow(stored)).toBeDefined();
      await db.deleteFrom('jobs').where('id', '=', `retry-${status}`).execute();
    }
    expect((await sweeper().sweep(new Date(Date.now() + 30 * DAY))).uploads.files).toBe(1);
    expect(fs.existsSync(storedPath(stored))).toBe(false);
  });

  it('follow a shorter UPLOAD_RETENTION, and a stray file without a record goes after it too', async () => {
    const stored = await upload(recordSheet(noticeFields, 1), 'short.xlsx');
    const stray = path.join(t.config.dataDir, 'uploads', asha.userId, 'cut-short.xlsx.partial-123');
    fs.writeFileSync(stray, 'half a file');
    const sweep = sweeper({
      uploadRetentionMs: 2 * DAY,
      outboxRetentionMs: 30 * DAY,
      jobRetentionMs: 30 * DAY,
    });
    expect((await sweep.sweep(new Date(Date.now() + DAY))).uploads.files).toBe(0);
    expect((await sweep.sweep(new Date(Date.now() + 3 * DAY))).uploads.files).toBe(2);
    expect(fs.existsSync(storedPath(stored))).toBe(false);
    expect(fs.existsSync(stray)).toBe(false);
  });

  it('skip an import job whose payload is unreadable (JSON null, not JSON, no fileKey), log it, and sweep the rest', async () => {
    const stored = await upload(recordSheet(noticeFields, 1), 'old.xlsx');
    const now = new Date().toISOString();
    const bad = [
      { id: 'job-null', payload: 'null', status: 'done' as const },
      { id: 'job-text', payload: 'not json', status: 'queued' as const },
      { id: 'job-empty', payload: '{}', status: 'running' as const },
    ];
    await db
      .insertInto('jobs')
      .values(
        bad.map(({ id, payload, status }) => ({
          id,
          kind: 'import',
          owner_id: asha.userId,
          subject: id,
          payload,
          status,
          attempts: 0,
          max_attempts: 3,
          run_after: now,
          lease_until: null,
          locked_by: null,
          progress: 0,
          result: null,
          error: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const result = await sweeper().sweep(new Date(Date.now() + 8 * DAY));
    expect(result.uploads.files).toBe(1);
    expect(fs.existsSync(storedPath(stored))).toBe(false);
    const skipped = logged
      .filter((line) => line.includes('payload is not readable'))
      .map((l) => JSON.parse(l));
    expect(skipped.map((line) => line.jobId).sort()).toEqual(['job-empty', 'job-null', 'job-text']);
  });
});

describe('outbox files', () => {
  it('older than OUTBOX_RETENTION are removed, newer ones kept, and the log says how many and how large', async () => {
    const old = [outboxFile('a.eml', 31, 120), outboxFile('b.json', 45, 80), outboxFile('wa/c.pdf', 400, 10)];
    const fresh = [outboxFile('d.eml', 29), outboxFile('e.json', 0)];
    const result = await sweeper().sweep();
    expect(result.outbox).toEqual({ files: 3, bytes: 210 });
    for (const file of old) expect(fs.existsSync(file)).toBe(false);
    for (const file of fresh) expect(fs.existsSync(file)).toBe(true);
    const line = JSON.parse(logged.find((l) => l.includes('retention sweep'))!);
    expect(line).toMatchObject({ outbox: { files: 3, bytes: 210 }, uploads: { files: 0, bytes: 0 } });
    // Counts and bytes only: no file name, no owner.
    expect(logged.join('')).not.toMatch(/a\.eml|b\.json|c\.pdf|asha/);
  });
});

describe('the daily sweep', () => {
  it('runs once a day however many processes ask at once', async () => {
    outboxFile('old.eml', 60);
    const processes = [sweeper(), sweeper(), sweeper(), sweeper()];
    const now = new Date();
    const runs = await Promise.all(processes.map((p) => p.runIfDue(now)));
    expect(runs.filter((r) => r !== undefined)).toHaveLength(1);
    expect(runs.find((r) => r)!.outbox.files).toBe(1);
    // Later the same day: not due. The next day: due again, for one of them.
    expect(await processes[1]!.runIfDue(new Date(now.getTime() + 12 * 3600 * 1000))).toBeUndefined();
    const nextDay = await Promise.all(processes.map((p) => p.runIfDue(new Date(now.getTime() + DAY))));
    expect(nextDay.filter((r) => r !== undefined)).toHaveLength(1);
  });
});

describe('retention settings', () => {
  it('refuse values that are not durations, naming the variable', () => {
    for (const [name, value] of [
      ['UPLOAD_RETENTION', '7'],
      ['UPLOAD_RETENTION', 'forever'],
      ['UPLOAD_RETENTION', '0d'],
      ['OUTBOX_RETENTION', '-1d'],
      ['OUTBOX_RETENTION', '30 dayz'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
    }
    const defaults = loadConfig({});
    expect(defaults.uploadRetentionSeconds).toBe(7 * 86400);
    expect(defaults.outboxRetentionSeconds).toBe(30 * 86400);
    expect(loadConfig({ UPLOAD_RETENTION: '12h' }).uploadRetentionSeconds).toBe(12 * 3600);
    // One grammar for every duration (ms): '30 days' reads as it says.
    expect(loadConfig({ OUTBOX_RETENTION: '30 days' }).outboxRetentionSeconds).toBe(30 * 86400);
  });
});
