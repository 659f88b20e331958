/** The spec's two import-file messages, verbatim. */
export const importFileMessages = {
  missing: 'Please select a file.',
  notExcel: 'Please upload an Excel file (.xlsx).',
} as const;

const XLSX = /\.xlsx$/i;

/** The spec's check of the chosen file: there is one, and its name ends in .xlsx. */
export function importFileError(file: File | null): string | null {
  if (!file) return importFileMessages.missing;
  if (!XLSX.test(file.name)) return importFileMessages.notExcel;
  return null;
}

/** A file size as the modal shows it: megabytes with 2 decimals ('0.05 MB'). */
export function fileSizeInMb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

/**
 * The name the import's campaign (history entry) gets: the rename when one is typed, else the
 * file's name, either way without the .xlsx ending.
 */
export function campaignNameFor(fileName: string, rename: string): string {
  return (rename.trim() || fileName).replace(XLSX, '').trim();
}

/** The file name sent with the upload: the rename (kept an .xlsx name) or the file's own name. */
export function uploadNameFor(fileName: string, rename: string): string {
  const renamed = rename.trim();
  if (!renamed) return fileName;
  return XLSX.test(renamed) ? renamed : `${renamed}.xlsx`;
}
