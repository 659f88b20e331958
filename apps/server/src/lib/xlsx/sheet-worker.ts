import { parentPort, workerData } from 'node:worker_threads';
import { openCsv } from '../csv/read-csv.ts';
import type { SheetFormat, SheetOptions } from '../sheet-source.ts';
import { packRows, type PackedRows } from './packed-rows.ts';
import { openFirstSheet, type ReadOptions, type SheetRow } from './read-sheet.ts';
import { XlsxError } from './xlsx-error.ts';

/** Messages from the thread or process that reads a sheet (read-sheet-in-worker.ts is the other side). */
export type SheetWorkerMessage =
  | { type: 'ready'; sheetName?: string; sheetCount?: number }
  | { type: 'rows'; rows: PackedRows; progress: number }
  | { type: 'end' }
  | { type: 'error'; message: string; xlsx: boolean };

export interface SheetWorkerData {
  file: string;
  format?: SheetFormat;
  options: ReadOptions & Pick<SheetOptions, 'maxRows'>;
  /** Rows per message, and the most characters and cells per message (a row may have up to 16,384). */
  batchSize: number;
  batchChars: number;
  batchCells: number;
  window: number;
}

// The same module runs on a worker thread (workerData, parentPort) or, for a file that took a server
// process down before, in a child process of its own (its data in argv, messages over IPC).
const inProcess = !parentPort;
const { file, format, options, batchSize, batchChars, batchCells, window } = (
  inProcess ? JSON.parse(process.argv[2] ?? '{}') : workerData
) as SheetWorkerData;
const post = (message: SheetWorkerMessage) =>
  inProcess ? process.send!(message) : parentPort!.postMessage(message);
const onMessage = (listener: (message: unknown) => void) =>
  inProcess ? process.on('message', listener) : parentPort!.on('message', listener);
if (inProcess) process.on('disconnect', () => process.exit(0));

let credit = window;
let resume: (() => void) | undefined;
onMessage((message) => {
  if (message === 'more') {
    credit += 1;
    resume?.();
  }
});

async function run(): Promise<void> {
  const reader = format === 'csv' ? await openCsv(file, options) : await openFirstSheet(file, options);
  post({ type: 'ready', sheetName: reader.sheetName, sheetCount: reader.sheetCount });
  let batch: SheetRow[] = [];
  let cells = 0;
  let chars = 0;
  const send = async () => {
    // Stay at most `window` batches ahead of the importer, so memory stays bounded.
    while (credit <= 0) await new Promise<void>((r) => (resume = r));
    credit -= 1;
    post({ type: 'rows', rows: packRows(batch), progress: reader.progress() });
    batch = [];
    cells = 0;
    chars = 0;
  };
  try {
    try {
      for await (const row of reader.rows) {
        batch.push(row);
        cells += row.cells.length + 1;
        for (const cell of row.cells) chars += cell.length;
        if (batch.length >= batchSize || cells >= batchCells || chars >= batchChars) await send();
      }
    } finally {
      // The rows read before a failure go first: the importer may need no more than them (the preview
      // stops at the first row past the import's limit; the CSV reader, a few rows after it).
      if (batch.length) await send();
    }
    post({ type: 'end' });
  } finally {
    reader.close();
  }
}

run().catch((err: unknown) => post(describeFailure(err)));

/**
 * Only a failure of the machine (the file system: EIO, EMFILE …) may pass on another attempt. Anything
 * else reading the sheet threw follows from the file's bytes and would throw again: it is the file's
 * problem (xlsx: true), so the import fails at once, saying what it is, instead of retrying.
 */
function describeFailure(err: unknown): SheetWorkerMessage {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof XlsxError) return { type: 'error', message, xlsx: true };
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return { type: 'error', message, xlsx: false };
  return { type: 'error', message: `The workbook could not be read: ${message}.`, xlsx: true };
}
