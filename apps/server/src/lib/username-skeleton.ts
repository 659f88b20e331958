import { usernameKey } from '@notice-desk/contract/auth';

/**
 * The look-alike form of a username, after Unicode TR39's skeleton: two usernames with one skeleton
 * read the same to a person, so the second is refused. The `confusables` package (the full TR39 table)
 * is not installed; this is the subset that matters for the names staff type: Cyrillic and Greek letters
 * drawn like Latin ones, digits drawn like letters, and the letter pairs that pass for one letter.
 *
 * Steps: NFKC and case fold (the username key), drop the combining accents Latin, Greek and Cyrillic share
 * (U+0300–U+036F, so 'josé' meets 'jose'; Indic vowel signs are letters of their own and stay), map each
 * look-alike character to its Latin prototype, then fold the letter pairs. Capital I is a lower-case l to
 * the eye, so i, I, l, 1 and | all become l.
 */
export function usernameSkeleton(username: string): string {
  const folded = usernameKey(username)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
  let mapped = '';
  for (const char of folded) mapped += PROTOTYPES.get(char) ?? char;
  // Pairs last, and again after a first pass, so 'rrn' and 'rnn' fold as far as they go.
  let previous: string;
  do {
    previous = mapped;
    for (const [pair, letter] of PAIRS) mapped = mapped.replaceAll(pair, letter);
  } while (mapped !== previous);
  return mapped.normalize('NFC');
}

/** Letter pairs that read as one letter in most fonts. */
const PAIRS: [string, string][] = [
  ['rn', 'm'],
  ['vv', 'w'],
  ['cl', 'd'],
];

/** Each look-alike (already case-folded) and the Latin letter it passes for. */
const PROTOTYPES = new Map<string, string>(
  Object.entries({
    // Digits and symbols drawn like letters.
    '0': 'o',
    '1': 'l',
    i: 'l',
    '|': 'l',
    ı: 'l', // dotless i
    ǀ: 'l', // dental click
    // Cyrillic.
    а: 'a',
    в: 'b', // small capital in many fonts; its capital В is a B
    е: 'e',
    ё: 'e',
    є: 'e',
    һ: 'h',
    н: 'h', // capital Н is an H
    і: 'l',
    ї: 'l',
    ӏ: 'l', // palochka
    ј: 'j',
    к: 'k',
    м: 'm', // capital М is an M
    о: 'o',
    р: 'p',
    с: 'c',
    т: 't', // capital Т is a T
    у: 'y',
    х: 'x',
    ѕ: 's',
    ԁ: 'd',
    ԛ: 'q',
    ԝ: 'w',
    ѡ: 'w',
    ү: 'y',
    ɡ: 'g',
    // Greek.
    α: 'a',
    β: 'b',
    ε: 'e',
    η: 'n',
    ι: 'l',
    κ: 'k',
    μ: 'u',
    ν: 'v',
    ο: 'o',
    ρ: 'p',
    τ: 't',
    υ: 'u',
    χ: 'x',
    γ: 'y',
    ϲ: 'c',
    ϳ: 'j',
    ζ: 'z', // capital Ζ is a Z
    // Other Latin letters that pass for plain ones.
    ł: 'l',
    ø: 'o',
    đ: 'd',
    ħ: 'h',
    ŧ: 't',
    ƅ: 'b',
    ɑ: 'a',
    ɩ: 'l',
    ʏ: 'y',
    // Dashes that pass for a hyphen (NFKC leaves them).
    '‐': '-',
    '‑': '-',
    '‒': '-',
    '–': '-',
    '—': '-',
    '―': '-',
    '−': '-',
    '﹘': '-',
    // Dots and underscores.
    '·': '.',
    '․': '.',
    '‧': '.',
    '٠': '.', // Arabic-Indic zero, drawn as a dot
    '۰': '.',
  }),
);
