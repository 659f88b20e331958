import path from 'node:path';
import { sqliteFile, type Database } from '../../db/database.ts';
import { startTsWorker } from '../../lib/ts-worker.ts';
import type { JobContext } from '../../jobs/job-runner.ts';
import type { HandOver } from './hand-over.ts';
import type { HandOverAnswer, HandOverWork } from './hand-over-worker.ts';

const workerModule = new URL('./hand-over-worker.ts', import.meta.url);

/** The last step of an import on SQLite, its thread started ahead and waiting for the step's figures. */
export interface HandOverThread {
  run(h: HandOver): Promise<void>;
  stop(): void;
}

/**
 * Ends an import on SQLite (hand-over.ts) on a worker thread with a connection of its own: revealing
 * 100,000 rows is one UPDATE that holds the thread that runs it for a second or more (better-sqlite3 is
 * synchronous), and on the main thread every request waited for it.
 *
 * The thread is started with the import and waits: loading its code (Kysely's modules, the driver)
 * took 0.33 s, which now passes while the sheet is read instead of after its last row. Its code is one
 * bundled file (lib/ts-worker.ts).
 */
export async function startHandOver(db: Database, context: JobContext): Promise<HandOverThread> {
  const dataDir = path.dirname(await sqliteFile(db));
  const thread = await startTsWorker(workerModule);
  // An answer or a failure that comes before run() asks is kept for it.
  const answer = new Promise<HandOverAnswer>((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`The import's last step stopped (exit code ${code}).`)));
  });
  answer.catch(() => undefined);
  return {
    async run(h) {
      const work: HandOverWork = { dataDir, handOver: h, jobId: context.job.id, workerId: context.workerId };
      thread.postMessage(work);
      const result = await answer;
      if (result.ok) return;
      if (result.lostLease) throw new Error('Another worker took the import over before it finished.');
      throw new Error(result.message);
    },
    stop: () => void thread.terminate(),
  };
}
