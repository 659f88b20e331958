import fs from 'node:fs/promises';
import { refuseNonText } from './csv/text-encoding.ts';
import { openFirstSheetInWorker } from './xlsx/read-sheet-in-worker.ts';
import type { ReadOptions, SheetReader } from './xlsx/read-sheet.ts';
import { refuseKnownNonXlsx } from './xlsx/zip.ts';

/** The readers an import has: an .xlsx workbook's first sheet, or a CSV/TSV text file. */
export type SheetFormat = 'xlsx' | 'csv';

/** The names an import takes; the stored copy keeps the ending (a .txt is stored as .tsv). */
const IMPORT_NAME = /\.(xlsx|csv|tsv|txt)$/i;
/**
 * Names read as delimited text. A .txt is what Excel's 'Unicode Text' (UTF-16, tab-separated) and
 * 'Text (Tab delimited)' save as: read as a .tsv, when its bytes are text.
 */
const TEXT_NAME = /\.(csv|tsv|txt)$/i;
/**
 * Spreadsheet files no reader here takes, with what to do instead. No well-kept library reads them
 * safely (docs/decisions/0006-no-xls-ods.md): the person saving the file again is the one sure way.
 */
const UNREADABLE: [RegExp, string][] = [
  [/\.xls$/i, 'Excel 97-2003 (.xls) workbooks cannot be imported'],
  [/\.(ods|fods)$/i, 'OpenDocument (.ods) spreadsheets cannot be imported'],
  [/\.numbers$/i, 'Numbers spreadsheets cannot be imported'],
];
const SAVE_AGAIN = 'Save the file as .xlsx or .csv and import it again.';

/**
 * Why a file of this name cannot be imported, or undefined when its name is one an import takes
 * ('xlsx', 'csv' or 'tsv', its ending as stored; a .txt is stored as 'tsv'). `otherwise`: the answer for a name of no known
 * spreadsheet kind (the spec's own sentence).
 */
export function importFileName(
  fileName: string,
  otherwise: string,
): { ending: string } | { refusal: string } {
  for (const [name, what] of UNREADABLE)
    if (name.test(fileName)) return { refusal: `${what}. ${SAVE_AGAIN}` };
  const ending = IMPORT_NAME.exec(fileName)?.[1]?.toLowerCase();
  if (!ending) return { refusal: otherwise };
  return { ending: ending === 'txt' ? 'tsv' : ending };
}

/**
 * The whole-file check an upload gets before it is kept: a workbook's first bytes are a zip archive,
 * a CSV's are text. Throws an XlsxError saying what the file is instead.
 */
export async function refuseUnreadableUpload(path: string, fileName: string): Promise<void> {
  if ((await sheetFormat(path, fileName)) === 'xlsx') await refuseKnownNonXlsx(path);
  else await refuseNonText(path);
}

export interface SheetOptions extends ReadOptions {
  /**
   * The most data rows the import takes (IMPORT_MAX_ROWS). The CSV reader stops reading soon after
   * the first row past it, so a million-line file is refused without being read to its end.
   */
  maxRows?: number;
}

/**
 * Which reader a file needs. Its first bytes decide first: a zip archive is read as a workbook
 * whatever its name (a renamed .xlsx is still one). Otherwise its name: .csv, .tsv and .txt are text;
 * anything else goes to the workbook reader, whose whole-file checks word the refusal.
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
