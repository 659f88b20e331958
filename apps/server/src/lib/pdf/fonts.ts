import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The only fonts a notice prints with: Noto from npm (@fontsource/*, OFL-1.1), versioned by the lock
 * file, so every machine prints with the same glyphs whatever it has installed.
 *
 * Each family is a set of faces, one per unicode-range subset and weight (regular and bold), inlined
 * as data: URLs (the page may fetch nothing). A page carries only the subsets its text needs. Every
 * font-family a template names is mapped onto two stacks, serif and sans, that list these families
 * only; a character none of them covers fails the record before anything is printed.
 */

/** What is bundled: package, the family name pages use, and the subsets taken from it. */
export const bundledPackages = [
  { pkg: '@fontsource/noto-serif', family: 'Notice Serif', subsets: ['latin', 'latin-ext'] },
  { pkg: '@fontsource/noto-sans', family: 'Notice Sans', subsets: ['latin', 'latin-ext'] },
  { pkg: '@fontsource/noto-sans-devanagari', family: 'Notice Devanagari', subsets: ['devanagari'] },
  { pkg: '@fontsource/noto-sans-bengali', family: 'Notice Bengali', subsets: ['bengali'] },
  { pkg: '@fontsource/noto-sans-gurmukhi', family: 'Notice Gurmukhi', subsets: ['gurmukhi'] },
  { pkg: '@fontsource/noto-sans-gujarati', family: 'Notice Gujarati', subsets: ['gujarati'] },
  { pkg: '@fontsource/noto-sans-oriya', family: 'Notice Oriya', subsets: ['oriya'] },
  { pkg: '@fontsource/noto-sans-tamil', family: 'Notice Tamil', subsets: ['tamil'] },
  { pkg: '@fontsource/noto-sans-telugu', family: 'Notice Telugu', subsets: ['telugu'] },
  { pkg: '@fontsource/noto-sans-kannada', family: 'Notice Kannada', subsets: ['kannada'] },
  { pkg: '@fontsource/noto-sans-malayalam', family: 'Notice Malayalam', subsets: ['malayalam'] },
  { pkg: '@fontsource/noto-nastaliq-urdu', family: 'Notice Urdu', subsets: ['arabic'] },
] as const;
export const bundledWeights = [400, 700] as const;

/** One bundled font file as bundled-fonts.json records it (written from the files by fonts.test.ts). */
export interface BundledFace {
  family: string;
  subset: string;
  weight: number;
  pkg: string;
  /** Path inside the package. */
  file: string;
  /** The @font-face unicode-range fontsource gives the subset. */
  unicodeRange: string;
  /** The name a PDF embeds it under (after the subset tag). */
  postscriptName: string;
  /** Code points the file has a glyph for, within its unicode-range: [first, last] pairs. */
  covers: [number, number][];
}

const scriptFamilies = bundledPackages.slice(2).map((p) => `"${p.family}"`);
/** What every font-family in a notice becomes: one of our Latin families, then every script's. */
export const fontStacks = {
  serif: ['"Notice Serif"', ...scriptFamilies].join(','),
  sans: ['"Notice Sans"', ...scriptFamilies].join(','),
};

export const bundledFaces: BundledFace[] = (
  JSON.parse(fs.readFileSync(new URL('./bundled-fonts.json', import.meta.url), 'utf8')) as {
    faces: BundledFace[];
  }
).faces;

/** The PostScript names of every bundled face: a PDF that embeds any other font used a host font. */
export const bundledFontNames = new Set(bundledFaces.map((f) => f.postscriptName));

/**
 * The subsets that draw each covered code point: those of the first family in the stacks that has it,
 * as the browser picks (₹ is in every Indic font too, but Noto's Latin comes first). A code point in
 * two subsets of that family, like U+0304, lists both.
 */
const subsetsOf = new Map<number, string[]>();
const familyOf = new Map<number, string>();
for (const face of bundledFaces) {
  if (face.weight !== 400) continue;
  for (const [first, last] of face.covers) {
    for (let cp = first; cp <= last; cp++) {
      const family = familyOf.get(cp);
      if (family === undefined) {
        familyOf.set(cp, face.family);
        subsetsOf.set(cp, [face.subset]);
      } else if (family === face.family && !subsetsOf.get(cp)!.includes(face.subset)) {
        subsetsOf.get(cp)!.push(face.subset);
      }
    }
  }
}

/**
 * Code points that print nothing of their own and need no glyph: controls, format characters (ZWJ,
 * ZWNJ, direction marks, soft hyphen), line and paragraph separators, variation selectors.
 */
const invisible = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]/u;

/**
 * The text of merged template HTML as far as the notice will print it: comments and tags left out,
 * character references decoded. Named references (&rsquo;) are left as they are: templates write
 * them, and the editor only names Latin punctuation.
 */
function printedText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#(?:x([0-9a-f]+)|(\d+));?/gi, (ref, hex: string | undefined, dec: string | undefined) => {
      const cp = hex ? parseInt(hex, 16) : Number(dec);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : ref;
    });
}

export interface FontNeeds {
  /** Code points no bundled font covers, in order of first appearance. */
  uncovered: number[];
  /** The subsets the text draws on (always latin: numbers, punctuation and list markers). */
  subsets: Set<string>;
}

