import SSF from 'ssf';
import { builtinDateFormat } from './locale-formats.ts';
import { XlsxError } from './xlsx-error.ts';
import { xmlAsUtf8, xmlDecoder } from './xml-encoding.ts';
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
  /** Cells that could not be read as Excel shows them (their text is ''): the row report says why. */
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
 * Streams the first sheet of an .xlsx workbook. A small reader of our own rather than a general
 * workbook library: it reads only what an import needs (cell text), in one pass, and so runs several
 * times faster than exceljs's streaming reader while keeping memory to the shared strings and one chunk.
 */
export async function openFirstSheet(file: string, options: ReadOptions): Promise<SheetReader> {
  const zip = await ZipArchive.open(file, options.maxInflatedBytes);
  try {
    if (!zip.has('xl/workbook.xml'))
      throw new XlsxError('The file is a zip archive but not an .xlsx workbook.');
    const workbook = await zip.text('xl/workbook.xml');
    const sheetPath = await firstSheetPath(zip, workbook);
    const date1904 = /<(?:\w+:)?workbookPr\b[^>]*\bdate1904="(?:1|true)"/.test(workbook);
    const formats = zip.has('xl/styles.xml')
      ? parseStyles(await zip.text('xl/styles.xml'), options.locale ?? 'en-IN')
      : [];
    const shared = zip.has('xl/sharedStrings.xml')
      ? await readSharedStrings(zip, options.maxSharedStringsBytes ?? DEFAULT_MAX_SHARED_STRINGS_BYTES)
      : undefined;
    const total = zip.compressedSize(sheetPath) || 1;
    const stream = await zip.stream(sheetPath);
    let consumed = 0;
    // The inflate stream does not say how much compressed input it used, so progress follows the
    // inflated bytes against the entry's declared size.
    const entrySize = zip.entries.get(sheetPath)?.uncompressedSize || total;
    stream.on('data', (chunk: Buffer) => (consumed += chunk.length));
    const cellText = (raw: RawCell) => formatCell(raw, shared, formats, date1904);
    return {
      rows: readRows(stream, sheetPath, cellText),
      progress: () => Math.min(1, consumed / entrySize),
      close: () => {
        stream.destroy();
        zip.close();
      },
    };
  } catch (err) {
    zip.close();
    throw err;
  }
}

