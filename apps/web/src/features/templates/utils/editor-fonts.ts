/**
 * The bundled fonts of India's scripts (styles/indic-fonts.css) inside TinyMCE's frame, so a Hindi or
 * Tamil template reads on a machine with no font for its script, as it prints. The frame is a
 * document of its own: it gets the app's @font-face rules for those families, and every font stack
 * its style sheets name (the template's own `<style>`, TinyMCE's content styles) gets the families
 * appended, so a character the template's fonts lack falls to them. Style sheets are changed through
 * the CSSOM only: the template's HTML, which TinyMCE saves, stays as written.
 */

/** The families of indic-fonts.css, in the order global.css lists them. */
export const indicFamilies = [
  'Noto Sans Devanagari',
  'Noto Sans Bengali',
  'Noto Sans Gujarati',
  'Noto Sans Gurmukhi',
  'Noto Sans Kannada',
  'Noto Sans Malayalam',
  'Noto Sans Oriya',
  'Noto Sans Tamil',
  'Noto Sans Telugu',
  'Noto Nastaliq Urdu',
];
const appended = indicFamilies.map((family) => `"${family}"`).join(', ');
const STYLE_ID = 'notice-desk-indic-fonts';

const rulesOf = (sheet: CSSStyleSheet): CSSRule[] => {
  try {
    return Array.from(sheet.cssRules);
  } catch {
    // A sheet from elsewhere cannot be read; ours and TinyMCE's can.
    return [];
  }
};

/** The app document's @font-face rules for the Indic families, as text another document can take. */
function indicFontFaces(from: Document): string {
  const isIndic = (rule: CSSRule): rule is CSSFontFaceRule =>
    rule.constructor.name === 'CSSFontFaceRule' &&
    indicFamilies.includes(
      (rule as CSSFontFaceRule).style.getPropertyValue('font-family').replace(/^["']|["']$/g, ''),
    );
  const faces: string[] = [];
  const walk = (rules: CSSRule[]) => {
    for (const rule of rules) {
      if (isIndic(rule)) faces.push(rule.cssText);
      else if ('cssRules' in rule) walk(Array.from((rule as CSSGroupingRule).cssRules));
    }
  };
  for (const sheet of Array.from(from.styleSheets)) walk(rulesOf(sheet));
  return faces.join('\n');
}

/** Appends the Indic families to every font stack of `doc`'s style sheets that lacks them. */
function appendToStacks(doc: Document): void {
  const walk = (rules: CSSRule[]) => {
    for (const rule of rules) {
      const style = (rule as CSSStyleRule).style as CSSStyleDeclaration | undefined;
      const value = style?.getPropertyValue('font-family');
      if (style && value && rule.constructor.name !== 'CSSFontFaceRule' && !value.includes(indicFamilies[0]!))
        style.setProperty('font-family', `${value}, ${appended}`, style.getPropertyPriority('font-family'));
      if ('cssRules' in rule) walk(Array.from((rule as CSSGroupingRule).cssRules));
    }
  };
  for (const sheet of Array.from(doc.styleSheets)) walk(rulesOf(sheet));
}

/** Gives the editor's frame the Indic fonts; safe to call again after its content is replaced. */
export function giveIndicFonts(frame: Document, app: Document = document): void {
  if (!frame.getElementById(STYLE_ID)) {
    const style = frame.createElement('style');
    style.id = STYLE_ID;
    style.textContent = indicFontFaces(app);
    frame.head.append(style);
  }
  appendToStacks(frame);
}
