import fs from 'node:fs';
import type { Database } from '../../db/database.ts';
import type { PdfRenderer } from '../../lib/pdf/renderer.ts';
import type { FileStore } from '../../lib/storage.ts';
import type { RedisClient } from '../limits/redis.ts';
import { pingDatabase } from './health.repository.ts';

/** One part /api/ready looks at: 'ok', 'not used' by this process, or why it is not ready. */
export type Check = 'ok' | 'not used' | string;

export interface Readiness {
  ready: boolean;
  checks: { database: Check; storage: Check; redis: Check; browser: Check };
}

/** A check that answers within this, or is taken as failed. */
const CHECK_TIMEOUT_MS = 3000;

async function check(run: () => Promise<string | undefined>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`), CHECK_TIMEOUT_MS);
  });
  try {
    return (await Promise.race([run().then((problem) => problem ?? 'ok'), late])) as Check;
  } catch (err) {
    return (err as Error).message.split('\n')[0] || 'failed';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this process can do its work (GET /api/ready): the database answers, the file store answers
 * (the bucket is listed when STORAGE_URL is set) and the data folder takes writes (S3 or not, temporary
 * copies go there), Redis answers when REDIS_URL is set, and, in a process that renders (one running
 * jobs), Chromium is there or connected. A load balancer sends traffic only to a ready process.
 */
export async function readiness(parts: {
  db: Database;
  store: FileStore;
  dataDir: string;
  redis: RedisClient | undefined;
  renderer: PdfRenderer | undefined;
}): Promise<Readiness> {
  const [database, storage, redis, browser] = await Promise.all([
    check(async () => void (await pingDatabase(parts.db))),
    check(async () => {
      // The store's own timeout ends its request; the race in check() answers the probe either way.
      await parts.store.check(CHECK_TIMEOUT_MS - 500);
      await fs.promises.access(parts.dataDir, fs.constants.W_OK);
      return undefined;
    }),
    parts.redis ? check(async () => void (await parts.redis!.ping())) : Promise.resolve('not used'),
    parts.renderer ? check(() => parts.renderer!.problem()) : Promise.resolve('not used'),
  ]);
  const checks = { database, storage, redis, browser };
  return { ready: Object.values(checks).every((c) => c === 'ok' || c === 'not used'), checks };
}
