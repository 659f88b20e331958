import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/env.ts';
import { startS3Peer, TEST_BUCKET, type S3Peer } from '../test/s3-peer.ts';
import { S3Store } from './s3-store.ts';
import {
  FolderStore,
  StorageUnavailable,
  StoredFileMissing,
  sweepTemporaryFiles,
  type FileStore,
} from './storage.ts';

let peer: S3Peer;
let root: string;
beforeAll(async () => {
  peer = await startS3Peer();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-storage-'));
});
afterAll(async () => {
  await peer?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

let stores = 0;
const s3Settings = (prefix: string) => ({
  bucket: TEST_BUCKET,
  prefix,
  endpoint: peer.endpoint,
  region: 'us-east-1',
  forcePathStyle: true,
});
/** A store of each kind, empty, with the DATA_DIR/tmp its local copies go to. */
const makers: Record<'folder' | 's3', () => { store: FileStore; temp: string }> = {
  folder: () => {
    const dir = path.join(root, `folder-${++stores}`);
    return { store: new FolderStore(dir), temp: path.join(dir, 'tmp') };
  },
  s3: () => {
    const temp = path.join(root, `tmp-${++stores}`);
    return { store: new S3Store(s3Settings(`p${stores}/deeper`), temp), temp };
  },
};

describe.each(['folder', 's3'] as const)('the %s store', (kind) => {
  let store: FileStore;
  let temp: string;
  beforeAll(() => ({ store, temp } = makers[kind]()));

  it('keeps what is written, as a buffer or a stream, and lists it by folder at any depth', async () => {
    await store.writeBuffer('outbox/a.eml', Buffer.from('mail'));
    const size = await store.write(
      'uploads/u1/b.xlsx',
      Readable.from([Buffer.from('PK'), Buffer.from('rest')]),
    );
    expect(size).toBe(6);
    await store.writeBuffer('uploads/u2/deep/c.csv', Buffer.from('x,y'));
    expect((await store.readBuffer('outbox/a.eml')).toString()).toBe('mail');
    const chunks: Buffer[] = [];
    for await (const chunk of await store.open('uploads/u1/b.xlsx')) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('PKrest');
    const listed = (await store.list('uploads')).sort((a, b) => a.key.localeCompare(b.key));
    expect(listed.map(({ key, size }) => ({ key, size }))).toEqual([
      { key: 'uploads/u1/b.xlsx', size: 6 },
      { key: 'uploads/u2/deep/c.csv', size: 3 },
    ]);
    expect(listed[0]!.modifiedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await store.list('nothing-here')).toEqual([]);
    expect(await store.exists('outbox/a.eml')).toBe(true);
    await store.remove('outbox/a.eml');
    await store.remove('outbox/a.eml'); // twice: removing what is gone is no error
    expect(await store.exists('outbox/a.eml')).toBe(false);
  });

  it('replaces with writeBuffer, keeps the first with writeBufferOnce and hands both callers its bytes', async () => {
    await store.writeBuffer('pdfs/aa/x.pdf', Buffer.from('one'));
    await store.writeBuffer('pdfs/aa/x.pdf', Buffer.from('two'));
    expect((await store.readBuffer('pdfs/aa/x.pdf')).toString()).toBe('two');
    const [first, second] = await Promise.all([
      store.writeBufferOnce('pdfs/aa/signed.pdf', Buffer.from('signed-1')),
      store.writeBufferOnce('pdfs/aa/signed.pdf', Buffer.from('signed-2')),
    ]);
    const kept = (await store.readBuffer('pdfs/aa/signed.pdf')).toString();
    expect([first!.toString(), second!.toString()]).toEqual([kept, kept]);
    expect((await store.writeBufferOnce('pdfs/aa/signed.pdf', Buffer.from('later'))).toString()).toBe(kept);
  });

  it('answers a missing file with StoredFileMissing (404 FILE_MISSING) from every reader', async () => {
    for (const read of [
      () => store.readBuffer('pdfs/zz/gone.pdf'),
      () => store.open('pdfs/zz/gone.pdf'),
      () => store.localCopy('uploads/u9/gone.xlsx'),
    ])
      await expect(read()).rejects.toMatchObject({
        constructor: StoredFileMissing,
        statusCode: 404,
        code: 'FILE_MISSING',
        message: expect.stringMatching(/The stored file .*gone\.(pdf|xlsx) is missing from the file store/),
      });
  });

  it('refuses keys that climb out, start at the root, or hold empty, dot, backslash or NUL parts', async () => {
    const hostile = ['../x', 'a/../../x', '/etc/passwd', '', 'a//b', './a', 'a/.', 'a\\..\\b', 'a\0b'];
    for (const key of hostile) {
      await expect(store.writeBuffer(key, Buffer.from('x')), JSON.stringify(key)).rejects.toThrow(
        /Invalid storage key/,
      );
      await expect(store.readBuffer(key), JSON.stringify(key)).rejects.toThrow(/Invalid storage key/);
    }
  });

  it('gives random-access readers a local file, and removes a copy when released', async () => {
    await store.writeBuffer('uploads/u3/sheet.xlsx', Buffer.from('PK-sheet'));
    const [one, two] = await Promise.all([
      store.localCopy('uploads/u3/sheet.xlsx'),
      store.localCopy('uploads/u3/sheet.xlsx'),
    ]);
    expect(fs.readFileSync(one!.path, 'utf8')).toBe('PK-sheet');
    if (kind === 's3') {
      expect(path.dirname(one!.path)).toBe(temp);
      expect(one!.path).not.toBe(two!.path);
      expect(path.basename(one!.path)).toMatch(/^[0-9a-f-]{36}\.xlsx$/);
    }
    await one!.release();
    await two!.release();
    if (kind === 's3') expect(fs.readdirSync(temp)).toEqual([]);
    else expect(fs.existsSync(one!.path)).toBe(true); // the folder store's file itself
  });

  it('keeps nothing of a stream that fails part-way, and throws the stream’s own error', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(64 * 1024, 1));
        this.destroy(Object.assign(new Error('the form was cut'), { code: 'FST_REQ_FILE_TOO_LARGE' }));
      },
    });
    await expect(store.write('uploads/u4/cut.xlsx', failing)).rejects.toMatchObject({
      code: 'FST_REQ_FILE_TOO_LARGE',
    });
    expect(await store.exists('uploads/u4/cut.xlsx')).toBe(false);
    expect((await store.list('uploads/u4')).map((f) => f.key)).toEqual([]);
  });
});

