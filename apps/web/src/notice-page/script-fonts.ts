/** The longest the page waits for a script's font before it shows the text in a fallback. */
const FONT_WAIT_MS = 3000;

/**
 * Loads the font faces `text` needs (the app's faces of India's scripts, one per script, chosen by
 * unicode-range) before it shows: Chromium drew text shaped while its face was still loading as empty
 * boxes, and kept them after the face had loaded. Text below U+0590 (Latin and its neighbours)
 * needs no face of ours (indic-fonts.css starts there): no wait.
 */
export async function fontsLoadedFor(text: string): Promise<void> {
  if (typeof document === 'undefined' || !document.fonts?.load || !/[\u0590-\uffff]/.test(text)) return;
  const font = `16px ${getComputedStyle(document.documentElement).fontFamily}`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    document.fonts.load(font, text).catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, FONT_WAIT_MS))),
  ]);
  clearTimeout(timer);
}
