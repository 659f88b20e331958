const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * A file name made from display text (a customer's name, a campaign's), in the text's own script:
 * NFC, letters, marks (vowel signs, viramas), numbers, joiners (ZWJ, ZWNJ shape Indic names) and
 * ` ._-`; anything else becomes `_`, direction overrides too (they can disguise `fdp.exe` as `exe.pdf`). Cut at `max` whole characters as readers see them, so no vowel
 * sign is left without its consonant.
 */
export function safeFileName(text: string, max: number): string {
  const cleaned = text
    .normalize('NFC')
    .replace(/(?:(?!\u200C|\u200D)[^\p{L}\p{M}\p{N} ._-])+/gu, '_')
    .replace(/\s+/g, ' ')
    .trim();
  let out = '';
  let count = 0;
  for (const { segment } of graphemes.segment(cleaned)) {
    if (++count > max) break;
    out += segment;
  }
  return out.trim();
}