async function firstSheetPath(zip: ZipArchive, workbook: string): Promise<string> {
  const sheet = /<(?:\w+:)?sheet\b[^>]*>/.exec(workbook)?.[0];
  if (!sheet) throw new XlsxError('The workbook has no sheet.');
  const relId = /\br:id="([^"]+)"/.exec(sheet)?.[1] ?? /\bid="([^"]+)"/.exec(sheet)?.[1];
  let target = 'worksheets/sheet1.xml';
  if (relId && zip.has('xl/_rels/workbook.xml.rels')) {
    const rels = await zip.text('xl/_rels/workbook.xml.rels');
    for (const rel of rels.match(/<(?:\w+:)?Relationship\b[^>]*>/g) ?? []) {
      if (attr(rel, 'Id') === relId) target = attr(rel, 'Target') ?? target;
    }
  }
  const sheetPath = target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
  if (!zip.has(sheetPath)) throw new XlsxError('The workbook has no sheet.');
  return sheetPath;
}

const attrPatterns = new Map<string, RegExp>();

function attr(tag: string, name: string): string | undefined {
  let pattern = attrPatterns.get(name);
  if (!pattern) {
    pattern = new RegExp(`\\b${name}="([^"]*)"`);
    attrPatterns.set(name, pattern);
  }
  return pattern.exec(tag)?.[1];
}

interface CellFormat {
  /** The number format code, or a built-in format's id. */
  code: string | number;
  /** Whether it shows numbers as dates or times (so a number Excel cannot show as one is a problem). */
  isDate: boolean;
}

/** For each cell style index, its number format. */
function parseStyles(styles: string, locale: string): CellFormat[] {
  const custom = new Map<number, string>();
  for (const m of styles.matchAll(/<(?:\w+:)?numFmt\b[^>]*>/g)) {
    const id = Number(attr(m[0], 'numFmtId'));
    const code = attr(m[0], 'formatCode');
    if (code !== undefined) custom.set(id, decodeXml(code));
  }
  const xfs = /<(?:\w+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:\w+:)?cellXfs>/.exec(styles)?.[1] ?? '';
  return (xfs.match(/<(?:\w+:)?xf\b[^>]*>/g) ?? []).map((xf) => {
    const id = Number(attr(xf, 'numFmtId') ?? 0);
    const code = custom.get(id) ?? builtinDateFormat(id, locale) ?? id;
    return { code, isDate: isDateFormat(code) };
  });
}

function isDateFormat(code: string | number): boolean {
  try {
    const text = typeof code === 'number' ? (SSF.get_table() as Record<number, string>)[code] : code;
    return text !== undefined && SSF.is_date(text);
  } catch {
    return false;
  }
}

/**
 * The shared-string table, kept as the raw XML bytes plus each item's offsets and decoded only when a
 * cell asks: a sheet of a million distinct strings costs its file size off the JS heap, not a million strings.
 */
class SharedStrings {
  constructor(
    private readonly xml: Buffer,
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
    readonly length: number,
  ) {}

  /** The item's text; a CellProblemError when it holds a character a workbook may not. */
  get(index: number): string {
    if (!(index >= 0 && index < this.length)) return '';
    const start = this.starts[index]!;
    const end = this.ends[index]!;
    return start < 0 ? '' : richText(this.xml.toString('utf8', start, end));
  }
}

const SI_OPEN = Buffer.from('<si');
const SI_CLOSE = Buffer.from('</si>');

async function readSharedStrings(zip: ZipArchive, maxBytes: number): Promise<SharedStrings> {
  const part = 'xl/sharedStrings.xml';
  const tooBig = () =>
    new XlsxError(
      `The workbook's shared strings unpack to more than ${Math.round(maxBytes / 1024 / 1024)} MB, the most an import may hold in memory; split it into smaller files.`,
    );
  const xml = xmlAsUtf8(await zip.bytes(part, maxBytes, tooBig), part);
  if (xml.length > maxBytes) throw tooBig(); // grown in the move from UTF-16 to UTF-8
  if (xml.indexOf(0) >= 0) throw notWellFormed(part, 'a NUL character');
  let starts: Int32Array = new Int32Array(1024);
  let ends: Int32Array = new Int32Array(1024);
  let count = 0;
  for (let at = xml.indexOf(SI_OPEN); at >= 0;) {
    const after = xml[at + 3];
    if (after !== 0x3e && after !== 0x2f && after !== 0x20) {
      at = xml.indexOf(SI_OPEN, at + 3); // '<sin…', not an item
      continue;
    }
    const tagEnd = xml.indexOf(0x3e, at);
    if (tagEnd < 0) break;
    if (count === starts.length) {
      starts = grow(starts);
      ends = grow(ends);
    }
    if (xml[tagEnd - 1] === 0x2f) {
      starts[count] = -1; // <si/>
      ends[count++] = -1;
      at = xml.indexOf(SI_OPEN, tagEnd);
      continue;
    }
    const close = xml.indexOf(SI_CLOSE, tagEnd);
    if (close < 0) break;
    starts[count] = tagEnd + 1;
    ends[count++] = close;
    at = xml.indexOf(SI_OPEN, close);
  }
  return new SharedStrings(xml, starts, ends, count);
}

function grow(array: Int32Array): Int32Array {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** The text of a string item: plain `<t>` or the runs of rich text, phonetic hints left out. */
function richText(item: string): string {
  if (item.startsWith('<t>') && item.endsWith('</t>') && item.indexOf('<', 3) === item.length - 4) {
    return decodeXml(item.slice(3, -4));
  }
  let text = '';
  const withoutPhonetic = item.includes('rPh')
    ? item.replace(/<(?:\w+:)?rPh\b[\s\S]*?<\/(?:\w+:)?rPh>/g, '')
    : item;
  for (const t of withoutPhonetic.matchAll(/<(?:\w+:)?t(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?t>/g)) text += t[1];
  return decodeXml(text);
}

interface RawCell {
  type: string | undefined;
  style: number;
  value: string | undefined;
  inline: string | undefined;
}

const rowPattern = /<(?:\w+:)?row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?row>)/g;
const rowStart = /<(?:\w+:)?row\b/g;
const rowMark = /row[\s>/]/;
const cellPattern = /<(?:\w+:)?c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?c>)/g;
const valuePattern = /<(?:\w+:)?v(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?v>/;
const inlinePattern = /<(?:\w+:)?is>([\s\S]*?)<\/(?:\w+:)?is>/;

async function* readRows(
  stream: AsyncIterable<Buffer>,
  part: string,
  cellText: (raw: RawCell) => string,
): AsyncGenerator<SheetRow> {
  let decoder: ReturnType<typeof xmlDecoder> | undefined;
  let buffer = '';
  let lastText = '';
  let lastRow = 0;
  const take = (text: string): SheetRow[] => {
    if (text.includes('\0')) throw notWellFormed(part, 'a NUL character');
    const seam = lastText.slice(-8) + text.slice(0, 8);
    lastText = text;
    buffer += text;
    // No row can have ended or begun without one of these in the new text: a long row is then not
    // searched again with every chunk of it (which would take time of the square of its length).
    if (!rowMark.test(seam) && !rowMark.test(text)) {
      if (buffer.length > MAX_ROW_CHARS) throw rowTooLong(lastRow);
      return [];
    }
    rowPattern.lastIndex = 0;
    let end = 0;
    let m: RegExpExecArray | null;
    const rows: SheetRow[] = [];
    while ((m = rowPattern.exec(buffer))) {
      end = rowPattern.lastIndex;
      const rowNumber = rowNumberOf(m[1] ?? '', lastRow);
      lastRow = rowNumber;
      rows.push(m[2] ? readCells(rowNumber, m[2], cellText) : { rowNumber, cells: [] });
    }
    // Keep from the next row's start on; what lies before it (the sheet's other elements) is not needed.
    rowStart.lastIndex = end;
    const next = rowStart.exec(buffer);
    buffer = next ? buffer.slice(next.index) : buffer.slice(Math.max(end, buffer.length - 64));
    if (buffer.length > MAX_ROW_CHARS) throw rowTooLong(lastRow);
    return rows;
  };
  try {
    for await (const chunk of stream) {
      decoder ??= xmlDecoder(chunk.subarray(0, 256), part);
      yield* take(decoder.write(chunk));
    }
    if (decoder) yield* take(decoder.end());
  } catch (err) {
    throw damaged(err);
  }
}

function rowTooLong(lastRow: number): XlsxError {
  return new XlsxError(
    `Row ${lastRow + 1} of the sheet holds more than ${MAX_ROW_CHARS / 1024 / 1024} MB of text, more than an import reads in one row; the file may be damaged.`,
  );
}

function rowNumberOf(attrs: string, lastRow: number): number {
  const r = attr(attrs, 'r');
  if (r === undefined) return lastRow + 1;
  const rowNumber = Number(r);
  if (!Number.isInteger(rowNumber) || rowNumber < 1 || rowNumber > MAX_ROWS) {
    throw new XlsxError(
      `The sheet has a row numbered ${shorten(r)}; Excel's rows run from 1 to ${MAX_ROWS.toLocaleString('en-US')}. The file was not written by a spreadsheet program, or it is damaged.`,
    );
  }
  return rowNumber;
}

function readCells(rowNumber: number, xml: string, cellText: (raw: RawCell) => string): SheetRow {
  const cells: string[] = [];
  let problems: CellProblem[] | undefined;
  cellPattern.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = cellPattern.exec(xml))) {
    const attrs = m[1] ?? '';
    const ref = attr(attrs, 'r');
    const column = ref ? columnIndex(ref) : cells.length;
    if (column >= MAX_COLUMNS) {
      throw new XlsxError(
        ref
          ? `Cell ${shorten(ref)} is past column XFD, the last of Excel's ${MAX_COLUMNS.toLocaleString('en-US')} columns. The file was not written by a spreadsheet program, or it is damaged.`
          : `Row ${rowNumber} has more than ${MAX_COLUMNS.toLocaleString('en-US')} cells, the most a row of Excel has.`,
      );
    }
    const inner = m[2] ?? '';
    const raw: RawCell = {
      type: attr(attrs, 't'),
      style: Number(attr(attrs, 's') ?? 0),
      value: valuePattern.exec(inner)?.[1],
      inline: inner.includes('is>') ? inlinePattern.exec(inner)?.[1] : undefined,
    };
    while (cells.length < column) cells.push('');
    try {
      cells[column] = cellText(raw);
    } catch (err) {
      if (!(err instanceof CellProblemError)) throw err;
      cells[column] = '';
      (problems ??= []).push({ column, message: err.message });
    }
  }
  return problems ? { rowNumber, cells, problems } : { rowNumber, cells };
}

