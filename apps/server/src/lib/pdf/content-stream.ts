/**
 * A page's content stream read for what depends on the document it was printed in: the names it
 * gives its resources (Chromium names them after object numbers, `/F12`, so the same record gets other
 * names in another batch) and the glyph ids it shows with each font.
 *
 * Chromium positions every glyph with an operator of its own (`<0044> Tj 19.17 0 Td …`), so a page
 * is thousands of operators: the reader keeps its operands as offsets and allocates nothing per token.
 */

/** Resource categories, each with the prefix of the names given to what a stream uses of it. */
export const renamedPrefix: Record<string, string> = {
  Font: 'F',
  XObject: 'X',
  ExtGState: 'G',
  Shading: 'Sh',
  ColorSpace: 'Cs',
  Pattern: 'P',
  Properties: 'Pr',
};

/**
 * The glyph ids shown with one font, one bit each (ids are two bytes under Identity-H). Sets of
 * numbers were a third of the time a page took to read.
 */
export type GlyphBits = Uint8Array;
export const glyphBits = (): GlyphBits => new Uint8Array(8192);

/**
 * A font as a content stream sets it: one of ours (the glyphs shown with it are marked), another
 * (null: its strings are not read), or none the page names (undefined: text in it stops the reading).
 */
export type ContentFont = GlyphBits | null | undefined;

/** What a content stream asks of the document. */
export interface ContentVisitor {
  /** A resource the stream names: its new name, or undefined to keep the name. */
  rename(category: string, name: string): string | undefined;
  /** The font a `Tf` sets, by its resource name. */
  font(name: string): ContentFont;
  /** A form XObject or pattern drawn while `font` is the font in force. */
  use(category: string, name: string, font: ContentFont): void;
}

/** Thrown for a stream this reader does not follow (inline images, broken syntax): the record is left as printed. */
export class UnreadableContent extends Error {}

const NAME = 1;
const STRING = 2;
const OTHER = 3;

/** An operator's bytes as a number (operators of up to three bytes are the ones read here). */
const code = (op: string) => op.split('').reduce((sum, c, i) => sum + c.charCodeAt(0) * 256 ** i, 0);
const [Td, Tj, TJ, Tf, quote, doubleQuote, q, Q, BI, ID, Do, gs, sh, cs, CS, scn, SCN, BDC, DP] = [
  'Td', 'Tj', 'TJ', 'Tf', "'", '"', 'q', 'Q', 'BI', 'ID', 'Do', 'gs', 'sh', 'cs', 'CS', 'scn', 'SCN', 'BDC', 'DP',
].map(code); // prettier-ignore

const white = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) white[c] = 1;
/** Bytes that end a name, a number or an operator: white space and delimiters. */
const ends = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) ends[c] = 1;
for (const c of '()<>[]{}/%') ends[c.charCodeAt(0)] = 1;

/**
 * The stream with every resource name renamed as `visitor.rename` says (null when nothing was
 * renamed), and the font in force at its end; the visitor hears every string shown and every form
 * drawn. `font` is the font in force when the stream starts.
 *
 * Only what an operator needs is kept of its operands: the last two (a name is at most the second
 * last: `/F1 12 Tf`, `/Tag /Props BDC`), and where the last array began (`TJ`).
 */
export function rewriteContent(
  buffer: Uint8Array,
  visitor: ContentVisitor,
  font: ContentFont,
): { content: Buffer | null; font: ContentFont } {
  // A plain view: indexing a Buffer is slower than indexing a Uint8Array.
  const data = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const pieces: (Uint8Array | string)[] = [];
  let copied = 0;
  // The last two operands: kind, start, end.
  let kind1 = 0;
  let start1 = 0;
  let end1 = 0;
  let kind2 = 0;
  let start2 = 0;
  let end2 = 0;
  let arrayStart = -1;
  let depth = 0; // inside [ ] or << >>: operands still being collected
  const fonts: ContentFont[] = [];
  const n = data.length;
  let i = 0;
  while (i < n) {
    const c = data[i]!;
    if (white[c]) {
      i++;
      continue;
    }
    const start = i;
    let kind: number;
    if ((c >= 48 && c <= 57) || c === 45 || c === 46 || c === 43) {
      // A number, by far the commonest token.
      i++;
      while (i < n && !ends[data[i]!]) i++;
      kind = OTHER;
    } else if (c === 60) {
      if (data[i + 1] === 60) {
        i += 2;
        depth++;
        continue;
      }
      while (i < n && data[i] !== 62) i++;
      i++;
      kind = STRING;
    } else if (c === 47) {
      i++;
      while (i < n && !ends[data[i]!]) i++;
      kind = NAME;
    } else if (c === 40) {
      let nesting = 1;
      i++;
      while (i < n && nesting > 0) {
        const d = data[i++]!;
        if (d === 92) i++;
        else if (d === 40) nesting++;
        else if (d === 41) nesting--;
      }
      kind = STRING;
    } else if (c === 91) {
      i++;
      if (depth++ === 0) arrayStart = i;
      continue;
    } else if (c === 93 || c === 62) {
      if (c === 62 && data[i + 1] !== 62) throw new UnreadableContent('a lone >');
      i += c === 62 ? 2 : 1;
      // A whole array or dictionary is one operand.
      if (--depth > 0) continue;
      if (depth < 0) throw new UnreadableContent(`an unopened ${c === 62 ? '>>' : ']'}`);
      kind = OTHER;
    } else if (c === 37) {
      while (i < n && data[i] !== 10 && data[i] !== 13) i++;
      continue;
    } else {
      i++;
      while (i < n && !ends[data[i]!]) i++;
      if (depth === 0) {
        // An operator.
        const length = i - start;
        const op =
          length > 3
            ? -1
            : c + (length > 1 ? data[start + 1]! * 256 : 0) + (length > 2 ? data[start + 2]! * 65536 : 0);
        if (op === Td) {
          // the commonest operator: nothing to do
        } else if (op === Tj || op === quote || op === doubleQuote) {
          if (kind1 === STRING) show(data, start1, end1, font);
        } else if (op === TJ) {
          if (arrayStart >= 0) showArray(data, arrayStart, start, font);
        } else if (op === q) fonts.push(font);
        else if (op === Q) font = fonts.length > 0 ? fonts.pop()! : font;
        else if (op === BI || op === ID) throw new UnreadableContent('an inline image');
        else {
          let category: string | undefined;
          if (op === Tf) category = 'Font';
          else if (op === Do) category = 'XObject';
          else if (op === gs) category = 'ExtGState';
          else if (op === sh) category = 'Shading';
          else if (op === cs || op === CS) category = 'ColorSpace';
          else if (op === scn || op === SCN) category = 'Pattern';
          else if (op === BDC || op === DP) category = 'Properties';
          // The name is the last operand, or for `Tf` (name, size) the second last.
          const [nameKind, nameStart, nameEnd] = op === Tf ? [kind2, start2, end2] : [kind1, start1, end1];
          if (category && nameKind === NAME) {
            const name = Buffer.from(
              data.buffer,
              data.byteOffset + nameStart + 1,
              nameEnd - nameStart - 1,
            ).toString('latin1');
            const renamed = visitor.rename(category, name);
            if (renamed !== undefined) {
              pieces.push(data.subarray(copied, nameStart), `/${renamed}`);
              copied = nameEnd;
            }
            if (op === Tf) font = visitor.font(name);
            else if (op === Do || category === 'Pattern') visitor.use(category, name, font);
          }
        }
        kind1 = kind2 = 0;
        arrayStart = -1;
        continue;
      }
      kind = OTHER;
    }
    if (depth > 0) continue; // inside an array or dictionary: the operator reads it whole
    kind2 = kind1;
    start2 = start1;
    end2 = end1;
    kind1 = kind;
    start1 = start;
    end1 = i;
  }
  if (pieces.length === 0) return { content: null, font };
  pieces.push(data.subarray(copied));
  const content = Buffer.concat(
    pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece, 'latin1') : piece)),
  );
  return { content, font };
}