/** What a merged document needs from the bundled fonts, and what none of them can print. */
export function fontNeeds(html: string): FontNeeds {
  const subsets = new Set<string>(['latin']);
  const uncovered = new Set<number>();
  const seen = new Set<number>();
  for (const char of printedText(html)) {
    const cp = char.codePointAt(0)!;
    if (cp < 0x80 || seen.has(cp)) continue;
    seen.add(cp);
    const found = subsetsOf.get(cp);
    if (found) for (const subset of found) subsets.add(subset);
    else if (!invisible.test(char) && !/\s/u.test(char)) uncovered.add(cp);
  }
  return { uncovered: [...uncovered], subsets };
}

export const codePointLabel = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** The reason a record cannot print: `The notice uses characters no font covers: U+1F600 (😀)`. */
export function uncoveredReason(uncovered: number[]): string {
  const shown = uncovered.slice(0, 10).map((cp) => `${codePointLabel(cp)} (${String.fromCodePoint(cp)})`);
  const more = uncovered.length > 10 ? ` and ${uncovered.length - 10} more` : '';
  return `The notice uses characters no font covers: ${shown.join(', ')}${more}.`;
}

/** Our own documents (an evidence summary) print such characters as their code point instead. */
export function spellOutUncovered(html: string): string {
  const { uncovered } = fontNeeds(html);
  if (uncovered.length === 0) return html;
  const names = new Map(uncovered.map((cp) => [String.fromCodePoint(cp), `[${codePointLabel(cp)}]`]));
  return [...html].map((char) => names.get(char) ?? char).join('');
}

const requireFromHere = createRequire(import.meta.url);
let faceRules: Map<string, string> | undefined;

/** A file of an installed font package (their exports name only style sheets, so through the main one). */
export const packageFile = (pkg: string, file: string) =>
  path.join(path.dirname(requireFromHere.resolve(pkg)), file);

/** The @font-face rules of each subset, every weight and family, data: URLs built once per process. */
function rulesBySubset(): Map<string, string> {
  if (faceRules) return faceRules;
  const rules = new Map<string, string>();
  for (const face of bundledFaces) {
    const data = fs.readFileSync(packageFile(face.pkg, face.file)).toString('base64');
    const rule =
      `@font-face{font-family:"${face.family}";font-style:normal;font-weight:${face.weight};` +
      `src:url(data:font/woff2;base64,${data}) format("woff2");unicode-range:${face.unicodeRange}}`;
    rules.set(face.subset, (rules.get(face.subset) ?? '') + rule);
  }
  faceRules = rules;
  return rules;
}

/** The style sheet a page needs for these subsets: the faces, and the default font for every element. */
export function fontCss(subsets: Iterable<string>): string {
  const rules = rulesBySubset();
  let css = '';
  for (const subset of subsets) css += rules.get(subset) ?? '';
  return css;
}

/**
 * Runs in the page (as a string, like buildBatchInPage) on the document or a record's shadow root:
 * gives it the bundled fonts as its default, then maps every font-family its styles, style attributes,
 * <font face> and SVG attributes name onto the serif or the sans stack. Generic families and names
 * like Arial or Times would otherwise fall to the host's fonts.
 */
export const useBundledFontsInPage = String.raw`(root, stacks) => {
  const serif = /^(serif|ui-serif|times|times new roman|georgia|cambria|garamond|book antiqua|palatino|palatino linotype|dejavu serif|liberation serif|noto serif|notice serif)$/i;
  const keep = /^(inherit|unset)$/i;
  const mapped = (value) => {
    const list = String(value).trim();
    if (keep.test(list)) return list;
    const first = list.split(',')[0].trim().replace(/^["']|["']$/g, '');
    return serif.test(first) ? stacks.serif : stacks.sans;
  };
  const defaults = root.ownerDocument ? root.ownerDocument.createElement('style') : root.createElement('style');
  defaults.textContent =
    ':host,html,nd-html{font-family:' + stacks.serif + '}' +
    'pre,code,kbd,samp,tt,xmp,listing,plaintext,input,button,select,textarea,optgroup{font-family:' + stacks.sans + '}';
  (root.head || root).prepend(defaults);
  const restyle = (style) => {
    const value = style.getPropertyValue('font-family');
    if (value) style.setProperty('font-family', mapped(value), style.getPropertyPriority('font-family'));
  };
  const walk = (rules) => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSFontFaceRule) continue;
      if (rule.style) restyle(rule.style);
      if (rule.cssRules) walk(rule.cssRules);
    }
  };
  for (const sheet of Array.from(root.styleSheets)) {
    try { walk(sheet.cssRules); } catch { /* a sheet that cannot be read has no rules here */ }
  }
  for (const element of Array.from(root.querySelectorAll('[style]'))) if (element.style) restyle(element.style);
  for (const element of Array.from(root.querySelectorAll('font[face]')))
    element.setAttribute('face', mapped(element.getAttribute('face')));
  for (const element of Array.from(root.querySelectorAll('[font-family]')))
    element.setAttribute('font-family', mapped(element.getAttribute('font-family')));
}`;
