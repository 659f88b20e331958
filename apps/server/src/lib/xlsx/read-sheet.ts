import type { Readable } from 'node:stream';
import {
  badReferenceProblem,
  CellProblemError,
  formatCell,
  TextRun,
  type CellContext,
  type RawCell,
} from './cell-text.ts';
import { findWorkbookParts } from './parts.ts';
import { readSharedStrings } from './shared-strings.ts';
import { parseStyles } from './styles.ts';
import { XlsxError } from './xlsx-error.ts';
import { xmlDecoder } from './xml-encoding.ts';
import { nulInPart, shorten, XmlTokenizer } from './xml.ts';
import { damaged, ZipArchive } from './zip.ts';

/** Excel's own bounds: column XFD and row 1,048,576. A reference past them is no sheet Excel wrote. */
export const MAX_COLUMNS = 16_384;
export const MAX_ROWS = 1_048_576;
/** The most text one `<row>` may hold; past it the sheet is refused rather than buffered on. */
const MAX_ROW_CHARS = 16 * 1024 * 1024;
/** The shared strings' budget when none is given (IMPORT_MAX_SHARED_STRINGS_MB sets it in the server). */
export const DEFAULT_MAX_SHARED_STRINGS_BYTES = 256 * 1024 * 1024;

export interface SheetRow {
  /** The row's number as Excel shows it (1-based). */
  rowNumber: number;
  /** Cell text as a person sees it in Excel, by 0-based column; '' for empty cells. */
  cells: string[];
  /**
   * Cells that could not be read as Excel shows them: the row report says why. Their text is '',
   * or what Excel shows where it shows something (an error value's #N/A).
   */
  problems?: CellProblem[];
}

export interface CellProblem {
  /** 0-based column. */
  column: number;
  message: string;
}

export interface SheetReader {
  rows: AsyncGenerator<SheetRow>;
  /** 0..1: how much of the sheet has been read. */
  progress(): number;
  close(): void;
  /** The worksheet read: the first visible one in tab order (absent for a file that has no sheets). */
  sheetName?: string;
  /** How many sheets the workbook has, of every kind, hidden ones too. */
  sheetCount?: number;
}

export interface ReadOptions {
  /** The most the whole workbook may inflate to; past it the read fails (zip bombs). */
  maxInflatedBytes: number;
  /**
   * The most the shared-string table may take (it is held whole while the sheet is read): a small
   * upload whose strings unpack to hundreds of MB is refused instead of filling memory.
   */
  maxSharedStringsBytes?: number;
  /**
   * The locale Excel's locale-dependent built-in date formats (14, 22 and the like) follow, as Excel
   * follows the reader's: under en-IN format 14 reads 12-05-2024, never 5/12/24. Default en-IN.
   */
  locale?: string;
}

/**
 * Streams the first visible worksheet of an .xlsx workbook. A small reader of our own on a real XML
 * tokenizer rather than a general workbook library: it reads only what an import needs (cell text),
 * in one pass, keeping memory to the shared strings and one chunk.
 */
export async function openFirstSheet(file: string, options: ReadOptions): Promise<SheetReader> {
  const zip = await ZipArchive.open(file, options.maxInflatedBytes);
  try {
    const parts = await findWorkbookParts(zip);
    const locale = options.locale ?? 'en-IN';
    const formats = parts.styles ? parseStyles(await zip.text(parts.styles), parts.styles, locale) : [];
    const shared = parts.sharedStrings
      ? await readSharedStrings(
          zip,
          parts.sharedStrings,
          options.maxSharedStringsBytes ?? DEFAULT_MAX_SHARED_STRINGS_BYTES,
        )
      : undefined;
    const sheetPath = parts.sheet.part;
    const stream = await zip.stream(sheetPath);
    let consumed = 0;
    // The inflate stream does not say how much compressed input it used, so progress follows the
    // inflated bytes against the entry's declared size.
    const entrySize = zip.entries.get(sheetPath)?.uncompressedSize || zip.compressedSize(sheetPath) || 1;
    stream.on('data', (chunk: Buffer) => (consumed += chunk.length));
    const context: CellContext = {
      shared,
      formats,
      date1904: parts.date1904,
      calculateOnLoad: parts.calculateOnLoad,
      locale,
    };
    return {
      rows: readRows(stream, sheetPath, context),
      progress: () => Math.min(1, consumed / entrySize),
      close: () => {
        stream.destroy();
        zip.close();
      },
      sheetName: parts.sheet.name,
      sheetCount: parts.sheetCount,
    };
  } catch (err) {
    zip.close();
    throw err;
  }
}