/** Marks the glyphs of a string token `data[start, end)` shown in `font`. */
function show(data: Uint8Array, start: number, end: number, font: ContentFont): void {
  if (font === undefined) throw new UnreadableContent('text in a font the page does not name');
  if (font === null) return;
  if (data[start] !== 60) {
    const bytes = literalBytes(data, start, end);
    if (bytes.length % 2) throw new UnreadableContent('a string of odd length');
    for (let i = 0; i < bytes.length; i += 2) mark(font, bytes[i]! * 256 + bytes[i + 1]!);
    return;
  }
  let value = 0;
  let digits = 0;
  for (let i = start + 1; i < end - 1; i++) {
    const c = data[i]!;
    if (white[c]) continue;
    const v = c <= 57 ? c - 48 : (c | 32) - 87;
    if (!(v >= 0 && v < 16)) throw new UnreadableContent('a bad hex string');
    value = value * 16 + v;
    if (++digits === 4) {
      font[value >> 3]! |= 1 << (value & 7);
      value = 0;
      digits = 0;
    }
  }
  if (digits !== 0) throw new UnreadableContent('a string of odd length');
}

const mark = (bits: GlyphBits, id: number) => (bits[id >> 3]! |= 1 << (id & 7));

/** The glyph ids marked, in order. */
export function glyphIds(bits: GlyphBits): number[] {
  const ids: number[] = [];
  const words = new Uint32Array(bits.buffer, bits.byteOffset, bits.byteLength / 4);
  for (let word = 0; word < words.length; word++) {
    if (words[word] === 0) continue;
    for (let byte = word * 4; byte < word * 4 + 4; byte++) {
      const v = bits[byte]!;
      if (v) for (let bit = 0; bit < 8; bit++) if (v & (1 << bit)) ids.push(byte * 8 + bit);
    }
  }
  return ids;
}

/** The strings of a `TJ` array, from just after its `[` to the operator. */
function showArray(data: Uint8Array, from: number, to: number, font: ContentFont): void {
  for (let i = from; i < to; i++) {
    const c = data[i]!;
    if (c === 60) {
      const start = i;
      while (i < to && data[i] !== 62) i++;
      show(data, start, i + 1, font);
    } else if (c === 40) {
      const start = i;
      let nesting = 1;
      i++;
      while (i < to && nesting > 0) {
        const d = data[i++]!;
        if (d === 92) i++;
        else if (d === 40) nesting++;
        else if (d === 41) nesting--;
      }
      show(data, start, i, font);
      i--;
    }
  }
}

const escapes: Record<number, number> = { 110: 10, 114: 13, 116: 9, 98: 8, 102: 12, 40: 40, 41: 41, 92: 92 };

function literalBytes(data: Uint8Array, start: number, end: number): number[] {
  const out: number[] = [];
  for (let i = start + 1; i < end - 1; i++) {
    const c = data[i]!;
    if (c !== 92) {
      out.push(c);
      continue;
    }
    const d = data[++i]!;
    if (d in escapes) out.push(escapes[d]!);
    else if (d >= 48 && d <= 55) {
      let value = d - 48;
      for (let k = 0; k < 2 && data[i + 1]! >= 48 && data[i + 1]! <= 55; k++)
        value = value * 8 + data[++i]! - 48;
      out.push(value & 0xff);
    } else if (d === 13) {
      if (data[i + 1] === 10) i++;
    } else if (d !== 10) out.push(d);
  }
  return out;
}
