import { fork } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import type { SheetFormat } from '../sheet-source.ts';
import { workerScript } from '../ts-worker.ts';
import { unpackRows } from './packed-rows.ts';
import type { ReadOptions, SheetReader, SheetRow } from './read-sheet.ts';
import type { SheetWorkerData, SheetWorkerMessage } from './sheet-worker.ts';
import { XlsxError } from './xlsx-error.ts';

/**
 * Rows cross from the reader in small batches, few at a time: 100 rows, at most 48,000 characters of
 * text, at most 4 batches ahead. A batch's text is one string (packed-rows.ts), and a string over
 * 128 KB is made straight in V8's old generation, where only a full collection frees it; so is one
 * that waits in the queue through two young collections. With batches of 500 rows, 8 ahead, a
 * 100,000-row import's heap grew by about 75 MB of such batches before a full collection, and the
 * process peaked at 367-388 MB; now 321-325 MB, no slower (alternated runs, docs/benchmarks.md).
 */
const BATCH = 100;
/** Under 128 KB even when the text is two bytes a character (any character past U+00FF makes it so). */
const BATCH_CHARS = 48_000;
const BATCH_CELLS = BATCH * 64;
const WINDOW = 4;
/** The reader's JS heap, thread or process: far above what a real sheet needs (about 40 MB). */
const DEFAULT_HEAP_MB = 128;

export interface IsolationOptions {
  /**
   * 'thread' (the default): a worker thread, under heap limits. 'process': a child process of its own,
   * for a file whose import a server process already died running: whatever the file does to its
   * reader, even a fatal V8 error that no thread limit catches, ends that child and not the server.
   */
  in?: 'thread' | 'process';
  maxHeapMb?: number;
}

const workerModule = new URL('./sheet-worker.ts', import.meta.url);

/** The reader on the other side, thread or process, behind one shape. */
interface ReaderChannel {
  post(message: 'more'): void;
  stop(): void;
}

/**
 * openFirstSheet off the main thread: the sheet is parsed on one core while the importer writes rows
 * on the other, so a large import takes about as long as the slower of the two, not their sum. However
 * the reader ends (out of memory, killed, crashed), the answer is an error, never a wait for ever.
 */
export async function openFirstSheetInWorker(
  file: string,
  options: ReadOptions,
  isolation: IsolationOptions = {},
  /** Which reader runs there: a CSV/TSV is read the same way (lib/sheet-source.ts decides). */
  format: SheetFormat = 'xlsx',
): Promise<SheetReader> {
  const heapMb = isolation.maxHeapMb ?? DEFAULT_HEAP_MB;
  const data: SheetWorkerData = {
    file,
    format,
    options,
    batchSize: BATCH,
    batchChars: BATCH_CHARS,
    batchCells: BATCH_CELLS,
    window: WINDOW,
  };
  const queue: SheetWorkerMessage[] = [];
  let notify: (() => void) | undefined;
  let settled = false;
  let stopped = false;
  const push = (message: SheetWorkerMessage) => {
    if (settled) return;
    if (message.type === 'end' || message.type === 'error') settled = true;
    queue.push(message);
    notify?.();
  };
  const outOfMemory = (): SheetWorkerMessage => ({
    type: 'error',
    xlsx: true,
    message: `Reading the workbook needed more than ${heapMb} MB of memory, the most an import may use: the file may be damaged or built to exhaust memory. Check it in Excel, or split it into smaller files.`,
  });
  const script = await workerScript(workerModule);
  const start: ReaderStart = { script, data, heapMb, push, outOfMemory, stopped: () => stopped };
  const channel = isolation.in === 'process' ? inProcess(start) : inThread(start);

  const next = async (): Promise<SheetWorkerMessage> => {
    while (queue.length === 0) await new Promise<void>((r) => (notify = r));
    return queue.shift()!;
  };
  const stop = () => {
    stopped = true;
    channel.stop();
  };
  const fail = (message: Extract<SheetWorkerMessage, { type: 'error' }>) => {
    stop();
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
      channel.post('more');
      yield* unpackRows(message.rows);
    }
  }
  const sheet = first.type === 'ready' ? { sheetName: first.sheetName, sheetCount: first.sheetCount } : {};
  return { rows: rows(), progress: () => progress, close: stop, ...sheet };
}

/** What starts a reader, in a thread or a process. */
interface ReaderStart {
  script: string;
  data: SheetWorkerData;
  heapMb: number;
  push: (message: SheetWorkerMessage) => void;
  outOfMemory: () => SheetWorkerMessage;
  stopped: () => boolean;
}

function inThread({ script, data, heapMb, push, outOfMemory, stopped }: ReaderStart): ReaderChannel {
  const worker = new Worker(script, {
    workerData: data,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
  });
  worker.on('message', push);
  worker.on('error', (err: NodeJS.ErrnoException) =>
    push(
      err.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? outOfMemory()
        : { type: 'error', message: `The sheet reader failed: ${err.message}`, xlsx: false },
    ),
  );
  worker.on('exit', (code) => {
    if (!stopped())
      push({ type: 'error', message: `The sheet reader stopped (exit code ${code}).`, xlsx: false });
  });
  return { post: (message) => worker.postMessage(message), stop: () => void worker.terminate() };
}

function inProcess({ script, data, heapMb, push, outOfMemory, stopped }: ReaderStart): ReaderChannel {
  const child = fork(script, [JSON.stringify(data)], {
    execArgv: [`--max-old-space-size=${heapMb}`, '--max-semi-space-size=8'],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  child.on('message', (message: SheetWorkerMessage) => push(message));
  child.on('error', (err) =>
    push({ type: 'error', message: `The sheet reader failed: ${err.message}`, xlsx: false }),
  );
  child.on('exit', (code, signal) => {
    if (stopped()) return;
    // A heap past its limit ends V8 with a fatal error (SIGABRT); anything else that ends the child
    // follows from the file too: this runs only for a file that already took a server process down.
    if (
      /heap out of memory|Reached heap limit|invalid (table|array) size|out of memory/i.test(stderr) ||
      signal === 'SIGABRT'
    ) {
      push(outOfMemory());
    } else {
      push({
        type: 'error',
        xlsx: true,
        message: `Reading the workbook stopped its reader process (${signal ?? `exit code ${code}`}): the file may be damaged or built to exhaust the server. Check it in Excel, or split it into smaller files.`,
      });
    }
  });
  return {
    post: (message) => {
      if (child.connected) child.send(message);
    },
    stop: () => void child.kill('SIGKILL'),
  };
}
