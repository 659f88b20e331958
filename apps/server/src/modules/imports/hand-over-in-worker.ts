import path from 'node:path';
import { isPostgres, sqliteFile, type Database } from '../../db/database.ts';
import { startTsWorker } from '../../lib/ts-worker.ts';
import type { JobContext } from '../../jobs/job-runner.ts';
import { handOver, importResult, type HandOver } from './hand-over.ts';
import type { HandOverAnswer, HandOverWork } from './hand-over-worker.ts';

const workerModule = new URL('./hand-over-worker.ts', import.meta.url);

/** The last step of an import, made ready while the import runs. */
export interface PreparedHandOver {
  run(context: JobContext, h: HandOver): Promise<void>;
}

/**
 * Ends an import (hand-over.ts). On SQLite the transaction runs on a worker thread with a connection of
 * its own: revealing 100,000 rows is one UPDATE that holds the thread that runs it for a second or
 * more (better-sqlite3 is synchronous), and on the main thread every request waited for it. On
 * PostgreSQL the statement runs in the database, so the main thread only awaits it.
 */
export function prepareHandOver(db: Database): PreparedHandOver {
  if (isPostgres(db)) {
    return {
      run: (context, h) => handOver(db, h, (trx) => context.complete(trx, importResult(h))),
    };
  }
  return {
    async run(context, h) {
      const file = await sqliteFile(db);
      const work: HandOverWork = {
        dataDir: path.dirname(file),
        handOver: h,
        jobId: context.job.id,
        workerId: context.workerId,
      };
      // Started only now, once the sheet reader's thread is gone: the two threads' heaps together
      // put a 100,000-row import's peak about 120 MB higher.
      const worker = startTsWorker(workerModule, {});
      try {
        const result = await new Promise<HandOverAnswer>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.once('exit', (code) =>
            reject(new Error(`The import's last step stopped (exit code ${code}).`)),
          );
          worker.postMessage(work);
        });
        if (result.ok) return;
        if (result.lostLease) throw new Error('Another worker took the import over before it finished.');
        throw new Error(result.message);
      } finally {
        void worker.terminate();
      }
    },
  };
}