async function* readRows(stream: Readable, part: string, context: CellContext): AsyncGenerator<SheetRow> {
  const sheet = new SheetParser(part, context);
  let decoder: ReturnType<typeof xmlDecoder> | undefined;
  try {
    for await (const chunk of stream) {
      decoder ??= xmlDecoder((chunk as Buffer).subarray(0, 256), part);
      yield* sheet.write(decoder.write(chunk as Buffer));
    }
    if (decoder) yield* sheet.write(decoder.end());
    yield* sheet.end();
  } catch (err) {
    throw damaged(err);
  }
}

/** The sheet's rows from its XML, chunk by chunk: what each chunk completed. */
class SheetParser {
  private readonly tokenizer: XmlTokenizer;
  private rows: SheetRow[] = [];
  /** Characters written so far, when the open row began, and at the last markup. */
  private written = 0;
  private chunkStart = 0;
  private rowSince = -1;
  private markupSince = 0;

  private inSheetData = false;
  private lastRow = 0;
  private rowNumber = 0;
  private cells: string[] = [];
  private problems: CellProblem[] | undefined;

  private inCell = false;
  private inValue = false;
  private inInline = false;
  private hasInline = false;
  private phonetic = 0;
  private readonly cell: RawCell = {
    type: undefined,
    style: 0,
    value: undefined,
    inline: undefined,
    hasFormula: false,
  };
  private ref: string | undefined;
  private badReference: string | undefined;
  private readonly run = new TextRun();

  constructor(
    private readonly part: string,
    private readonly context: CellContext,
  ) {
    this.tokenizer = new XmlTokenizer(
      part,
      {
        open: (name, attributes) => this.open(name, attributes),
        close: (name) => this.close(name),
        text: (text, badReference) => this.text(text, badReference),
      },
      { badReferences: 'report', position: false },
    );
  }

  write(text: string): SheetRow[] {
    if (text.includes('\0')) throw nulInPart(this.part);
    this.chunkStart = this.written;
    this.written += text.length;
    this.tokenizer.write(text);
    // No row is buffered on past its budget, nor any text between two tags (the tokenizer holds it whole).
    if (this.rowSince >= 0 && this.written - this.rowSince > MAX_ROW_CHARS) throw rowTooLong(this.lastRow);
    if (this.written - this.markupSince > MAX_ROW_CHARS) {
      throw new XlsxError(
        `The workbook's ${this.part} holds more than ${MAX_ROW_CHARS / 1024 / 1024} MB of text without markup, more than an import reads at once; the file may be damaged.`,
      );
    }
    return this.take();
  }

  end(): SheetRow[] {
    this.tokenizer.end();
    return this.take();
  }

  private take(): SheetRow[] {
    const rows = this.rows;
    this.rows = [];
    return rows;
  }

  private open(name: string, attributes: Record<string, string>): void {
    this.markupSince = this.chunkStart;
    if (!this.inSheetData) {
      if (name === 'sheetData') this.inSheetData = true;
      return;
    }
    switch (name) {
      case 'c':
        this.inCell = true;
        this.ref = attributes.r;
        this.cell.type = attributes.t;
        this.cell.style = attributes.s === undefined ? 0 : Number(attributes.s);
        this.cell.value = undefined;
        this.cell.inline = undefined;
        this.cell.hasFormula = false;
        this.hasInline = false;
        this.badReference = undefined;
        break;
      case 'v':
        if (this.inCell) {
          this.inValue = true;
          this.cell.value = '';
        }
        break;
      case 'f':
        if (this.inCell) this.cell.hasFormula = true;
        break;
      case 'row':
        this.rowNumber = rowNumberOf(attributes.r, this.lastRow);
        this.cells = [];
        this.problems = undefined;
        this.rowSince = this.chunkStart;
        break;
      case 'is':
        if (this.inCell) {
          this.inInline = true;
          this.hasInline = true;
          this.run.startItem(attributes);
        }
        break;
      case 't':
        if (this.inInline && this.phonetic === 0) this.run.startText(attributes);
        break;
      case 'rPh':
        this.phonetic += 1;
        break;
    }
  }

