import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { isPostgres, sqliteFile, type Database } from '../../db/database.ts';
import { startTsWorker } from '../../lib/ts-worker.ts';
import type { JobContext } from '../../jobs/job-runner.ts';
import { handOver, importResult, type HandOver } from './hand-over.ts';
import type { HandOverAnswer, HandOverWork } from './hand-over-worker.ts';

const workerModule = new URL('./hand-over-worker.ts', import.meta.url);

/** The last step of an import, made ready while the import runs. */
export interface PreparedHandOver {
  /** The sheet is nearly read: make ready what the last step needs, so it starts the moment rows end. */
  warm(): void;
  run(context: JobContext, h: HandOver): Promise<void>;
  /** The import ended without its last step: let go of what warm() made. */
  dispose(): void;
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
      warm: () => undefined,
      run: (context, h) => handOver(db, h, (trx) => context.complete(trx, importResult(h))),
      dispose: () => undefined,
    };
  }
  // Started when the sheet is nearly read (warm), not at the start: the reader's heap and this one's
  // together put a 100,000-row import's peak about 120 MB higher for the whole import. Not after the
  // last row either: loading its TypeScript took 0.9-1.6 s (load 4), with nothing else left to do.
  let worker: Worker | undefined;
  // Whatever ends a warmed thread before run() listens (a failed load, a crash) is kept for run() to
  // answer with; unheard, a worker's 'error' would end the server process.
  let ended: Error | undefined;
  const start = () => {
    if (!worker) {
      worker = startTsWorker(workerModule, {});
      worker.once('error', (err) => (ended ??= err));
      worker.once(
        'exit',
        (code) => (ended ??= new Error(`The import's last step stopped (exit code ${code}).`)),
      );
    }
    return worker;
  };
  const dispose = () => {
    void worker?.terminate();
    worker = undefined;
  };
  return {
    warm: () => void start(),
    async run(context, h) {
      const file = await sqliteFile(db);
      const work: HandOverWork = {
        dataDir: path.dirname(file),
        handOver: h,
        jobId: context.job.id,
        workerId: context.workerId,
      };
      const thread = start();
      try {
        const result = await new Promise<HandOverAnswer>((resolve, reject) => {
          if (ended) return reject(ended);
          thread.once('message', resolve);
          thread.once('error', reject);
          thread.once('exit', (code) =>
            reject(new Error(`The import's last step stopped (exit code ${code}).`)),
          );
          thread.postMessage(work);
        });
        if (result.ok) return;
        if (result.lostLease) throw new Error('Another worker took the import over before it finished.');
        throw new Error(result.message);
      } finally {
        dispose();
      }
    },
    dispose,
  };
}
