/**
 * What an exported document may not carry as it stands: the characters XML 1.0 forbids (C0 controls
 * other than tab, line feed and carriage return; lone surrogates; U+FFFE and U+FFFF), the other Unicode
 * non-characters (U+FDD0–U+FDEF and the last two code points of every plane), and DEL, which the .xlsx
 * writer would otherwise drop without a trace.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_EXPORTABLE = /[\0-\x08\x0B\x0C\x0E-\x1F\x7F\p{Cs}\p{Noncharacter_Code_Point}]/gu;

/** U+FFFD REPLACEMENT CHARACTER: shows where a character was that the document cannot hold. */
export const REPLACEMENT = '\uFFFD';

/**
 * Text every export writes (.xlsx cells, sheet names, headers): each character XML cannot hold is
 * replaced by U+FFFD, so the file opens in Excel and the reader sees that something was there.
 */
export function exportableText(text: string): string {
  return text.replace(NOT_EXPORTABLE, REPLACEMENT);
}
