import { PassThrough, type Readable } from 'node:stream';

/**
 * A cell a spreadsheet must never run: text starting with = + - @ (or a tab or carriage return that
 * Excel skips) is prefixed with an apostrophe so it shows as typed instead of as a formula.
 */
export function neutralizeFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * Streams a one-sheet .xlsx: a header row, then the rows as they come, every cell written as text
 * with formulas neutralised. Memory stays flat at any row count.
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
    const sheet = workbook.addWorksheet(sheetName);
    sheet.columns = headers.map((header) => ({
      header,
      width: Math.min(40, Math.max(12, header.length + 2)),
    }));
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    for await (const row of rows) sheet.addRow(row.map(neutralizeFormula)).commit();
    sheet.commit();
    await workbook.commit();
  })().catch((err: unknown) => output.destroy(err as Error));
  return output;
}
