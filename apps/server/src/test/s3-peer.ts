import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';

/** The bucket every test store lives in; each test app gets a prefix of its own. */
export const TEST_BUCKET = 'notice-desk-test';

export interface S3Peer {
  endpoint: string;
  /** Where the peer keeps objects on disk (`<bucket>/<key>._S3rver_object`). */
  directory: string;
  /** The settings for a store at s3://TEST_BUCKET/<prefix> (a fresh random prefix unless named). */
  env(prefix?: string): Record<string, string>;
  /** Requests the peer answered, by method, since it started (to see a download stream from it). */
  requests: { method: string; path: string }[];
  close(): Promise<void>;
}

/**
 * A local S3 peer in this process: s3rver (npm), on a random loopback port, over a temporary folder. It
 * checks signatures with its own credentials (S3RVER/S3RVER), which the SDK's default chain reads from
 * the environment here. One thing it does not do that S3, MinIO and R2 do is refuse a conditional write
 * (If-None-Match: *) to a key already taken; a middleware in front of its routes does that.
 */
export async function startS3Peer(): Promise<S3Peer> {
  process.env.AWS_ACCESS_KEY_ID ??= 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'S3RVER';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET, configs: [] }],
  });
  const requests: S3Peer['requests'] = [];
  const writing = new Set<string>();
  // s3rver is a Koa app: its middleware list (the types do not show it) takes one before its routes.
  const koa = server as unknown as {
    middleware: ((ctx: PeerContext, next: () => Promise<void>) => Promise<void>)[];
    httpServer?: Server;
  };
  koa.middleware.unshift(async (ctx, next) => {
    requests.push({ method: ctx.method, path: ctx.path });
    if (ctx.method !== 'PUT' || ctx.get('if-none-match') !== '*') return next();
    const object = path.join(directory, decodeURIComponent(ctx.path)) + '._S3rver_object';
    // As S3 does: a second conditional write while one to the key is under way is a 409 conflict.
    if (writing.has(object))
      return s3Error(ctx, 409, 'ConditionalRequestConflict', 'A conflicting operation is in progress');
    if (fs.existsSync(object))
      return s3Error(
        ctx,
        412,
        'PreconditionFailed',
        'At least one of the pre-conditions you specified did not hold',
      );
    writing.add(object);
    try {
      await next();
    } finally {
      writing.delete(object);
    }
  });
  const address = (await server.run()) as AddressInfo;
  // Never what keeps a test worker alive: it ends with the worker.
  koa.httpServer?.unref();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    directory,
    requests,
    env: (prefix = `t-${randomBytes(6).toString('hex')}`) => ({
      STORAGE_URL: `s3://${TEST_BUCKET}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
    }),
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

function s3Error(ctx: PeerContext, status: number, code: string, message: string): void {
  ctx.status = status;
  ctx.type = 'application/xml';
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

interface PeerContext {
  method: string;
  path: string;
  status: number;
  type: string;
  body: unknown;
  get(header: string): string;
}

let shared: Promise<S3Peer> | undefined;

/**
 * One peer for every test app of this worker that runs with TEST_STORAGE=s3 (the server-s3 project):
 * it lives as long as the worker, whose end takes it down.
 */
export function sharedS3Peer(): Promise<S3Peer> {
  shared ??= startS3Peer();
  return shared;
}
