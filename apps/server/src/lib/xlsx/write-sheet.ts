import { PassThrough, type Readable } from 'node:stream';
import { exportableText } from '../xml-text.ts';

/**
 * A cell a spreadsheet must never run: text starting with = + - @ (or a tab or carriage return that
 * Excel skips) is prefixed with an apostrophe so it shows as typed instead of as a formula.
 */
export function neutralizeFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * Cell text as Excel will show it: Excel reads `_xHHHH_` in a cell as the character U+HHHH (how Office
 * writes control characters), so a value that holds such text literally has its underscore escaped as
 * `_x005F_`, and `_x0041_` shows as typed instead of as 'A'.
 */
export function keepLiteralEscapes(text: string): string {
  return text.replace(/_(?=x[0-9A-Fa-f]{4}_)/g, '_x005F_');
}

/** What a cell holds in the file: text XML can carry, as Excel will show it, never run as a formula. */
const cellText = (text: string) => neutralizeFormula(keepLiteralEscapes(exportableText(text)));

/**
 * Streams a one-sheet .xlsx: a header row, then the rows as they come, every cell written as text
 * (cellText): characters XML cannot hold shown as U+FFFD (exportableText), so Excel never calls the
 * file damaged, and formulas neutralised. Memory stays flat at any row count.
 */
export function xlsxStream(
  sheetName: string,
  headers: string[],
  rows: AsyncIterable<string[]> | Iterable<string[]>,
): Readable {
  const output = new PassThrough();
  (async () => {
    // exceljs loads on the first export, not at start.
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: output,
      useSharedStrings: false,
      useStyles: true,
    });
    const sheet = workbook.addWorksheet(exportableText(sheetName));
    sheet.columns = headers.map((header) => ({
      header: keepLiteralEscapes(exportableText(header)),
      width: Math.min(40, Math.max(12, header.length + 2)),
    }));
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    for await (const row of rows) sheet.addRow(row.map(cellText)).commit();
    sheet.commit();
    await workbook.commit();
  })().catch((err: unknown) => output.destroy(err as Error));
  return output;
}
