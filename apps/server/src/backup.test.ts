import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config/env.ts';
import { openDatabase, type Database } from './db/database.ts';
import { backup, BackupError, MANIFEST_FILE, restore } from './lib/backup.ts';
import { createTestApp, signUp, uploadFile, type SignedIn, type TestApp } from './test/app.ts';
import { sharedBrowserEnv } from './test/shared-browser.ts';
import { unzip } from './test/zip.ts';
import { recordSheet } from './test/xlsx.ts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const onPostgres = Boolean(process.env.DATABASE_URL);

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-backup-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const folder = (name: string) => path.join(root, name);

async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not happen`);
}

describe.skipIf(onPostgres)('npm run backup and restore (the embedded default)', () => {
  let t: TestApp;
  let db: Database;
  let asha: SignedIn;
  let campaignId: string;
  beforeAll(async () => {
    t = await createTestApp();
    ({ db } = await openDatabase(t.config));
    asha = await signUp(t.app, 'asha');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const fields = Object.fromEntries(noticeFields.map((f) => [f.key, `${f.key}-${i}`]));
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/notices',
        headers: asha.headers,
        payload: { ...fields, emailId: `c${i}@example.com`, modeOfDispatch: 'Email', language: 'English' },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json<{ _id: string }>()._id);
      campaignId = res.json<{ campaignId: string }>().campaignId;
    }
    // Sent into the outbox: each delivery names its PDF by key and SHA-256, which evidence checks.
    const send = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/send-mail',
      headers: asha.headers,
      payload: { data: ids, type: 'notice' },
    });
    expect(send.statusCode, send.body).toBeLessThan(300);
    await until('the sends', async () => {
      const rows = await db.selectFrom('deliveries').select(['status', 'pdf_sha256']).execute();
      return rows.length === 3 && rows.every((r) => r.status === 'outbox' && r.pdf_sha256) ? rows : undefined;
    });
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    await t?.close();
  });

  it('copies a running server during an import; the restored copy starts and every evidence hash verifies', async () => {
    // An import of 2,000 rows, running while the backup is taken.
    const sheet = recordSheet(noticeFields, 2_000, 'bulk');
    const csv = Buffer.from(`${sheet.map((row) => row.join(',')).join('\n')}\n`);
    const stored = await uploadFile(t.app, asha, 'bulk.csv', csv);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/notices/upload-notice-info',
      headers: asha.headers,
      payload: { file: stored },
    });
    expect(started.statusCode, started.body).toBe(202);
    await until('the import writing rows', async () => {
      const job = await db
        .selectFrom('jobs')
        .select(['status', 'progress'])
        .where('kind', '=', 'import')
        .executeTakeFirst();
      return job?.status === 'running' && job.progress > 0 ? job : undefined;
    });
    const target = folder('during-import');
    const manifest = await backup(t.config, target);
    const importState = (
      await db.selectFrom('jobs').select('status').where('kind', '=', 'import').executeTakeFirstOrThrow()
    ).status;
    expect(manifest.files.map((f) => f.path)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^pdfs\//), expect.stringMatching(/^outbox\/.+\.eml$/)]),
    );
    expect(fs.readdirSync(target).sort()).toEqual([MANIFEST_FILE, 'files', 'notice-desk.sqlite']);
    await until('the import', async () => {
      const job = await db
        .selectFrom('jobs')
        .select('status')
        .where('kind', '=', 'import')
        .executeTakeFirst();
      return job?.status === 'done' || job?.status === 'failed' ? job : undefined;
    });

    const restored = restoredConfig(folder('restored'));
    await restore(restored, target);
    const app = await buildApp(restored);
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'asha', password: 'pass-word-1' },
      });
      expect(login.statusCode, login.body).toBe(200);
      const headers = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
      const evidence = await app.inject({
        method: 'GET',
        url: `/api/campaigns/${campaignId}/evidence`,
        headers,
      });
      expect(evidence.statusCode, evidence.body).toBe(200);
      const files = await unzip(evidence.rawPayload);
      const { records } = JSON.parse(files.find((f) => f.name === 'deliveries.json')!.data.toString()) as {
        records: { deliveries: { pdfFile: string | null; pdfSha256: string | null }[] }[];
      };
      const deliveries = records.flatMap((r) => r.deliveries);
      expect(deliveries).toHaveLength(3);
      for (const delivery of deliveries) {
        // Null would say the kept PDF is gone or changed: the bundle leaves out what is not evidence.
        expect(delivery.pdfFile).toBe(`pdfs/${delivery.pdfSha256}.pdf`);
        expect(sha256(files.find((f) => f.name === delivery.pdfFile)!.data)).toBe(delivery.pdfSha256);
      }
      // The import the backup caught half-way is whole or absent in the copy, never half.
      const { db: copy } = await openDatabase(restored);
      const counts = await copy
        .selectFrom('notices')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('record_state', '=', 'live')
        .executeTakeFirstOrThrow();
      await copy.destroy();
      expect([3, 5_003]).toContain(Number(counts.n));
      if (importState === 'running') expect(Number(counts.n)).toBe(3);
    } finally {
      await app.close();
    }
  }, 90_000);

  it('refuses a folder not empty, a restore over a database, a damaged or unfinished backup', async () => {
    const target = folder('checked');
    const manifest = await backup(t.config, target);
    await expect(backup(t.config, target)).rejects.toThrow(/is not empty: back up into a new folder/);

    await expect(restore(t.config, target)).rejects.toThrow(/holds a database already\. Stop the server/);

    const damagedCopy = folder('damaged');
    fs.cpSync(target, damagedCopy, { recursive: true });
    const victim = path.join(damagedCopy, 'files', manifest.files[0]!.path);
    fs.writeFileSync(victim, Buffer.concat([fs.readFileSync(victim), Buffer.from('x')]));
    const intoDamaged = restoredConfig(folder('from-damaged'));
    await expect(restore(intoDamaged, damagedCopy)).rejects.toThrow(
      new RegExp(
        `is damaged: 1 file\\(s\\) differ from backup\\.json \\(${manifest.files[0]!.path}\\)\\. Nothing was restored`,
      ),
    );
    expect(fs.existsSync(path.join(intoDamaged.dataDir, 'notice-desk.sqlite'))).toBe(false);

    fs.rmSync(path.join(damagedCopy, MANIFEST_FILE));
    await expect(restore(intoDamaged, damagedCopy)).rejects.toThrow(
      /holds no backup\.json: it is not a backup/,
    );

    // A manifest naming files outside the backup or DATA_DIR is refused before anything is copied.
    const climbing = folder('climbing');
    fs.cpSync(target, climbing, { recursive: true });
    const edited = { ...manifest, files: [{ ...manifest.files[0]!, path: '../../outside.pdf' }] };
    fs.writeFileSync(path.join(climbing, MANIFEST_FILE), JSON.stringify(edited));
    await expect(restore(restoredConfig(folder('from-climbing')), climbing)).rejects.toThrow(
      /names a file outside the backup/,
    );
  });
});

describe('backup and restore with PostgreSQL or a bucket', () => {
  it('refuse, pointing at pg_dump and bucket versioning', async () => {
    const secret = 'a-secret-of-at-least-thirty-two-characters';
    for (const env of [
      { DATABASE_URL: 'postgres://db/notices' },
      { STORAGE_URL: 's3://notices/prod', JWT_SECRET: secret },
    ]) {
      const config = loadConfig({ DATA_DIR: folder('unused'), ...env });
      await expect(backup(config, folder('never'))).rejects.toThrow(BackupError);
      await expect(backup(config, folder('never'))).rejects.toThrow(
        /pg_dump or point-in-time recovery and bucket versioning/,
      );
      await expect(restore(config, folder('never'))).rejects.toThrow(/pg_restore and the bucket’s versions/);
    }
    expect(fs.existsSync(folder('never'))).toBe(false);
  });
});

function restoredConfig(dataDir: string): Config {
  return loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    ...sharedBrowserEnv(),
  });
}
