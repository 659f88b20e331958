import fs from 'node:fs';
import { pipeline, Transform, type TransformCallback } from 'node:stream';
import { CsvError, parse, type Info } from 'csv-parse';
import iconv from 'iconv-lite';
import { MAX_COLUMNS, MAX_ROWS, type SheetReader, type SheetRow } from '../xlsx/read-sheet.ts';
import { XlsxError } from '../xlsx/xlsx-error.ts';
import { sniffDelimiter, type Delimiter } from './sniff-delimiter.ts';
import { detectEncoding, type TextEncoding } from './text-encoding.ts';

export interface CsvReadOptions {
  /**
   * The most data rows an import takes (IMPORT_MAX_ROWS): reading stops soon after the first row past
   * it (see ROWS_ABOVE_DATA), so a million-line file is refused without being read to its end.
   */
  maxRows?: number;
}

/**
 * Rows with text the reader lets through beyond maxRows before it stops. The header row may be the
 * 20th row with text, and the import (or the preview) must see the row after maxRows data rows below
 * it to say the sheet is too long in its own words: so maxRows + 21 rows with text. The reader's own
 * stop is only for the rest of a long file, which it need not read.
 */
const ROWS_ABOVE_DATA = 21;

/**
 * Bytes read at a time. The parser turns a whole chunk into records before the loop below takes one,
 * each with its info object: a 256 KB chunk of one-character lines was 128,000 records at once, and
 * a million such lines (2 MB) ran the reader out of memory before the first row came out. 16 KB is at
 * most 8,000 records waiting.
 */
const CHUNK = 16 * 1024;
/** Bytes of the file the delimiter is told from. */
const SNIFF_BYTES = 64 * 1024;
/** The most text one row may hold, as for a sheet's row: past it the file is refused, not buffered on. */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/**
 * Streams the rows of a CSV or TSV file in the shape the .xlsx reader gives (SheetRow), so the rest
 * of an import does not know which it read. Cells are the text as written: a CSV has no formats, so
 * nothing is read as a number or a date (`00123` stays `00123`). Line ends inside quoted cells become
 * LF. A row's number is the one a person sees opening the file in Excel: quoted line breaks stay
 * within their row.
 */
export async function openCsv(file: string, options: CsvReadOptions = {}): Promise<SheetReader> {
  const text = await detectEncoding(file);
  const delimiter = await sniff(file, text.encoding, text.bom, text.size);
  let consumed = text.bom;
  return {
    rows: readRows(file, text.encoding, text.bom, delimiter, options.maxRows, (bytes) => (consumed += bytes)),
    progress: () => consumed / text.size,
    close: () => undefined,
  };
}

async function sniff(file: string, encoding: TextEncoding, bom: number, size: number): Promise<Delimiter> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(Math.min(SNIFF_BYTES, size - bom));
    const { bytesRead } = await handle.read(buf, 0, buf.length, bom);
    const head = iconv.decode(buf.subarray(0, bytesRead), encoding, { stripBOM: false });
    // The stored copy keeps the upload's ending: a .tsv with one column is still tab-separated.
    return sniffDelimiter(head, bom + bytesRead >= size, /\.tsv$/i.test(file) ? '\t' : ',');
  } finally {
    await handle.close();
  }
}

