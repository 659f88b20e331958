import { SegmentedMessage } from 'sms-segments-calculator';

/** How the DLT portals mark a variable in a registered template. */
export const DLT_SLOT = '{#var#}';
/** The most characters a DLT variable may carry. */
export const DLT_SLOT_MAX = 30;

/** A placeholder of the product's own template syntax: `{{loanNo}}`, `{{noticeDate | date}}`. */
const PLACEHOLDER = /\{\{\s*([^{}\s|]+)\s*((?:\|\s*[^{}\s|]*\s*)*)\}\}/g;

/** One unit of a text: a character (by code point) or a variable, with where it starts in the SMS text. */
type Unit = { char: string; at: number } | { slot: string; at: number };

/** Where a text differs from its registered DLT text: the first differing character, 1-based, and the two sides. */
export interface DltMismatch {
  /** 1-based position in the SMS text (counted in characters as people count them: code points). */
  position: number;
  /** What the registered text has there, in words: `',' (U+002C)`, `a {#var#} slot`, `nothing more`. */
  expected: string;
  /** What the SMS text has there, in the same words. */
  found: string;
  message: string;
}

/** Line ends as the DLT portals keep them: CRLF (pasted from Windows) is LF. */
export const normaliseLineEnds = (text: string) => text.replace(/\r\n?/g, '\n');

function unitsOfRegistered(registered: string): Unit[] {
  const units: Unit[] = [];
  const text = normaliseLineEnds(registered);
  let i = 0;
  while (i < text.length) {
    if (text.startsWith(DLT_SLOT, i)) {
      units.push({ slot: DLT_SLOT, at: 0 });
      i += DLT_SLOT.length;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i)!);
    units.push({ char, at: 0 });
    i += char.length;
  }
  return units;
}

/** The text's units, each with its 0-based position in the text counted in code points. */
function unitsOfText(text: string): Unit[] {
  const units: Unit[] = [];
  const source = normaliseLineEnds(text);
  let i = 0;
  let at = 0;
  const chars = (part: string) => {
    for (const char of part) units.push({ char, at: at++ });
  };
  for (const match of source.matchAll(PLACEHOLDER)) {
    chars(source.slice(i, match.index));
    units.push({ slot: match[0].slice(2, -2).trim(), at });
    at += [...match[0]].length;
    i = match.index + match[0].length;
  }
  chars(source.slice(i));
  return units;
}

/** `',' (U+002C)`: a character as the screen and the error show it, its code point named (look-alikes differ there). */
export function describeChar(char: string): string {
  const code = char.codePointAt(0)!;
  const shown =
    char === '\n'
      ? 'a line break'
      : char === ' '
        ? 'a space'
        : /^[\p{Z}\s]$/u.test(char)
          ? 'a blank'
          : /^\p{C}$/u.test(char)
            ? 'an invisible character'
            : `'${char}'`;
  return `${shown} (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
}

const describe = (unit: Unit | undefined, slotWords: string) =>
  !unit ? 'nothing more' : 'slot' in unit ? slotWords : describeChar(unit.char);

/**
 * The placeholders of the SMS text, in order: the record field (with its format) each DLT slot takes.
 */
export function placeholdersOf(text: string): string[] {
  return [...normaliseLineEnds(text).matchAll(PLACEHOLDER)].map((m) => m[0].slice(2, -2).trim());
}

/** How many {#var#} slots a registered text has. */
export const slotCount = (registered: string) => normaliseLineEnds(registered).split(DLT_SLOT).length - 1;

/**
 * Whether the SMS text is the registered DLT text, character for character, a placeholder standing
 * where the registered text has a {#var#} slot: null when it is, else the first difference. An
 * operator drops an SMS that does not match its template, silently: one space, a changed comma or a
 * look-alike letter (Cyrillic 'а' for Latin 'a') is a mismatch.
 */
export function compareWithRegistered(registered: string, text: string): DltMismatch | null {
  const want = unitsOfRegistered(registered);
  const have = unitsOfText(text);
  const end = [...normaliseLineEnds(text)].length;
  for (let i = 0; i < Math.max(want.length, have.length); i++) {
    const w = want[i];
    const h = have[i];
    if (w && h && 'slot' in w && 'slot' in h) continue;
    if (w && h && 'char' in w && 'char' in h && w.char === h.char) continue;
    const expected = describe(w, `a ${DLT_SLOT} slot`);
    const found = describe(h, h && 'slot' in h ? `the placeholder {{${h.slot}}}` : '');
    const position = (h ? h.at : end) + 1;
    return {
      position,
      expected,
      found,
      message: `The SMS text differs from the registered DLT text at character ${position}: the registered text has ${expected}, the SMS text has ${found}.`,
    };
  }
  return null;
}

/** How an SMS text goes: its segments, and whether it needs Unicode (UCS-2: 70 characters a segment, not 160). */
export interface SmsLength {
  characters: number;
  segments: number;
  unicode: boolean;
}

export function smsLength(text: string): SmsLength {
  const message = new SegmentedMessage(text, 'auto');
  return {
    characters: [...text].length,
    segments: message.segmentsCount,
    unicode: message.encodingName === 'UCS-2',
  };
}

/**
 * The SMS a record's values make of the registered text: each slot's value checked (at most 30
 * characters, not empty, on one line), then put where its slot is. `values` are the placeholders'
 * rendered values in order; a refusal is a sentence naming the slot.
 */
export function fillSlots(
  registered: string,
  placeholders: string[],
  values: string[],
): { text: string } | { refused: string } {
  const parts = normaliseLineEnds(registered).split(DLT_SLOT);
  if (parts.length - 1 !== values.length)
    return {
      refused: `The registered DLT text has ${parts.length - 1} slot(s) but ${values.length} value(s) were given.`,
    };
  const cleaned: string[] = [];
  for (const [i, raw] of values.entries()) {
    const value = raw.replace(/\s+/g, ' ').trim();
    const name = `slot ${i + 1} ({{${placeholders[i] ?? '?'}}})`;
    if (!value) return { refused: `The record's value for ${name} is empty; the DLT template needs it.` };
    const length = [...value].length;
    if (length > DLT_SLOT_MAX)
      return {
        refused: `The record's value for ${name} is ${length} characters; a DLT slot takes at most ${DLT_SLOT_MAX}: '${value}'.`,
      };
    cleaned.push(value);
  }
  return { text: parts.map((part, i) => part + (cleaned[i] ?? '')).join('') };
}