it('sweeps temporary copies a dead process left, older than a day, never a young one', async () => {
  const folder = path.join(root, 'sweep');
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'old.xlsx'), 'x');
  fs.writeFileSync(path.join(folder, 'young.xlsx'), 'x');
  const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
  fs.utimesSync(path.join(folder, 'old.xlsx'), twoDaysAgo, twoDaysAgo);
  await sweepTemporaryFiles(folder);
  expect(fs.readdirSync(folder)).toEqual(['young.xlsx']);
  await sweepTemporaryFiles(path.join(root, 'no-such-folder')); // nothing to sweep is no error
});

describe('the S3 store', () => {
  it('writes a file larger than a part as a multipart upload and reads it back whole', async () => {
    const store = new S3Store(s3Settings('multipart'), path.join(root, 'tmp-multi'));
    const part = Buffer.alloc(1024 * 1024);
    const parts = Array.from({ length: 9 }, (_, i) => Buffer.from(part.fill(i)));
    const before = peer.requests.length;
    expect(await store.write('uploads/u/big.xlsx', Readable.from(parts))).toBe(9 * part.length);
    const made = peer.requests.slice(before).map((r) => r.method);
    expect(made.filter((m) => m === 'PUT').length).toBe(2); // parts of 8 MiB
    expect(made).toContain('POST'); // CreateMultipartUpload and CompleteMultipartUpload
    const copy = await store.localCopy('uploads/u/big.xlsx');
    expect(fs.statSync(copy.path).size).toBe(9 * part.length);
    expect(fs.readFileSync(copy.path).subarray(8 * part.length)[0]).toBe(8);
    await copy.release();
  });

  it('keeps keys under its prefix: two prefixes in one bucket never see each other', async () => {
    const one = new S3Store(s3Settings('tenant-one'), root);
    const two = new S3Store(s3Settings('tenant-one-more'), root);
    await one.writeBuffer('outbox/a.eml', Buffer.from('1'));
    await two.writeBuffer('outbox/b.eml', Buffer.from('2'));
    expect((await one.list('outbox')).map((f) => f.key)).toEqual(['outbox/a.eml']);
    expect((await two.list('outbox')).map((f) => f.key)).toEqual(['outbox/b.eml']);
    expect(await one.exists('outbox/b.eml')).toBe(false);
    expect(
      fs.existsSync(path.join(peer.directory, TEST_BUCKET, 'tenant-one/outbox/a.eml._S3rver_object')),
    ).toBe(true);
  });

  it('says a store that does not answer is unavailable (503), and a start check names STORAGE_URL', async () => {
    const closed = await startS3Peer();
    await closed.close();
    const store = new S3Store({ ...s3Settings('x'), endpoint: closed.endpoint }, root);
    for (const call of [() => store.readBuffer('a/b'), () => store.writeBuffer('a/b', Buffer.from('x'))])
      await expect(call()).rejects.toMatchObject({
        constructor: StorageUnavailable,
        statusCode: 503,
        code: 'STORAGE_UNAVAILABLE',
      });
    await expect(store.check()).rejects.toThrow(/^STORAGE_URL s3:\/\/notice-desk-test\/x cannot be read/);
    const noBucket = new S3Store({ ...s3Settings('x'), bucket: 'no-such-bucket' }, root);
    await expect(noBucket.check()).rejects.toThrow(
      /STORAGE_URL s3:\/\/no-such-bucket\/x cannot be read: NoSuchBucket/,
    );
  });
});

