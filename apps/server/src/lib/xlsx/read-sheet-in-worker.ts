import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReadOptions, SheetReader, SheetRow } from './read-sheet.ts';
import type { SheetWorkerMessage } from './sheet-worker.ts';
import { XlsxError } from './xlsx-error.ts';

const BATCH = 500;
const WINDOW = 8;

// The worker runs TypeScript source like the rest of the server: it registers tsx's loader first,
// whichever way the parent process was started (node --import tsx, or the test runner).
const tsxApi = pathToFileURL(
  createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs'),
).href;
const workerModule = new URL('./sheet-worker.ts', import.meta.url).href;
const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(workerModule)}, ${JSON.stringify(workerModule)}))`;

/**
 * openFirstSheet on a worker thread: the sheet is parsed on one core while the importer writes
 * rows on the other, so a large import takes about as long as the slower of the two, not their sum.
 */
export async function openFirstSheetInWorker(file: string, options: ReadOptions): Promise<SheetReader> {
  const worker = new Worker(bootstrap, {
    eval: true,
    workerData: { file, options, batchSize: BATCH, window: WINDOW },
    resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 },
  });
  const queue: SheetWorkerMessage[] = [];
  let notify: (() => void) | undefined;
  worker.on('message', (message: SheetWorkerMessage) => {
    queue.push(message);
    notify?.();
  });
  worker.on('error', (err) => {
    queue.push({ type: 'error', message: err.message, xlsx: false });
    notify?.();
  });
  const next = async (): Promise<SheetWorkerMessage> => {
    while (queue.length === 0) await new Promise<void>((r) => (notify = r));
    return queue.shift()!;
  };
  const fail = (message: Extract<SheetWorkerMessage, { type: 'error' }>) => {
    void worker.terminate();
    return message.xlsx ? new XlsxError(message.message) : new Error(message.message);
  };

  const first = await next();
  if (first.type === 'error') throw fail(first);
  let progress = 0;
  async function* rows(): AsyncGenerator<SheetRow> {
    for (;;) {
      const message = await next();
      if (message.type === 'error') throw fail(message);
      if (message.type !== 'rows') return;
      progress = message.progress;
      worker.postMessage('more');
      yield* message.rows;
    }
  }
  return {
    rows: rows(),
    progress: () => progress,
    close: () => void worker.terminate(),
  };
}
