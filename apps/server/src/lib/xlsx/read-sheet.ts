import { StringDecoder } from 'node:string_decoder';
import SSF from 'ssf';
import { XlsxError } from './xlsx-error.ts';
import { ZipArchive } from './zip.ts';

export interface SheetRow {
  /** The row's number as Excel shows it (1-based). */
  rowNumber: number;
  /** Cell text as a person sees it in Excel, by 0-based column; '' for empty cells. */
  cells: string[];
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
    const formats = zip.has('xl/styles.xml') ? parseStyles(await zip.text('xl/styles.xml')) : [];
    const shared = zip.has('xl/sharedStrings.xml') ? await readSharedStrings(zip) : undefined;
    const total = zip.compressedSize(sheetPath) || 1;
    const stream = await zip.stream(sheetPath);
    let consumed = 0;
    // The inflate stream does not say how much compressed input it used, so progress follows the
    // inflated bytes against the entry's declared size.
    const entrySize = zip.entries.get(sheetPath)?.uncompressedSize || total;
    stream.on('data', (chunk: Buffer) => (consumed += chunk.length));
    const cellText = (raw: RawCell) => formatCell(raw, shared, formats, date1904);
    return {
      rows: readRows(stream, cellText),
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

/** For each cell style index, its number format code (or built-in format id). */
function parseStyles(styles: string): (string | number)[] {
  const custom = new Map<number, string>();
  for (const m of styles.matchAll(/<(?:\w+:)?numFmt\b[^>]*>/g)) {
    const id = Number(attr(m[0], 'numFmtId'));
    const code = attr(m[0], 'formatCode');
    if (code !== undefined) custom.set(id, decodeXml(code));
  }
  const xfs = /<(?:\w+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:\w+:)?cellXfs>/.exec(styles)?.[1] ?? '';
  return (xfs.match(/<(?:\w+:)?xf\b[^>]*>/g) ?? []).map((xf) => {
    const id = Number(attr(xf, 'numFmtId') ?? 0);
    return custom.get(id) ?? id;
  });
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

  get(index: number): string {
    if (!(index >= 0 && index < this.length)) return '';
    const start = this.starts[index]!;
    const end = this.ends[index]!;
    return start < 0 ? '' : richText(this.xml.toString('utf8', start, end));
  }
}

const SI_OPEN = Buffer.from('<si');
const SI_CLOSE = Buffer.from('</si>');

async function readSharedStrings(zip: ZipArchive): Promise<SharedStrings> {
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.stream('xl/sharedStrings.xml')) chunks.push(chunk as Buffer);
  const xml = Buffer.concat(chunks);
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
const cellPattern = /<(?:\w+:)?c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?c>)/g;
const valuePattern = /<(?:\w+:)?v(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?v>/;
const inlinePattern = /<(?:\w+:)?is>([\s\S]*?)<\/(?:\w+:)?is>/;

async function* readRows(
  stream: AsyncIterable<Buffer>,
  cellText: (raw: RawCell) => string,
): AsyncGenerator<SheetRow> {
  const decoder = new StringDecoder('utf8');
  let buffer = '';
  let lastRow = 0;
  for await (const chunk of stream) {
    buffer += decoder.write(chunk);
    rowPattern.lastIndex = 0;
    let end = 0;
    let m: RegExpExecArray | null;
    const rows: SheetRow[] = [];
    while ((m = rowPattern.exec(buffer))) {
      end = rowPattern.lastIndex;
      const rowNumber = Number(attr(m[1] ?? '', 'r')) || lastRow + 1;
      lastRow = rowNumber;
      rows.push({ rowNumber, cells: m[2] ? readCells(m[2], cellText) : [] });
    }
    buffer = buffer.slice(end);
    yield* rows;
  }
}

function readCells(xml: string, cellText: (raw: RawCell) => string): string[] {
  const cells: string[] = [];
  cellPattern.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = cellPattern.exec(xml))) {
    const attrs = m[1] ?? '';
    const ref = attr(attrs, 'r');
    const column = ref ? columnIndex(ref) : cells.length;
    const inner = m[2] ?? '';
    const raw: RawCell = {
      type: attr(attrs, 't'),
      style: Number(attr(attrs, 's') ?? 0),
      value: valuePattern.exec(inner)?.[1],
      inline: inner.includes('is>') ? inlinePattern.exec(inner)?.[1] : undefined,
    };
    while (cells.length < column) cells.push('');
    cells[column] = cellText(raw);
  }
  return cells;
}

/** 'A1' -> 0, 'AB7' -> 27 */
function columnIndex(ref: string): number {
  let index = 0;
  for (let i = 0; i < ref.length; i++) {
    const code = ref.charCodeAt(i);
    if (code < 65 || code > 90) break;
    index = index * 26 + (code - 64);
  }
  return index - 1;
}

function formatCell(
  raw: RawCell,
  shared: SharedStrings | undefined,
  formats: (string | number)[],
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
      const format = formats[raw.style] ?? 0;
      try {
        return SSF.format(format, number, { date1904 });
      } catch {
        return SSF.format(0, number);
      }
    }
  }
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  if (!text.includes('&') && !text.includes('_x')) return text;
  return text
    .replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
      e[0] === '#'
        ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
        : (entities[e.toLowerCase()] ?? _),
    )
    .replace(/_x([0-9A-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