describe('STORAGE_URL and the S3 settings', () => {
  const secret = { JWT_SECRET: 'a-secret-of-at-least-thirty-two-characters' };

  it('reads the bucket and prefix, and the S3 settings beside them', () => {
    expect(loadConfig({ ...secret }).storage).toBeUndefined();
    expect(
      loadConfig({
        ...secret,
        STORAGE_URL: 's3://notices.example-1/prod/ap-south/',
        S3_ENDPOINT: 'http://minio:9000',
        S3_REGION: 'ap-south-1',
        S3_FORCE_PATH_STYLE: 'true',
      }).storage,
    ).toEqual({
      bucket: 'notices.example-1',
      prefix: 'prod/ap-south',
      endpoint: 'http://minio:9000',
      region: 'ap-south-1',
      forcePathStyle: true,
    });
    expect(loadConfig({ ...secret, STORAGE_URL: 's3://notices' }).storage).toMatchObject({
      bucket: 'notices',
      prefix: '',
      region: undefined,
      forcePathStyle: false,
    });
  });

  it('refuses what is not an s3:// address of a valid bucket, naming the setting', () => {
    const wrong = [
      'http://bucket/prefix',
      '/var/notices',
      's3://',
      's3://ab',
      's3://Upper-Case',
      's3://-leading-hyphen',
      's3://bucket/with space',
      's3://bucket/../escape',
      's3://bucket/a/./b',
      `s3://${'b'.repeat(64)}`,
    ];
    for (const STORAGE_URL of wrong)
      expect(() => loadConfig({ ...secret, STORAGE_URL }), STORAGE_URL).toThrow(/STORAGE_URL: /);
    expect(() => loadConfig({ ...secret, STORAGE_URL: 's3://b1c', S3_ENDPOINT: 'minio 9000' })).toThrow(
      /S3_ENDPOINT must be a URL/,
    );
    expect(() => loadConfig({ ...secret, STORAGE_URL: 's3://b1c', S3_REGION: 'Mumbai 1' })).toThrow(
      /S3_REGION must be a region name/,
    );
    expect(() => loadConfig({ ...secret, STORAGE_URL: 's3://b1c', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(
      /S3_FORCE_PATH_STYLE must be true or false/,
    );
    expect(() => loadConfig({ ...secret, S3_ENDPOINT: 'http://minio:9000' })).toThrow(
      /S3_ENDPOINT: read only with STORAGE_URL/,
    );
  });

  it('requires JWT_SECRET with STORAGE_URL: processes sharing a store share no folder for a secret', () => {
    expect(() => loadConfig({ STORAGE_URL: 's3://notices/prod' })).toThrow(ConfigError);
    expect(() => loadConfig({ STORAGE_URL: 's3://notices/prod' })).toThrow(
      /JWT_SECRET: required with STORAGE_URL.*set one JWT_SECRET \(32 characters or more\) on every process/,
    );
  });
});
