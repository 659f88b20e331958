import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { XlsxError } from '../xlsx/xlsx-error.ts';
import { readEightBit } from './eight-bit.ts';

/** The encodings a CSV or TSV may come in (iconv-lite's names). */
export type TextEncoding = 'utf8' | 'utf16le' | 'utf16be' | 'win1252' | 'macintosh';

export interface TextInfo {
  encoding: TextEncoding;
  /** Bytes of byte-order mark at the start, skipped before parsing. */
  bom: number;
  size: number;
}

const CHUNK = 1024 * 1024;
const SAVE_AS = 'Save the sheet again as CSV UTF-8 (Excel: File > Save As > CSV UTF-8) and import that file.';

/**
 * Finds a text file's encoding, reading the whole file once before any row is imported, so that a
 * file that cannot be read right is refused with nothing written:
 * - a byte-order mark says UTF-8, UTF-16LE (Excel's 'Unicode Text') or UTF-16BE; UTF-16 without one
 *   is told by its NUL bytes (utf16WithoutMark);
 * - otherwise the file is UTF-8 when all of it decodes as strict UTF-8, and Windows-1252 (what Excel
 *   on Windows writes as plain 'CSV') or Mac Roman (Excel on a Mac) when none of its non-ASCII bytes
 *   do (eightBitEncoding). The whole file decides, not each line: an ASCII stretch reads the same in all;
 * - valid UTF-8 in one place and bytes that are not in another is a file pasted together from two
 *   encodings: guessing would misspell names somewhere, so it is refused, naming the lines.
 * A lone surrogate (in UTF-16, or written into 8-bit text as CESU-8 and WTF-8 do), a NUL byte in an
 * 8-bit file (a binary file) and an empty file are refused too.
 */
export async function detectEncoding(file: string): Promise<TextInfo> {
  const size = (await fs.promises.stat(file)).size;
  if (size === 0) throw new XlsxError('The file is empty.');
  const head = await readHead(file, 4);
  if (head[0] === 0xff && head[1] === 0xfe)
    return { encoding: 'utf16le', bom: 2, size: await checkUtf16(file, size, 'utf16le', 2) };
  if (head[0] === 0xfe && head[1] === 0xff)
    return { encoding: 'utf16be', bom: 2, size: await checkUtf16(file, size, 'utf16be', 2) };
  const unmarked = utf16WithoutMark(await readHead(file, UTF16_SAMPLE));
  if (unmarked) return { encoding: unmarked, bom: 0, size: await checkUtf16(file, size, unmarked, 0) };
  const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  if (bom === size) throw new XlsxError('The file is empty.');
  const encoding = await checkUtf8(file, bom);
  if (bom || encoding === 'utf8') return { encoding: 'utf8', bom, size };
  return { encoding: await eightBitEncoding(file), bom, size };
}

/**
 * Windows-1252 (Excel on Windows' plain 'CSV') or Mac Roman (Excel on a Mac's): the one the file reads
 * right in, Windows-1252 when it does in both. Read in the one it reads wrong in, a name would be
 * misspelled (José as JosŽ) or hold no character at all (U+FFFD, for the five bytes Windows-1252
 * leaves out): so a file that reads wrong in both is refused, naming the lines.
 */
async function eightBitEncoding(file: string): Promise<TextEncoding> {
  const wrong = await readEightBit(file, 0);
  if (wrong.win1252 === undefined) return 'win1252';
  if (wrong.macintosh === undefined) return 'macintosh';
  throw new XlsxError(
    `The file's text encoding cannot be told: read as Windows-1252 (Excel on Windows), line ${wrong.win1252.toLocaleString('en-US')} has letters no name holds, and read as Mac Roman (Excel on a Mac), line ${wrong.macintosh.toLocaleString('en-US')} has. ${SAVE_AS}`,
  );
}

/** Bytes looked at for UTF-16 without a byte-order mark. */
const UTF16_SAMPLE = 4096;
/** Code units with their NUL on one side that UTF-16 without a mark needs at least ('a,b' and a line end). */
const UTF16_MIN_UNITS = 4;

/**
 * UTF-16 text saved without a byte-order mark, told by its NUL bytes: text of Latin letters, digits and
 * punctuation has a NUL in every other byte (the high byte of each code unit), and those NULs all on one
 * side. At least half the code units of the file's start (and 4) must be so, none the other way round:
 * a binary file's NULs fall on both sides.
 */
