import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderStore } from '../lib/storage.ts';
import { createTestApp, signUp, type TestApp } from '../test/app.ts';
import { multipart } from '../test/xlsx.ts';
import { noticeKind } from '../modules/records/record-kinds.ts';
import { registerErrorHandling } from './errors.ts';

const diskFull = {
  statusCode: 507,
  code: 'DISK_FULL',
  message: expect.stringMatching(/^The server's disk is full/),
};

describe('a full disk in the error handler', () => {
  it.each(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100'])(
    'answers %s with 507 and says the disk is full',
    async (code) => {
      const app = Fastify({ logger: false });
      registerErrorHandling(app);
      app.get('/write', () => {
        throw Object.assign(new Error('no space left on device, write'), { code });
      });
      app.get('/wrapped', () => {
        throw new Error('saving failed', { cause: Object.assign(new Error('write'), { code }) });
      });
      for (const url of ['/write', '/wrapped']) {
        const res = await app.inject({ url });
        expect(res.statusCode).toBe(507);
        expect(res.json()).toMatchObject(diskFull);
      }
      await app.close();
    },
  );
});

/** A 2 MB tmpfs, when this process may mount one (root in a container); undefined elsewhere. */
function smallDisk(size: string): string | undefined {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

function unmount(dir: string): void {
  execFileSync('umount', [dir], { stdio: 'ignore' });
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Fills a disk to its last few blocks, so the next write of any size fails with ENOSPC. */
function fill(dir: string): void {
  const filler = fs.openSync(path.join(dir, 'filler'), 'w');
  const block = Buffer.alloc(4096, 1);
  try {
    for (;;) fs.writeSync(filler, block);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(filler);
  }
}

const partials = (dir: string) =>
  fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.includes('.partial-'));

const mountable = smallDisk('1m');
if (mountable) unmount(mountable);

describe.skipIf(!mountable)('a full disk, on a small tmpfs', () => {
  let disk: string | undefined;
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    if (disk) unmount(disk);
    t = undefined;
    disk = undefined;
  });

  it('a store write that does not fit fails with ENOSPC and leaves no partial file behind', async () => {
    disk = smallDisk('1m')!;
    const store = new FolderStore(disk);
    await expect(store.writeBuffer('outbox/big.pdf', Buffer.alloc(2 * 1024 * 1024))).rejects.toMatchObject({
      code: 'ENOSPC',
    });
    expect(partials(disk)).toEqual([]);
    expect(fs.existsSync(path.join(disk, 'outbox/big.pdf'))).toBe(false);
  });

  it('refuses an upload larger than the free space at once with 507, before reading it', async () => {
    disk = smallDisk('8m')!;
    t = await createTestApp({ DATA_DIR: disk });
    const asha = await signUp(t.app, 'asha');
    const form = multipart(
      { type: 'notice', name: 'big.csv' },
      { name: 'big.csv', data: Buffer.alloc(20 * 1024 * 1024, 'a') },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/temporary-upload',
      headers: { ...asha.headers, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(507);
    expect(res.json()).toMatchObject(diskFull);
    expect(partials(disk)).toEqual([]);
  });

  it.skipIf(Boolean(process.env.DATABASE_URL))(
    'creating a record on a full disk answers 507, and the server goes on answering',
    async () => {
      disk = smallDisk('8m')!;
      t = await createTestApp({ DATA_DIR: disk });
      const asha = await signUp(t.app, 'asha');
      fill(disk);
      const res = await t.app.inject({
        method: 'POST',
        url: noticeKind.routes.base,
        headers: asha.headers,
        payload: Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key} ${'x'.repeat(200)}`])),
      });
      expect(res.statusCode, res.body).toBe(507);
      expect(res.json()).toMatchObject(diskFull);
      fs.rmSync(path.join(disk, 'filler'));
      expect((await t.app.inject({ url: '/api/health' })).statusCode).toBeLessThan(500);
    },
  );
});