/**
 * 'A1' -> 0, 'AB7' -> 27. A reference without column letters, or whose letters are not followed by a
 * row number, is refused: guessing a column for it would put the value under another header.
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
  if (i === 0 || !(digit >= 48 && digit <= 57)) {
    throw new XlsxError(
      `The sheet has a cell whose reference "${shorten(ref)}" is not one like A1 or XFD1048576; the file may be damaged.`,
    );
  }
  return index - 1;
}

/** Text from the file shown in a message: hostile files have megabyte-long attributes. */
function shorten(text: string): string {
  return text.length > 24 ? `${text.slice(0, 24)}…` : text;
}

/** A cell Excel would not show as the file has it: reported against that cell, never the whole file. */
class CellProblemError extends Error {}

function notWellFormed(part: string, what: string): XlsxError {
  return new XlsxError(
    `The workbook's ${part} holds ${what}, which XML does not allow: the file is damaged or was not written by a spreadsheet program.`,
  );
}

/** Excel's last date, 31 December 9999, as a serial in either date system. */
const LAST_DATE = { 1900: 2_958_465, 1904: 2_957_003 };

function formatCell(
  raw: RawCell,
  shared: SharedStrings | undefined,
  formats: CellFormat[],
  date1904: boolean,
): string {
  switch (raw.type) {
    case 's':
      return shared?.get(Number(raw.value)) ?? '';
    case 'inlineStr':
      return raw.inline === undefined ? '' : richText(raw.inline);
    case 'str':
    case 'e':
      return decodeXml(raw.value ?? '');
    case 'b':
      return raw.value === '1' ? 'TRUE' : 'FALSE';
    case 'd':
      return raw.value ?? '';
    default: {
      if (raw.value === undefined || raw.value === '') return '';
      const number = Number(raw.value);
      if (!Number.isFinite(number)) return decodeXml(raw.value);
      const format = formats[raw.style];
      if (format?.isDate && (number < 0 || number >= LAST_DATE[date1904 ? 1904 : 1900] + 1)) {
        // Excel shows ##### here; SSF would give '' and the row would read as if the cell were empty.
        throw new CellProblemError(
          `${shorten(raw.value)} is not a date Excel can show: its dates run from 1 January ${date1904 ? 1904 : 1900} to 31 December 9999.`,
        );
      }
      try {
        return SSF.format(format?.code ?? 0, number, { date1904 });
      } catch {
        return SSF.format(0, number);
      }
    }
  }
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Entity and character references, then Excel's _xHHHH_ escapes. A reference to a code point XML does
 * not allow (&#0;, &#xD800;, &#x110000;, &#xFFFE;) and an escape that leaves U+0000 or half a surrogate
 * pair are problems of the cell that holds them (a CellProblemError), not of the whole file.
 */
function decodeXml(text: string): string {
  if (!text.includes('&') && !text.includes('_x')) return text;
  const decoded = text
    .replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (reference, e: string) => {
      if (e[0] !== '#') return entities[e.toLowerCase()] ?? reference;
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
      if (!isXmlChar(code)) {
        throw new CellProblemError(
          `The cell holds the character reference ${shorten(reference)}, which is not a character a workbook may hold.`,
        );
      }
      return String.fromCodePoint(code);
    })
    .replace(/_x([0-9A-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  if (decoded.includes('\0')) {
    throw new CellProblemError('The cell holds the character U+0000 (NUL), which cannot be stored.');
  }
  if (loneSurrogate.test(decoded)) {
    throw new CellProblemError(
      'The cell holds half of a surrogate pair (a code from U+D800 to U+DFFF on its own), which is no character.',
    );
  }
  return decoded;
}

/** In Unicode mode a pair is one code point, so only a lone half matches. */
const loneSurrogate = /\p{Cs}/u;

/** XML 1.0's Char production. */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}
