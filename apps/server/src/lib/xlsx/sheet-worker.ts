import { parentPort, workerData } from 'node:worker_threads';
import { openFirstSheet, type ReadOptions, type SheetRow } from './read-sheet.ts';
import { XlsxError } from './xlsx-error.ts';

/** Messages from the worker thread that reads a sheet (read-sheet-in-worker.ts is the other side). */
export type SheetWorkerMessage =
  | { type: 'ready' }
  | { type: 'rows'; rows: SheetRow[]; progress: number }
  | { type: 'end' }
  | { type: 'error'; message: string; xlsx: boolean };

const { file, options, batchSize, window } = workerData as {
  file: string;
  options: ReadOptions;
  batchSize: number;
  window: number;
};
const port = parentPort!;
let credit = window;
let resume: (() => void) | undefined;
port.on('message', (message: 'more') => {
  if (message === 'more') {
    credit += 1;
    resume?.();
  }
});

async function run(): Promise<void> {
  const reader = await openFirstSheet(file, options);
  port.postMessage({ type: 'ready' } satisfies SheetWorkerMessage);
  let batch: SheetRow[] = [];
  const send = async () => {
    // Stay at most `window` batches ahead of the importer, so memory stays bounded.
    while (credit <= 0) await new Promise<void>((r) => (resume = r));
    credit -= 1;
    port.postMessage({ type: 'rows', rows: batch, progress: reader.progress() } satisfies SheetWorkerMessage);
    batch = [];
  };
  try {
    for await (const row of reader.rows) {
      batch.push(row);
      if (batch.length >= batchSize) await send();
    }
    if (batch.length) await send();
    port.postMessage({ type: 'end' } satisfies SheetWorkerMessage);
  } finally {
    reader.close();
  }
}

run().catch((err: unknown) => {
  port.postMessage({
    type: 'error',
    message: err instanceof Error ? err.message : String(err),
    xlsx: err instanceof XlsxError,
  } satisfies SheetWorkerMessage);
});
