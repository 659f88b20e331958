import fs from 'node:fs';
import path from 'node:path';
import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileStore } from '../../lib/open-store.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { multipart, recordSheet, writeSheet } from '../../test/xlsx.ts';

/** Broken multipart forms on every route that reads one: a 4xx that says what is wrong, nothing kept. */

let t: TestApp;
let asha: SignedIn;
let workbook: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  asha = await signUp(t.app, 'asha');
  const file = path.join(t.config.dataDir, 'fixture.xlsx');
  await writeSheet(file, recordSheet(noticeFields, 2));
  workbook = fs.readFileSync(file);
  fs.rmSync(file);
});
afterAll(async () => t?.close());

const formRoutes = [
  '/temporary-upload',
  '/api/notices/upload-import-file',
  '/api/credit-cards/upload-credit-card--import-file',
];

const post = (url: string, contentType: string, payload: Buffer | string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...asha.headers, 'content-type': contentType },
    payload,
  });

/** Every file kept under uploads/ (finished or partial), in the app's store: a folder or a bucket. */
async function keptUploads(): Promise<string[]> {
  const store = await openFileStore(t.config);
  try {
    return (await store.list('uploads')).map((file) => file.key);
  } finally {
    store.close();
  }
}
const keptFiles = async () => (await keptUploads()).filter((name) => /\.xlsx/.test(name));

function refused(res: { statusCode: number; body: string }, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
  return body as { message: string };
}

const form = () => multipart({ type: 'notice', name: 'March' }, { name: 'march.xlsx', data: workbook });
const boundaryOf = (contentType: string) => /boundary=(.*)$/.exec(contentType)![1]!;

/** What was sent (content type and body) and what the answer must say. */
const broken: { sent: string; build: () => { type: string; body: Buffer | string }; says: RegExp }[] = [
  {
    sent: 'no boundary in the Content-Type',
    build: () => ({ type: 'multipart/form-data', body: form().payload }),
    says: /names no usable boundary/,
  },
  {
    sent: 'an empty boundary',
    build: () => ({ type: 'multipart/form-data; boundary=', body: form().payload }),
    says: /names no usable boundary/,
  },
  {
    sent: 'a boundary of 300 characters',
    build: () => ({ type: `multipart/form-data; boundary=${'b'.repeat(300)}`, body: form().payload }),
    says: /names no usable boundary/,
  },
  {
    sent: 'a body whose parts use another boundary than the Content-Type names',
    build: () => ({ type: 'multipart/form-data; boundary=not-the-one', body: form().payload }),
    says: /ended before the form was complete/,
  },
  {
    sent: 'a body cut off in the first part’s headers',
    build: () => {
      const f = form();
      return { type: f.headers['content-type'], body: f.payload.subarray(0, 40) };
    },
    says: /ended before the form was complete/,
  },
  {
    sent: 'a body cut off in the middle of the file',
    build: () => {
      const f = form();
      return { type: f.headers['content-type'], body: f.payload.subarray(0, f.payload.length - 2000) };
    },
    says: /ended before the form was complete/,
  },
  {
    sent: 'a body without its closing boundary',
    build: () => {
      const f = form();
      const end = Buffer.byteLength(`--${boundaryOf(f.headers['content-type'])}--\r\n`);
      return { type: f.headers['content-type'], body: f.payload.subarray(0, f.payload.length - end) };
    },
    says: /ended before the form was complete/,
  },
  {
    sent: 'a body cut off in a field after the whole file',
    build: () => {
      const f = form();
      const boundary = boundaryOf(f.headers['content-type']);
      const end = Buffer.byteLength(`--${boundary}--\r\n`);
      const trailing = `--${boundary}\r\nContent-Disposition: form-data; name="file_name"\r\n\r\nMar`;
      return {
        type: f.headers['content-type'],
        body: Buffer.concat([f.payload.subarray(0, f.payload.length - end), Buffer.from(trailing)]),
      };
    },
    says: /ended before the form was complete/,
  },
  {
    sent: 'a field named __proto__',
    build: () => {
      const f = multipart(Object.fromEntries([['__proto__', 'x']]), { name: 'a.xlsx', data: workbook });
      return { type: f.headers['content-type'], body: f.payload };
    },
    says: /named after a built-in property/,
  },
  {
    sent: 'a field named constructor',
    build: () => {
      const f = multipart({ constructor: 'x' }, { name: 'a.xlsx', data: workbook });
      return { type: f.headers['content-type'], body: f.payload };
    },
    says: /named after a built-in property/,
  },
  {
    sent: 'a file name holding a NUL character',
    build: () => {
      const f = multipart({ type: 'notice' }, { name: 'march\0.xlsx', data: workbook });
      return { type: f.headers['content-type'], body: f.payload };
    },
    says: /file name holds a NUL character/,
  },
  {
    sent: 'a field holding a NUL character',
    build: () => {
      const f = multipart({ name: 'Mar\0ch' }, { name: 'march.xlsx', data: workbook });
      return { type: f.headers['content-type'], body: f.payload };
    },
    says: /name holds a NUL character/,
  },
];

describe('multipart forms', () => {
  it('that are broken answer 400 saying how, on every route that reads a form, and keep nothing', async () => {
    for (const url of formRoutes)
      for (const bad of broken) {
        const { type, body } = bad.build();
        const res = await post(url, type, body);
        expect(res.statusCode, `${url}: ${bad.sent}: ${res.body}`).toBe(400);
        expect(refused(res, 400).message, `${url}: ${bad.sent}`).toMatch(bad.says);
      }
    expect(await keptFiles()).toEqual([]);
  });

  it('that are whole are still read, the file kept once', async () => {
    const f = form();
    const res = await post('/temporary-upload', f.headers['content-type'], f.payload);
    expect(res.statusCode, res.body).toBe(200);
    expect(await keptFiles()).toHaveLength(1);
  });
});