async function* readRows(
  file: string,
  encoding: TextEncoding,
  bom: number,
  delimiter: Delimiter,
  maxRows: number | undefined,
  read: (bytes: number) => void,
): AsyncGenerator<SheetRow> {
  const source = fs.createReadStream(file, { start: bom, highWaterMark: CHUNK });
  source.on('data', (chunk) => read(chunk.length));
  const parser = parse({
    delimiter,
    relax_quotes: true,
    relax_column_count: true,
    max_record_size: MAX_RECORD_BYTES,
    // Each record with the line it ended on: an unterminated quote is reported where its row began.
    info: true,
  });
  // Anything but UTF-8 is decoded first: the parser reads UTF-8. A failure anywhere ends the parser
  // with it, and so the loop below.
  const done = () => undefined;
  const columns = new ColumnGuard(delimiter, encoding === 'utf8');
  if (encoding === 'utf8') pipeline(source, columns, parser, done);
  else pipeline(source, iconv.decodeStream(encoding, { stripBOM: false }), columns, parser, done);
  let rowNumber = 0;
  let rowsWithText = 0;
  let lastLine = 0;
  try {
    for await (const { record: cells, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
      rowNumber += 1;
      lastLine = info.lines;
      if (cells.length > MAX_COLUMNS) throw tooWide(rowNumber);
      if (rowNumber > MAX_ROWS) {
        throw new XlsxError(
          `The file has more than ${MAX_ROWS.toLocaleString('en-US')} rows, the most a sheet of Excel holds: it is not a sheet saved as CSV. Check it, or split it into smaller files.`,
        );
      }
      for (let i = 0; i < cells.length; i++) {
        if (cells[i]!.includes('\r')) cells[i] = cells[i]!.replace(/\r\n?/g, '\n');
      }
      const withText = cells.some((cell) => cell.trim() !== '');
      if (maxRows !== undefined && withText && ++rowsWithText > maxRows + ROWS_ABOVE_DATA) {
        throw new XlsxError(
          `The sheet has more than ${maxRows.toLocaleString('en-US')} rows, the most one import takes; split it into smaller files.`,
        );
      }
      yield { rowNumber, cells };
    }
  } catch (err) {
    if (err instanceof TooWide) throw tooWide(rowNumber + 1);
    throw describe(err, rowNumber + 1, lastLine + 1);
  } finally {
    source.destroy();
    parser.destroy();
  }
}

/** The parser's complaint in the words of someone who opened the file in Excel. */
function describe(error: unknown, row: number, line: number): unknown {
  if (!(error instanceof CsvError)) return error;
  const at = `Row ${row.toLocaleString('en-US')} (line ${line.toLocaleString('en-US')} of the file)`;
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new XlsxError(
        `${at} opens a quoted cell that is never closed, so the rest of the file would be read as one cell. Add the missing closing quote (") and import again.`,
      );
    case 'CSV_MAX_RECORD_SIZE':
      return new XlsxError(
        `${at} holds more than ${MAX_RECORD_BYTES / 1024 / 1024} MB of text: the file is not a sheet saved as CSV, or a quote is never closed.`,
      );
    default:
      return new XlsxError(`${at} could not be read as CSV: ${error.message}`);
  }
}

const tooWide = (row: number) =>
  new XlsxError(
    `Row ${row.toLocaleString('en-US')} has more than ${MAX_COLUMNS.toLocaleString('en-US')} columns, the most a sheet of Excel has: the file is not a sheet saved as CSV. Check it in Excel and save it again, keeping only the columns the import needs.`,
  );

class TooWide extends Error {}

/**
 * Delimiters a line may hold, outside quotes, before the reader stops: far above MAX_COLUMNS, so that
 * this rough count (a quote inside a cell is taken to open a quoted cell) never refuses a real sheet;
 * the exact count of each record is checked after parsing.
 */
const MAX_DELIMITERS = 4 * MAX_COLUMNS;

/**
 * Passes the text on unchanged, counting delimiters outside quotes since the last line end, and fails
 * with TooWide past MAX_DELIMITERS: so a line of millions of empty cells is refused before the parser
 * builds a cell for each (a 1 MB header of 500,000 cells took seconds and 29 MB of preview).
 */
class ColumnGuard extends Transform {
  private readonly delimiter: number;
  private quoted = false;
  private count = 0;

  constructor(
    delimiter: Delimiter,
    private readonly bytes: boolean,
  ) {
    super({ decodeStrings: false });
    this.delimiter = delimiter.charCodeAt(0);
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback): void {
    const at = (i: number) => (this.bytes ? (chunk as Buffer)[i]! : (chunk as string).charCodeAt(i));
    for (let i = 0; i < chunk.length; i++) {
      const code = at(i);
      if (code === 0x22) this.quoted = !this.quoted;
      else if (this.quoted) continue;
      else if (code === 0x0a || code === 0x0d) this.count = 0;
      else if (code === this.delimiter && ++this.count > MAX_DELIMITERS) return callback(new TooWide());
    }
    callback(null, chunk);
  }
}
