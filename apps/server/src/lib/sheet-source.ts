import fs from 'node:fs/promises';
import { openFirstSheetInWorker } from './xlsx/read-sheet-in-worker.ts';
import type { ReadOptions, SheetReader } from './xlsx/read-sheet.ts';

/** The readers an import has: an .xlsx workbook's first sheet, or a CSV/TSV text file. */
export type SheetFormat = 'xlsx' | 'csv';

/** Names read as delimited text (.txt is what Excel's 'Unicode Text' saves as). */
const TEXT_NAME = /\.(csv|tsv|tab|txt)$/i;

export interface SheetOptions extends ReadOptions {
  /**
   * The most data rows the import takes (IMPORT_MAX_ROWS). The CSV reader stops reading at the first
   * row past it, so a million-line file is refused without being read to its end.
   */
  maxRows?: number;
}

/**
 * Which reader a file needs. Its first bytes decide first: a zip archive is read as a workbook
 * whatever its name (a renamed .xlsx is still one). Otherwise its name: .csv, .tsv and .txt are
 * text; anything else goes to the workbook reader, whose whole-file checks word the refusal.
 */
export async function sheetFormat(path: string, fileName: string): Promise<SheetFormat> {
  const handle = await fs.open(path, 'r');
  const head = Buffer.alloc(4);
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  if (head.readUInt32BE(0) === 0x504b0304) return 'xlsx';
  return TEXT_NAME.test(fileName) ? 'csv' : 'xlsx';
}

/**
 * Opens an uploaded file's rows for an import, off the main thread: on a worker thread, or (mode
 * 'process') in a child process of its own for a file whose import a server process already died
 * running. The rows come out the same whatever the format (SheetRow), so the mapping, the row report
 * and the hand-over do not know which it was.
 */
export async function openSheet(
  path: string,
  fileName: string,
  options: SheetOptions,
  mode: { in: 'thread' | 'process' },
): Promise<SheetReader> {
  const format = await sheetFormat(path, fileName);
  return openFirstSheetInWorker(path, options, mode, format);
}
