/**
 * How many records share one printed document without any of them reaching another's pages.
 *
 * Each record is parsed by the browser into its own closed shadow root, inside a light-DOM box with
 * `contain: layout paint style` that starts on a new page. What that gives, whatever the template says:
 * - its styles select only its own elements (shadow scoping), so no rule of one record styles another;
 * - ids resolve only inside it (`<use href="#x">`, `fill="url(#p)"`, `<a href="#x">`);
 * - fixed and absolute boxes take the record's box as their containing block, and everything painted
 *   outside that box (negative offsets, transforms, overflow) is clipped away;
 * - floats, columns and margins stay inside it (its own formatting context);
 * - `innerHTML` parses a fragment: no markup (`</template>`, `</div>`) can close the record early.
 *
 * Safety never depends on reading the template. Reading it decides only fidelity: a few things a
 * template may legitimately want mean something else inside a shared document (a fixed footer repeats
 * on every page of its own document; `@page` and `@font-face` work only at document level). For those,
 * the batch answers `alone` and its records print one document each, exactly as the template says.
 */

export interface BatchLayout {
  /** Why the records must print one document each, or null when the batch shares one document. */
  alone: string | null;
  /**
   * The page no longer holds the shared document this tab set up (it went elsewhere): nothing was
   * built, and the tab sets up a fresh one with every font the batch needs.
   */
  stale?: true;
}

/** The markers' link prefix: a host that cannot resolve, plus the batch's nonce, which templates never see. */
export const markerPrefix = (nonce: string) => `https://record-start.invalid/${nonce}/`;

/**
 * The shared document a tab prints every batch in, one after another: `session` (a nonce of the tab,
 * which templates never see) tells the page is still this one when the next batch comes.
 */
export const batchSkeleton = (session: string) =>
  `<!doctype html><html data-batch-session="${session}"><head><meta charset="utf-8"><style>html,body{margin:0;padding:0}</style></head><body></body></html>`;

/**
 * Runs in the page (as a string: the server's bundler may wrap named functions in helpers the page
 * lacks). Builds the batch into `document.body`, in place of the batch before, and answers a
 * BatchLayout. `fontFaces` (bundled @font-face rules the document does not hold yet) go to the
 * document, where shadow roots can use them, and stay for the batches after: their fonts are decoded
 * once a tab, not once a batch. `prepareRecord(root)` runs on each record's root once its HTML is in
 * (fonts.ts maps its font families).
 *
 * Nothing of a batch outlives it but those font rules: its records go with the body's children, and
 * the rules hoisted from its templates (@page, @font-face) with their style element.
 */
export const buildBatchInPage = String.raw`async ({ documents, prefix, fontFaces, session }, prepareRecord) => {
  if (document.documentElement.getAttribute('data-batch-session') !== session) return { alone: null, stale: true };
  for (const previous of Array.from(document.head.querySelectorAll('style[data-hoisted]'))) previous.remove();
  const typeSelector = /(^|[\s>+~,(])(html|body|:root)(?=$|[\s>+~,.#:\[)])/gi;
  const emulate = 'nd-html{display:flow-root}nd-body{display:block;margin:8px}';
  const documentRules = [];
  const roots = [];
  let alone = null;
  const refuse = (reason) => { alone = alone || reason; };

  // Walks a sheet: body/html selectors now name the record's own stand-ins; @page and @font-face,
  // which only work at document level, are collected to be hoisted (identical in every record) or refused.
  const walk = (rules, top, found) => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSImportRule) { refuse('the template imports a style sheet'); continue; }
      if (rule instanceof CSSPageRule || rule instanceof CSSFontFaceRule) {
        if (!top) refuse('the template puts @page or @font-face inside another rule');
        else if (/@(top|bottom|left|right)-/i.test(rule.cssText)) refuse('the template has page margin boxes');
        else found.push(rule.cssText);
        continue;
      }
      if (rule instanceof CSSStyleRule) {
        const rewritten = rule.selectorText.replace(typeSelector, (_, before, name) =>
          before + (name.toLowerCase() === 'body' ? 'nd-body' : 'nd-html'));
        if (rewritten !== rule.selectorText) rule.selectorText = rewritten;
      }
      if (rule.cssRules) walk(rule.cssRules, false, found);
    }
  };

  const body = document.body;
  body.replaceChildren();
  documents.forEach((html, i) => {
    const record = document.createElement('nd-record');
    record.setAttribute('style',
      'display:block!important;position:relative!important;contain:layout paint style!important;' +
      'margin:0!important;padding:0!important;border:0!important;' +
      (i > 0 ? 'break-before:page!important;' : ''));
    const marker = document.createElement('a');
    marker.href = prefix + i;
    marker.setAttribute('style', 'position:absolute;top:0;left:0;width:1px;height:1px;display:block');
    const host = document.createElement('div');
    record.append(marker, host);
    body.append(record);
    const root = host.attachShadow({ mode: 'closed' });
    const base = document.createElement('style');
    base.textContent = emulate;
    const page = document.createElement('nd-html');
    const recordBody = document.createElement('nd-body');
    page.append(recordBody);
    root.append(base, page);
    recordBody.innerHTML = html;
    roots.push({ root, page, recordBody });
  });
  if (fontFaces) {
    const faces = document.createElement('style');
    faces.textContent = fontFaces;
    document.head.append(faces);
  }
  if (prepareRecord) for (const { root } of roots) prepareRecord(root);

  for (const { root } of roots) {
    if (root.querySelector('link[rel~="stylesheet" i]')) refuse('the template links a style sheet');
    const found = [];
    for (const sheet of Array.from(root.styleSheets)) walk(sheet.cssRules, true, found);
    documentRules.push(found.join('\n'));
  }
  if (documentRules.some((rules) => rules !== documentRules[0]))
    refuse('its records have different @page or @font-face rules');
  if (!alone && documentRules[0]) {
    const hoisted = document.createElement('style');
    hoisted.setAttribute('data-hoisted', '');
    hoisted.textContent = documentRules[0];
    document.head.append(hoisted);
  }

  await Promise.all(roots.flatMap(({ root }) =>
    Array.from(root.querySelectorAll('img')).map((img) => img.decode().catch(() => undefined))));
  await document.fonts.ready;

  const transparent = (style) => style.backgroundColor === 'rgba(0, 0, 0, 0)' && style.backgroundImage === 'none';
  for (const { root, page, recordBody } of roots) {
    if (alone) break;
    const pageStyle = getComputedStyle(page);
    if (pageStyle.fontSize !== '16px') refuse('the template sets the root font size');
    if (!transparent(pageStyle) || !transparent(getComputedStyle(recordBody)))
      refuse('the template colours the whole page');
    for (const element of Array.from(root.querySelectorAll('*'))) {
      if (getComputedStyle(element).position === 'fixed') {
        refuse('the template has a fixed-position element, which repeats on every page');
        break;
      }
    }
  }
  return { alone };
}`;
