import { parentPort } from 'node:worker_threads';
import { loadConfig } from '../../config/env.ts';
import { openDatabase } from '../../db/database.ts';
import { completeJob } from '../../jobs/jobs.repository.ts';
import { nowIso } from '../../lib/time.ts';
import { handOver, importResult, type HandOver } from './hand-over.ts';

/** What hand-over-in-worker.ts sends this thread, and what it answers. */
export interface HandOverWork {
  dataDir: string;
  handOver: HandOver;
  jobId: string;
  workerId: string;
}
export type HandOverAnswer = { ok: true } | { ok: false; lostLease: boolean; message: string };

class LostLease extends Error {}

async function run(work: HandOverWork): Promise<HandOverAnswer> {
  // A connection of its own to the same SQLite file: the main thread's connection keeps reading (WAL
  // readers see the data as it was until this transaction commits) instead of waiting for it.
  const { db } = await openDatabase(loadConfig({ DATA_DIR: work.dataDir }));
  try {
    const result = importResult(work.handOver);
    await handOver(db, work.handOver, async (trx) => {
      if (!(await completeJob(trx, work.jobId, work.workerId, result, nowIso()))) throw new LostLease();
    });
    return { ok: true };
  } catch (err) {
    return {
      ok: false,
      lostLease: err instanceof LostLease,
      message: err instanceof Error ? err.message : String(err),
    };
  } finally {
    await db.destroy();
  }
}

parentPort!.once('message', (work: HandOverWork) => {
  void run(work).then((answer) => parentPort!.postMessage(answer));
});