export function utf16WithoutMark(head: Buffer): 'utf16le' | 'utf16be' | undefined {
  const units = Math.floor(head.length / 2);
  if (units === 0) return undefined;
  let [even, odd] = [0, 0];
  for (let at = 0; at + 1 < head.length; at += 2) {
    if (head[at] === 0 && head[at + 1] !== 0) even++;
    else if (head[at + 1] === 0 && head[at] !== 0) odd++;
    else if (head[at] === 0 && head[at + 1] === 0) return undefined; // U+0000: no text holds it
  }
  // A few bytes with a NUL or two are no evidence: a binary file's start can look so.
  if (odd >= UTF16_MIN_UNITS && odd * 2 >= units && even === 0) return 'utf16le';
  if (even >= UTF16_MIN_UNITS && even * 2 >= units && odd === 0) return 'utf16be';
  return undefined;
}

async function readHead(file: string, length: number): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buf, 0, length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Where the file first holds valid multi-byte UTF-8, and where it first holds bytes that are not UTF-8. */
interface Utf8Scan {
  firstUtf8Line?: number;
  firstInvalidLine?: number;
  /** Where the file holds a UTF-16 surrogate written as if it were a character (ED A0–BF 80–BF). */
  surrogateLine?: number;
}

async function checkUtf8(file: string, start: number): Promise<TextEncoding> {
  const scan: Utf8Scan = {};
  let line = 1;
  let carry = Buffer.alloc(0);
  for await (const chunk of fs.createReadStream(file, {
    start,
    highWaterMark: CHUNK,
  }) as AsyncIterable<Buffer>) {
    const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    if (buf.indexOf(0) !== -1) {
      throw new XlsxError(
        'The file is not a text file (it holds NUL bytes): it may be a workbook or another binary file with a .csv name. Import the .xlsx itself, or save the sheet as CSV.',
      );
    }
    const end = completeLength(buf);
    const body = buf.subarray(0, end);
    if (isUtf8(body)) {
      // Valid throughout: the first non-ASCII byte, if any, starts valid UTF-8.
      if (scan.firstUtf8Line === undefined) {
        const at = firstNonAscii(body);
        if (at !== -1) scan.firstUtf8Line = line + countLines(body, at);
      }
    } else {
      scanBytes(body, line, scan);
    }
    if (scan.surrogateLine !== undefined) break;
    if (scan.firstUtf8Line !== undefined && scan.firstInvalidLine !== undefined) break;
    line += countLines(body, body.length);
    carry = Buffer.from(buf.subarray(end));
  }
  if (carry.length && scan.firstInvalidLine === undefined) scan.firstInvalidLine = line;
  if (scan.surrogateLine !== undefined) {
    // Read as Windows-1252 these bytes would be 'í' and two symbols: a name silently misspelled.
    throw new XlsxError(
      `Line ${scan.surrogateLine.toLocaleString('en-US')} holds half of a character (a UTF-16 surrogate written as UTF-8, as faulty programs write one), which no text may contain. ${SAVE_AS}`,
    );
  }
  if (scan.firstInvalidLine === undefined) return 'utf8';
  if (scan.firstUtf8Line === undefined) return 'win1252';
  const [utf8, other] = [scan.firstUtf8Line, scan.firstInvalidLine];
  throw new XlsxError(
    `The file mixes two text encodings: line ${utf8.toLocaleString('en-US')} is UTF-8 but line ${other.toLocaleString('en-US')} is not, so some names would be misspelled whichever is chosen. ${SAVE_AS}`,
  );
}

/** The length of `buf` without a UTF-8 sequence cut off at its end (it is read with the next chunk). */
function completeLength(buf: Buffer): number {
  for (let back = 1; back <= 3 && back <= buf.length; back++) {
    const byte = buf[buf.length - back]!;
    if (byte < 0x80) return buf.length;
    if (byte >= 0xc0) {
      const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return need > back ? buf.length - back : buf.length;
    }
  }
  return buf.length;
}

function firstNonAscii(buf: Buffer): number {
  for (let i = 0; i < buf.length; i++) if (buf[i]! >= 0x80) return i;
  return -1;
}

function countLines(buf: Buffer, end: number): number {
  let lines = 0;
  for (let at = buf.indexOf(10); at !== -1 && at < end; at = buf.indexOf(10, at + 1)) lines++;
  return lines;
}

/** Walks a chunk that is not all UTF-8 byte by byte, noting the first line of each kind. */
function scanBytes(buf: Buffer, firstLine: number, scan: Utf8Scan): void {
  let line = firstLine;
  for (let i = 0; i < buf.length;) {
    const byte = buf[i]!;
    if (byte < 0x80) {
      if (byte === 10) line++;
      i++;
      continue;
    }
    const length = utf8SequenceLength(buf, i);
    if (length > 0) {
      scan.firstUtf8Line ??= line;
      i += length;
    } else {
      scan.firstInvalidLine ??= line;
      if (isEncodedSurrogate(buf, i)) scan.surrogateLine ??= line;
      i++;
    }
    if (scan.surrogateLine !== undefined) return;
    if (scan.firstUtf8Line !== undefined && scan.firstInvalidLine !== undefined) return;
  }
}

