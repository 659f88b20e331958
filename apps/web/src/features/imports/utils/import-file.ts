/** The spec's two import-file messages, verbatim. */
export const importFileMessages = {
  missing: 'Please select a file.',
  notExcel: 'Please upload an Excel file (.xlsx).',
} as const;

/**
 * The endings an import takes: an .xlsx workbook, or the sheet saved as CSV or TSV (or as Excel's
 * 'Unicode Text', a .txt).
 */
const IMPORT_FILE = /\.(xlsx|csv|tsv|txt)$/i;
/** The file picker's filter. */
export const importFileAccept = '.xlsx,.csv,.tsv,.txt';

/** Spreadsheet files the server cannot read, with the way out (the server says the same). */
const unreadable: [RegExp, string][] = [
  [/\.xls$/i, 'Excel 97-2003 (.xls) workbooks cannot be imported'],
  [/\.(ods|fods)$/i, 'OpenDocument (.ods) spreadsheets cannot be imported'],
  [/\.numbers$/i, 'Numbers spreadsheets cannot be imported'],
];

/**
 * The spec's check of the chosen file: there is one, and its name ends in .xlsx (or .csv/.tsv). An
 * .xls or .ods is told how to save it instead.
 */
export function importFileError(file: File | null): string | null {
  if (!file) return importFileMessages.missing;
  const kind = unreadable.find(([name]) => name.test(file.name));
  if (kind) return `${kind[1]}. Save the file as .xlsx or .csv and import it again.`;
  if (!IMPORT_FILE.test(file.name)) return importFileMessages.notExcel;
  return null;
}

/** A file size as the modal shows it: megabytes with 2 decimals ('0.05 MB'). */
export function fileSizeInMb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

/**
 * The name the import's campaign (history entry) gets: the rename when one is typed, else the
 * file's name, either way without the .xlsx (or .csv/.tsv) ending.
 */
export function campaignNameFor(fileName: string, rename: string): string {
  return (rename.trim() || fileName).replace(IMPORT_FILE, '').trim();
}

/**
 * The file name sent with the upload: the rename (given the file's own ending, which tells the
 * server how to read it) or the file's own name.
 */
export function uploadNameFor(fileName: string, rename: string): string {
  const renamed = rename.trim();
  if (!renamed) return fileName;
  const ending = IMPORT_FILE.exec(fileName)?.[0] ?? '.xlsx';
  return renamed.toLowerCase().endsWith(ending.toLowerCase())
    ? renamed
    : `${renamed.replace(IMPORT_FILE, '')}${ending}`;
}
