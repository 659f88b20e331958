import { PassThrough, type Readable } from 'node:stream';
import { wallClockMs } from '../time.ts';
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

/** A date and time cell: Excel's serial day count, drawn with `format`, so the column sorts and filters. */
export interface DateTimeCell {
  serial: number;
  format: string;
}

/** A sheet cell: text, or a date and time. */
export type SheetCell = string | DateTimeCell;

const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

/**
 * An instant as a date cell showing its wall-clock time in `timeZone`: Excel keeps no zone, so the
 * serial is of the local time a person there reads (2024-05-20T08:35:00Z is 20-05-2024 14:05:00 in
 * Asia/Kolkata). Text that is no instant stays text.
 */
export function dateTimeCell(iso: string, timeZone: string, format: string): SheetCell {
  const instant = Date.parse(iso);
  if (!Number.isFinite(instant)) return iso;
  const wallClock = wallClockMs(instant, timeZone);
  return { serial: (wallClock - EXCEL_EPOCH) / 86_400_000, format };
}

/**
 * Streams a one-sheet .xlsx: a header row, then the rows as they come, every cell written as text
 * (cellText) but date and time cells: characters XML cannot hold shown as U+FFFD (exportableText), so Excel never calls the
 * file damaged, and formulas neutralised. Memory stays flat at any row count.
 */
export function xlsxStream(
  sheetName: string,
  headers: string[],
  rows: AsyncIterable<SheetCell[]> | Iterable<SheetCell[]>,
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
    for await (const cells of rows) {
      const row = sheet.addRow(
        cells.map((cell) => (typeof cell === 'string' ? cellText(cell) : cell.serial)),
      );
      cells.forEach((cell, i) => {
        if (typeof cell !== 'string') row.getCell(i + 1).numFmt = cell.format;
      });
      row.commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err: unknown) => output.destroy(err as Error));
  return output;
}