  private close(name: string): void {
    this.markupSince = this.chunkStart;
    if (!this.inSheetData) return;
    switch (name) {
      case 'v':
        this.inValue = false;
        break;
      case 'c':
        if (this.inCell) this.endCell();
        break;
      case 't':
        this.run.endText();
        break;
      case 'is':
        this.inInline = false;
        break;
      case 'rPh':
        this.phonetic -= 1;
        break;
      case 'row':
        this.rows.push(
          this.problems
            ? { rowNumber: this.rowNumber, cells: this.cells, problems: this.problems }
            : { rowNumber: this.rowNumber, cells: this.cells },
        );
        this.lastRow = this.rowNumber;
        this.rowSince = -1;
        break;
      case 'sheetData':
        this.inSheetData = false;
        break;
    }
  }

  private text(text: string, badReference: string | undefined): void {
    if (this.inValue) this.cell.value += text;
    else if (this.run.inText) this.run.add(text);
    else return;
    if (badReference) this.badReference ??= badReference;
  }

  private endCell(): void {
    this.inCell = false;
    const { cells, ref } = this;
    const column = ref ? columnIndex(ref) : cells.length;
    if (column >= MAX_COLUMNS) {
      throw new XlsxError(
        ref
          ? `Cell ${shorten(ref)} is past column XFD, the last of Excel's ${MAX_COLUMNS.toLocaleString('en-US')} columns. The file was not written by a spreadsheet program, or it is damaged.`
          : `Row ${this.rowNumber} has more than ${MAX_COLUMNS.toLocaleString('en-US')} cells, the most a row of Excel has.`,
      );
    }
    while (cells.length < column) cells.push('');
    try {
      if (this.hasInline) this.cell.inline = this.run.endItem(this.badReference);
      else if (this.badReference) throw badReferenceProblem(this.badReference);
      cells[column] = formatCell(this.cell, this.context);
    } catch (err) {
      if (!(err instanceof CellProblemError)) throw err;
      cells[column] = err.shows;
      (this.problems ??= []).push({ column, message: err.message });
    }
  }
}

function rowTooLong(lastRow: number): XlsxError {
  return new XlsxError(
    `Row ${lastRow + 1} of the sheet holds more than ${MAX_ROW_CHARS / 1024 / 1024} MB of text, more than an import reads in one row; the file may be damaged.`,
  );
}

function rowNumberOf(r: string | undefined, lastRow: number): number {
  if (r === undefined) return lastRow + 1;
  const rowNumber = Number(r);
  if (!Number.isInteger(rowNumber) || rowNumber < 1 || rowNumber > MAX_ROWS) {
    throw new XlsxError(
      `The sheet has a row numbered ${shorten(r)}; Excel's rows run from 1 to ${MAX_ROWS.toLocaleString('en-US')}. The file was not written by a spreadsheet program, or it is damaged.`,
    );
  }
  return rowNumber;
}

/**
 * 'A1' -> 0, 'AB7' -> 27. A reference without column letters, or whose letters are not followed by a
 * row number, is refused: guessing a column for it would put the value under another header. So is a
 * row Excel does not have (A0, A1048577).
 */
function columnIndex(ref: string): number {
  let index = 0;
  let i = 0;
  for (; i < ref.length && i <= 3; i++) {
    const code = ref.charCodeAt(i);
    if (code < 65 || code > 90) break;
    index = index * 26 + (code - 64);
  }
  const digit = ref.charCodeAt(i);
  if (i > 3 && digit >= 65 && digit <= 90) return MAX_COLUMNS; // four or more letters: past XFD
  const rowDigits = ref.slice(i);
  if (i === 0 || !/^[0-9]+$/.test(rowDigits)) {
    throw new XlsxError(
      `The sheet has a cell whose reference "${shorten(ref)}" is not one like A1 or XFD1048576; the file may be damaged.`,
    );
  }
  const row = Number(rowDigits);
  if (row < 1 || row > MAX_ROWS) {
    throw new XlsxError(
      `The sheet has a cell ${shorten(ref)}; Excel's rows run from 1 to ${MAX_ROWS.toLocaleString('en-US')}. The file was not written by a spreadsheet program, or it is damaged.`,
    );
  }
  return index - 1;
}
