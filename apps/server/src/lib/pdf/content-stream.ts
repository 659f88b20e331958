/**
 * A page's content stream read for what depends on the document it was printed in: the names it
 * gives its resources (Chromium names them after object numbers, `/F12`, so the same record gets other
 * names in another batch) and the glyph ids it shows with each font.
 */

/** Resource categories by the operator that names one (its operand, counted from the end). */
const named: Record<string, { category: string; from: number }> = {
  Tf: { category: 'Font', from: 2 },
  Do: { category: 'XObject', from: 1 },
  gs: { category: 'ExtGState', from: 1 },
  sh: { category: 'Shading', from: 1 },
  cs: { category: 'ColorSpace', from: 1 },
  CS: { category: 'ColorSpace', from: 1 },
  scn: { category: 'Pattern', from: 1 },
  SCN: { category: 'Pattern', from: 1 },
  BDC: { category: 'Properties', from: 1 },
  DP: { category: 'Properties', from: 1 },
};

/** A content stream's names in a category, renamed in the order the stream first uses them. */
export const renamedPrefix: Record<string, string> = {
  Font: 'F',
  XObject: 'X',
  ExtGState: 'G',
  Shading: 'Sh',
  ColorSpace: 'Cs',
  Pattern: 'P',
  Properties: 'Pr',
};

/** What a content stream asks of the document, and what it draws. */
export interface ContentVisitor {
  /** A resource the stream names: its new name, or undefined to keep the name. */
  rename(category: string, name: string): string | undefined;
  /** Text shown with the current font (the font's resource name as the stream last set it, in this scope). */
  show(font: FontState, codes: Uint8Array): boolean;
  /** A form XObject or pattern drawn with the current font state. */
  use(category: string, name: string, font: FontState): boolean;
}

/** The font as the graphics state has it: set in this stream by name, or inherited from the caller. */
export type FontState = { name: string } | { inherited: unknown } | null;

/** Thrown for a stream this reader does not follow (inline images, odd strings): the record is left as printed. */
export class UnreadableContent extends Error {}

const enum Kind {
  Name,
  String,
  HexString,
  Other,
  ArrayStart,
  ArrayEnd,
  DictStart,
  DictEnd,
}

interface Token {
  kind: Kind;
  start: number;
  end: number;
}

const isWhite = (c: number) => c === 32 || c === 10 || c === 13 || c === 9 || c === 12 || c === 0;
const isDelimiter = (c: number) =>
  c === 40 ||
  c === 41 ||
  c === 60 ||
  c === 62 ||
  c === 91 ||
  c === 93 ||
  c === 123 ||
  c === 125 ||
  c === 47 ||
  c === 37;

/**
 * The stream with every resource name renamed as `visitor.rename` says (null when nothing was
 * renamed), and the font in force at its end; the visitor hears every string shown and every form
 * drawn. `font` is the font in force when the stream starts.
 */