/**
 * Whether the bytes at `i` are a UTF-16 surrogate (U+D800–U+DFFF) encoded the way UTF-8 encodes
 * characters: ED A0–BF 80–BF. UTF-8 forbids them (CESU-8 and WTF-8 write them: a lone surrogate, or
 * half of a pair each), and no Windows-1252 text is likely to hold 'í' followed by these two symbols.
 */
function isEncodedSurrogate(buf: Buffer, i: number): boolean {
  const [second, third] = [buf[i + 1], buf[i + 2]];
  return (
    buf[i] === 0xed &&
    second !== undefined &&
    third !== undefined &&
    second >= 0xa0 &&
    second <= 0xbf &&
    third >= 0x80 &&
    third <= 0xbf
  );
}

/** The length of the valid UTF-8 sequence at `i` (2 to 4), or 0 when the bytes there are not one. */
function utf8SequenceLength(buf: Buffer, i: number): number {
  const byte = buf[i]!;
  const need =
    byte >= 0xc2 && byte <= 0xdf
      ? 2
      : byte >= 0xe0 && byte <= 0xef
        ? 3
        : byte >= 0xf0 && byte <= 0xf4
          ? 4
          : 0;
  if (need === 0 || i + need > buf.length) return 0;
  return isUtf8(buf.subarray(i, i + need)) ? need : 0;
}

/**
 * Checks a UTF-16 file code unit by code unit: a high surrogate not followed by a low one (or a low
 * one alone) is no character, and decoding would silently turn it into U+FFFD in someone's name.
 */
async function checkUtf16(
  file: string,
  size: number,
  encoding: 'utf16le' | 'utf16be',
  start: number,
): Promise<number> {
  if (size % 2 !== 0) {
    throw new XlsxError(
      `The file is UTF-16 text with an odd number of bytes: it was cut short or is damaged. ${SAVE_AS}`,
    );
  }
  const unit = (buf: Buffer, at: number) =>
    encoding === 'utf16le' ? buf.readUInt16LE(at) : buf.readUInt16BE(at);
  let line = 1;
  let pendingHigh = false;
  const lone = () =>
    new XlsxError(
      `Line ${line.toLocaleString('en-US')} holds half of a character (a lone UTF-16 surrogate), which no text may contain: the file is damaged or was written by a faulty program. ${SAVE_AS}`,
    );
  let carry = Buffer.alloc(0);
  for await (const read of fs.createReadStream(file, {
    start,
    highWaterMark: CHUNK,
  }) as AsyncIterable<Buffer>) {
    const chunk = carry.length ? Buffer.concat([carry, read]) : read;
    const end = chunk.length - (chunk.length % 2); // a code unit split between two reads waits for the next
    carry = Buffer.from(chunk.subarray(end));
    for (let at = 0; at < end; at += 2) {
      const code = unit(chunk, at);
      if (pendingHigh) {
        if (code < 0xdc00 || code > 0xdfff) throw lone();
        pendingHigh = false;
      } else if (code >= 0xd800 && code <= 0xdbff) {
        pendingHigh = true;
      } else if (code >= 0xdc00 && code <= 0xdfff) {
        throw lone();
      } else if (code === 10) {
        line++;
      } else if (code === 0) {
        throw new XlsxError(
          'The file is not a text file (it holds NUL characters). Import the .xlsx itself, or save the sheet as CSV.',
        );
      }
    }
  }
  if (pendingHigh) throw lone();
  return size;
}

/**
 * The quick check an upload gets before it is kept: the first bytes of a file named .csv or .tsv look
 * like text. The whole file is checked when it is imported (detectEncoding).
 */
export async function refuseNonText(file: string): Promise<void> {
  const head = await readHead(file, 8192);
  if (head.length === 0 || (head.length === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf))
    throw new XlsxError('The file is empty.');
  if (head.length >= 4 && head.readUInt32BE(0) === 0xd0cf11e0) {
    throw new XlsxError(
      'The file is an Excel 97-2003 (.xls) workbook, whatever its name says. Save the file as .xlsx or .csv and import it again.',
    );
  }
  const utf16 =
    (head[0] === 0xff && head[1] === 0xfe) ||
    (head[0] === 0xfe && head[1] === 0xff) ||
    utf16WithoutMark(head.subarray(0, UTF16_SAMPLE)) !== undefined;
  if (!utf16 && head.includes(0)) {
    throw new XlsxError(
      'The file is not a text file (it holds NUL bytes): it may be a workbook or another binary file with a .csv name. Import the .xlsx itself, or save the sheet as CSV.',
    );
  }
}
