import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

/** What database.ts starts the checkpointer with. */
export interface CheckpointerData {
  file: string;
  everyMs: number;
  /** Set to 1 once this thread's connection is closed: the main thread waits for it (database.ts). */
  closed: Int32Array;
}

// A worker thread with a connection of its own that copies the write-ahead log into the database file
// (database.ts says why). PASSIVE never waits for a reader or a writer: what it cannot copy now, the
// next tick does. A failure is left to the next tick, and to the main connection's own checkpoint past
// its larger threshold.
const { file, everyMs, closed } = workerData as CheckpointerData;
const db = new SqliteDatabase(file);
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy, or the file is going away with its process: the next tick tries again
  }
}, everyMs);
parentPort!.once('message', () => {
  clearInterval(timer);
  db.close();
  Atomics.store(closed, 0, 1);
  Atomics.notify(closed, 0);
  parentPort!.close();
});
