import fs from 'node:fs';
import iconv from 'iconv-lite';

/** The 8-bit encodings a spreadsheet program saves CSV in: Excel on Windows, and Excel on a Mac. */
export type EightBitEncoding = 'win1252' | 'macintosh';

const CHUNK = 1024 * 1024;

/** What each byte 0x80–0xFF reads as in an encoding ('' where it has no character). */
function table(encoding: EightBitEncoding): string[] {
  return Array.from({ length: 256 }, (_, byte) => {
    const text = iconv.decode(Buffer.from([byte]), encoding);
    return text === '\ufffd' ? '' : text;
  });
}
const tables: Record<EightBitEncoding, string[]> = {
  win1252: table('win1252'),
  macintosh: table('macintosh'),
};

const isLetter = (ch: string) => /\p{L}/u.test(ch);
const isLower = (ch: string) => isLetter(ch) && ch !== ch.toUpperCase();
/** Apostrophes: between two letters they are a name's (O’Brien, D’Souza), not a misreading. */
const APOSTROPHES = new Set(['’', '‘']);
/** Opening quotes: right after a letter they are a misreading (Mac Roman's ë read as Windows-1252 is ‘). */
const OPENING = new Set(['‘', '“']);

/**
 * Whether the character a byte reads as, between the characters its neighbours read as, is one that
 * no sheet holds: no character at all; a capital inside a lower-case word (JosŽ, MŸller); a symbol
 * between two letters (Pe–a, G—mez, M¸ller); an opening quote right after a letter.
 */
function misread(ch: string, before: string, after: string): boolean {
  if (ch === '') return true;
  if (isLetter(ch)) return ch !== ch.toLowerCase() && isLetter(before) && (isLower(before) || isLower(after));
  if (OPENING.has(ch) && isLetter(before)) return true;
  return isLetter(before) && isLetter(after) && !APOSTROPHES.has(ch);
}

/** The first line (1-based) where the file reads wrong in each encoding, or undefined where it never does. */
export interface EightBitReading {
  win1252?: number;
  macintosh?: number;
}

/**
 * Reads an 8-bit file (not UTF-8) both ways, noting the first line each reading gets wrong (misread).
 * Windows-1252 leaves five bytes without a character (0x81, 0x8D, 0x8F, 0x90, 0x9D) which Mac Roman
 * reads as letters (Å ç è ê ù), and Mac Roman's é, ü, ñ, á, ó are 1252's Ž, Ÿ, –, ‡, —.
 */
export async function readEightBit(file: string, start: number): Promise<EightBitReading> {
  const found: EightBitReading = {};
  let line = 1;
  // The last two bytes of the chunk before: the byte to judge waits for the one after it.
  let carry = Buffer.alloc(0);
  const judge = (buf: Buffer, i: number) => {
    for (const encoding of ['win1252', 'macintosh'] as const) {
      if (found[encoding] !== undefined) continue;
      const read = tables[encoding];
      const before = i > 0 ? read[buf[i - 1]!]! : '';
      const after = i + 1 < buf.length ? read[buf[i + 1]!]! : '';
      if (misread(read[buf[i]!]!, before, after)) found[encoding] = line;
    }
  };
  for await (const chunk of fs.createReadStream(file, {
    start,
    highWaterMark: CHUNK,
  }) as AsyncIterable<Buffer>) {
    const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    // Bytes from carry.length - 1 on are judged now (the one before them was judged with the last chunk).
    const from = Math.max(0, carry.length - 1);
    for (let i = from; i < buf.length - 1; i++) {
      const byte = buf[i]!;
      if (byte === 10) line++;
      else if (byte >= 0x80) judge(buf, i);
    }
    if (found.win1252 !== undefined && found.macintosh !== undefined) return found;
    carry = Buffer.from(buf.subarray(Math.max(0, buf.length - 2)));
  }
  const last = carry.length - 1;
  if (last >= 0 && carry[last]! >= 0x80) judge(carry, last);
  return found;
}
