import path from 'node:path';
import { sqliteFile, type Database } from '../../db/database.ts';
import { startTsWorker } from '../../lib/ts-worker.ts';
import type { JobContext } from '../../jobs/job-runner.ts';
import type { HandOver } from './hand-over.ts';
import type { HandOverAnswer, HandOverWork } from './hand-over-worker.ts';

const workerModule = new URL('./hand-over-worker.ts', import.meta.url);

/**
 * Ends an import on SQLite (hand-over.ts) on a worker thread with a connection of its own: revealing
 * 100,000 rows is one UPDATE that holds the thread that runs it for a second or more (better-sqlite3 is
 * synchronous), and on the main thread every request waited for it.
 *
 * The thread starts once the sheet's reader has ended, so the two never hold memory at once: started
 * when 90% of the sheet was read, it put a 100,000-row import's peak 35-40 MB higher (402-409 MB against
 * 368-369), for 0.1 s gained. Its code is one bundled file (lib/ts-worker.ts), quick to load.
 */
export async function handOverInWorker(db: Database, context: JobContext, h: HandOver): Promise<void> {
  const file = await sqliteFile(db);
  const work: HandOverWork = {
    dataDir: path.dirname(file),
    handOver: h,
    jobId: context.job.id,
    workerId: context.workerId,
  };
  const thread = startTsWorker(workerModule);
  try {
    const result = await new Promise<HandOverAnswer>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
      thread.once('exit', (code) => reject(new Error(`The import's last step stopped (exit code ${code}).`)));
      thread.postMessage(work);
    });
    if (result.ok) return;
    if (result.lostLease) throw new Error('Another worker took the import over before it finished.');
    throw new Error(result.message);
  } finally {
    void thread.terminate();
  }
}