export function rewriteContent(
  data: Uint8Array,
  visitor: ContentVisitor,
  font: FontState,
): { content: Buffer | null; font: FontState } {
  const pieces: (Uint8Array | string)[] = [];
  let copied = 0;
  let changed = false;
  const operands: Token[] = [];
  let depth = 0; // inside [ ] or << >>: operands still being collected
  const fonts: FontState[] = [];
  let i = 0;
  const n = data.length;
  const text = (t: Token) =>
    Buffer.from(data.buffer, data.byteOffset + t.start, t.end - t.start).toString('latin1');

  const show = (t: Token) => {
    if (!visitor.show(font, stringBytes(data, t))) throw new UnreadableContent('text with an unknown font');
  };

  while (i < n) {
    const c = data[i]!;
    if (isWhite(c)) {
      i++;
      continue;
    }
    if (c === 37) {
      while (i < n && data[i] !== 10 && data[i] !== 13) i++;
      continue;
    }
    const start = i;
    let kind: Kind;
    if (c === 47) {
      i++;
      while (i < n && !isWhite(data[i]!) && !isDelimiter(data[i]!)) i++;
      kind = Kind.Name;
    } else if (c === 40) {
      let nesting = 1;
      i++;
      while (i < n && nesting > 0) {
        const d = data[i++]!;
        if (d === 92) i++;
        else if (d === 40) nesting++;
        else if (d === 41) nesting--;
      }
      kind = Kind.String;
    } else if (c === 60) {
      if (data[i + 1] === 60) {
        i += 2;
        kind = Kind.DictStart;
      } else {
        while (i < n && data[i] !== 62) i++;
        i++;
        kind = Kind.HexString;
      }
    } else if (c === 62) {
      if (data[i + 1] !== 62) throw new UnreadableContent('a lone >');
      i += 2;
      kind = Kind.DictEnd;
    } else if (c === 91) {
      i++;
      kind = Kind.ArrayStart;
    } else if (c === 93) {
      i++;
      kind = Kind.ArrayEnd;
    } else if (c === 123 || c === 125) {
      i++;
      kind = Kind.Other;
    } else {
      while (i < n && !isWhite(data[i]!) && !isDelimiter(data[i]!)) i++;
      kind = Kind.Other;
    }
    const token: Token = { kind, start, end: i };
    if (kind === Kind.ArrayStart || kind === Kind.DictStart) depth++;
    else if (kind === Kind.ArrayEnd || kind === Kind.DictEnd) depth--;
    const first = data[start]!;
    const isOperator =
      depth === 0 &&
      kind === Kind.Other &&
      !(first >= 48 && first <= 57) &&
      first !== 43 &&
      first !== 45 &&
      first !== 46;
    if (!isOperator) {
      operands.push(token);
      continue;
    }
    const operator = text(token);
    if (operator === 'BI' || operator === 'ID' || operator === 'EI')
      throw new UnreadableContent('an inline image');
    if (operator === 'q') fonts.push(font);
    else if (operator === 'Q') font = fonts.pop() ?? font;
    const naming = named[operator];
    if (naming) {
      const operand = operands[operands.length - naming.from];
      if (operand?.kind === Kind.Name) {
        const name = text(operand).slice(1);
        const renamed = visitor.rename(naming.category, name);
        if (renamed !== undefined) {
          pieces.push(data.subarray(copied, operand.start), `/${renamed}`);
          copied = operand.end;
          changed = true;
        }
        if (operator === 'Tf') font = { name };
        else if (
          (operator === 'Do' || operator === 'scn' || operator === 'SCN') &&
          !visitor.use(naming.category, name, font)
        )
          throw new UnreadableContent(`a ${naming.category} that cannot be followed`);
      }
    }
    if (operator === 'Tj' || operator === "'" || operator === '"') {
      const operand = operands.at(-1);
      if (operand?.kind === Kind.String || operand?.kind === Kind.HexString) show(operand);
    } else if (operator === 'TJ') {
      for (const operand of operands)
        if (operand.kind === Kind.String || operand.kind === Kind.HexString) show(operand);
    }
    operands.length = 0;
  }
  if (!changed) return { content: null, font };
  pieces.push(data.subarray(copied));
  const content = Buffer.concat(
    pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece, 'latin1') : piece)),
  );
  return { content, font };
}

const hexValue = (c: number) => (c <= 57 ? c - 48 : (c | 32) - 87);

/** The bytes of a string token, literal or hex. */
function stringBytes(data: Uint8Array, token: Token): Uint8Array {
  const out: number[] = [];
  if (data[token.start] === 60) {
    let high = -1;
    for (let i = token.start + 1; i < token.end - 1; i++) {
      const c = data[i]!;
      if (isWhite(c)) continue;
      const v = hexValue(c);
      if (!(v >= 0 && v < 16)) throw new UnreadableContent('a bad hex string');
      if (high < 0) high = v;
      else {
        out.push(high * 16 + v);
        high = -1;
      }
    }
    if (high >= 0) out.push(high * 16);
    return Uint8Array.from(out);
  }
  for (let i = token.start + 1; i < token.end - 1; i++) {
    const c = data[i]!;
    if (c !== 92) {
      out.push(c);
      continue;
    }
    const d = data[++i]!;
    const escapes: Record<number, number> = {
      110: 10,
      114: 13,
      116: 9,
      98: 8,
      102: 12,
      40: 40,
      41: 41,
      92: 92,
    };
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
  return Uint8Array.from(out);
}
