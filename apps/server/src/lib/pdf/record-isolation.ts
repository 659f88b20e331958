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
 * Clipping hides what a record paints outside its box, but Chromium still writes such text into the
 * page it falls on, where a text tool reads it: a record 1200mm tall with a block 900mm below its
 * bottom put its customer's name on the next record's third page. So containment is proven, not
 * assumed: after layout, in print media, at the page's width, proveRecordsInPage checks every box and
 * text run of each record against the record's own box, and a record it cannot prove prints in a
 * document of its own. Safety never depends on reading the template.
 *
 * Reading the template decides only fidelity: a few things a
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
  /** The printed page's content area in CSS pixels: the tab lays the batch out at it for the proof. */
  page?: { width: number; height: number } | null;
}

/** The markers' link prefix: a host that cannot resolve, plus the batch's nonce, which templates never see. */
export const markerPrefix = (nonce: string) => `https://record-start.invalid/${nonce}/`;

/**
 * The shared document a tab prints every batch in, one after another: `session` (a nonce of the tab,
 * which templates never see) tells the page is still this one when the next batch comes.
 */
export const batchSkeleton = (session: string) =>
  `<!doctype html><html data-batch-session="${session}"><head><meta charset="utf-8"><style>${defaultPageRule}html,body{margin:0;padding:0}</style></head><body></body></html>`;

/**
 * The page margins a notice prints with when its template sets none (those of the seeded templates):
 * never at the paper's edge. A template's own @page margins come later in the document and win.
 */
export const DEFAULT_PAGE_MARGINS_MM = { vertical: 18, horizontal: 16 } as const;
export const defaultPageRule = `@page{margin:${DEFAULT_PAGE_MARGINS_MM.vertical}mm ${DEFAULT_PAGE_MARGINS_MM.horizontal}mm}`;

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
export const buildBatchInPage = String.raw`async ({ documents, prefix, fontFaces, session, defaultMargins }, prepareRecord) => {
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
  // Pseudo-elements paint where no geometry query reaches: a record whose styles make any is not proven.
  const pseudo = /::?(before|after|marker|first-letter|first-line|placeholder|backdrop|file-selector-button|-webkit-)/i;
  let styledPseudo = false;
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
        if (pseudo.test(rule.selectorText)) styledPseudo = true;
        const rewritten = rule.selectorText.replace(typeSelector, (_, before, name) =>
          before + (name.toLowerCase() === 'body' ? 'nd-body' : 'nd-html'));
        if (rewritten !== rule.selectorText) rule.selectorText = rewritten;
      }
      if (rule.cssRules) walk(rule.cssRules, false, found);
    }
  };

  // The printed page's content area in CSS pixels, from the hoisted @page rules (else the paper the
  // renderer asks for, with the default margins): the tab lays the batch out at that width before the proof.
  const pageArea = (rulesText) => {
    const mm = { mm: 1, cm: 10, in: 25.4, pt: 25.4 / 72, pc: 25.4 / 6, px: 25.4 / 96, q: 0.25 };
    const named = { a3: [297, 420], a4: [210, 297], a5: [148, 210], b4: [250, 353], b5: [176, 250],
      'jis-b4': [257, 364], 'jis-b5': [182, 257], letter: [215.9, 279.4], legal: [215.9, 355.6], ledger: [279.4, 431.8] };
    const length = (value) => {
      const match = /^(-?[\d.]+)([a-z]*)$/i.exec(String(value).trim());
      if (!match) return 0;
      const unit = (match[2] || 'px').toLowerCase();
      return unit in mm ? parseFloat(match[1]) * mm[unit] : 0;
    };
    let width = 8.27 * 25.4, height = 11.7 * 25.4, margins = defaultMargins.slice();
    const sheet = new CSSStyleSheet();
    try { sheet.replaceSync(rulesText); } catch { return null; }
    for (const rule of Array.from(sheet.cssRules)) {
      if (!(rule instanceof CSSPageRule) || rule.selectorText) continue;
      const size = rule.style.getPropertyValue('size').trim().toLowerCase().split(/\s+/).filter(Boolean);
      if (size.length) {
        const landscape = size.includes('landscape');
        const words = size.filter((w) => w !== 'landscape' && w !== 'portrait' && w !== 'auto');
        let pair = null;
        if (words.length && named[words[0]]) pair = named[words[0]].slice();
        else if (words.length) pair = [length(words[0]), length(words[1] ?? words[0])];
        else if (landscape) pair = [width, height];
        if (pair && pair[0] > 0 && pair[1] > 0) {
          if (landscape && pair[0] < pair[1]) pair.reverse();
          [width, height] = pair;
        }
      }
      margins = ['top', 'right', 'bottom', 'left'].map((side, i) => {
        const value = rule.style.getPropertyValue('margin-' + side);
        return value ? length(value) : margins[i];
      });
    }
    const px = (v) => (v * 96) / 25.4;
    return { width: px(width - margins[1] - margins[3]), height: px(height - margins[0] - margins[2]) };
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
    roots.push({ record, root, page, recordBody });
  });
  if (fontFaces) {
    const faces = document.createElement('style');
    faces.textContent = fontFaces;
    document.head.append(faces);
  }
  if (prepareRecord) for (const { root } of roots) prepareRecord(root);

  for (const entry of roots) {
    const { root } = entry;
    if (root.querySelector('link[rel~="stylesheet" i]')) refuse('the template links a style sheet');
    const found = [];
    styledPseudo = false;
    for (const sheet of Array.from(root.styleSheets)) walk(sheet.cssRules, true, found);
    entry.styledPseudo = styledPseudo;
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
  window.__noticeDeskBatch = roots;
  return { alone, page: pageArea(documentRules[0] || '') };
}`;

/**
 * Runs in the page after buildBatchInPage, laid out at the printed page's width in print media:
 * the indexes of the records whose painted content is not proven to lie inside their own record's box.
 * Such a record prints in a document of its own; the rest share the batch's document. The proof reads
 * geometry after layout (transforms, offsets, overflow and margins included), not the template:
 * - every rendered element's boxes, grown by its box shadow and outline;
 * - every text run's boxes (Range.getClientRects), grown by its text shadow;
 * - a list item's marker, within 2.5em of its item;
 * - what no geometry query reaches makes the record unproven: pseudo-elements styled by the template,
 *   filters, reflections, SVG markers, border images drawn outside their box, replaced content allowed
 *   to overflow its box.
 */
export const proveRecordsInPage = String.raw`() => {
  const roots = window.__noticeDeskBatch || [];
  const slack = 1;
  const lengths = (value) => !value || value === 'none' ? 0 :
    (value.match(/-?[\d.]+px/g) || []).reduce((sum, l) => sum + Math.abs(parseFloat(l)), 0);
  const unrendered = 'defs,symbol,pattern,marker,clipPath,mask,filter,linearGradient,radialGradient,title,desc,metadata,style,template,head';
  const replaced = /^(img|video|canvas|object|embed|iframe|input)$/i;
  const unproven = [];
  roots.forEach(({ record, root, styledPseudo }, index) => {
    const box = record.getBoundingClientRect();
    const inside = (r, grow = 0) =>
      r.left - grow >= box.left - slack && r.right + grow <= box.right + slack &&
      r.top - grow >= box.top - slack && r.bottom + grow <= box.bottom + slack;
    const proven = () => {
      if (styledPseudo) return false;
      for (const element of Array.from(root.querySelectorAll('*'))) {
        if (element.parentElement && element.parentElement.closest(unrendered)) continue;
        const style = getComputedStyle(element);
        if (style.filter !== 'none' || (style.webkitBoxReflect || 'none') !== 'none') return false;
        if (style.markerStart !== 'none' || style.markerMid !== 'none' || style.markerEnd !== 'none') return false;
        if (style.borderImageSource !== 'none' && style.borderImageOutset.split(/\s+/).some((v) => parseFloat(v) !== 0)) return false;
        if (replaced.test(element.localName) && !(style.overflow === 'clip' || style.overflow === 'hidden') ) {
          if (style.objectFit !== 'fill' || style.objectPosition !== '50% 50%') return false;
        }
        const grow = lengths(style.boxShadow) +
          (style.outlineStyle !== 'none' ? Math.abs(parseFloat(style.outlineWidth) || 0) + Math.abs(parseFloat(style.outlineOffset) || 0) : 0);
        for (const r of Array.from(element.getClientRects())) if (!inside(r, grow)) return false;
        if (style.display.includes('list-item') && (style.listStyleType !== 'none' || style.listStyleImage !== 'none')) {
          const r = element.getBoundingClientRect();
          const em = 2.5 * (parseFloat(style.fontSize) || 16);
          if (r.width || r.height) {
            if (!inside({ left: r.left - em, right: r.right + em, top: r.top, bottom: r.bottom })) return false;
          }
        }
      }
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        const parent = text.parentElement;
        if (!parent || !text.data.trim() || parent.closest(unrendered)) continue;
        range.selectNodeContents(text);
        const grow = lengths(getComputedStyle(parent).textShadow);
        for (const r of Array.from(range.getClientRects())) if (!inside(r, grow)) return false;
      }
      return true;
    };
    if (!proven()) unproven.push(index);
  });
  return unproven;
}`;

/**
 * Runs in the page: takes the records at `drop` (indexes) out of the shared document and numbers the
 * markers of those left from 0, so that the document prints only the proven records, in order.
 */
export const dropRecordsInPage = String.raw`({ drop, prefix }) => {
  const roots = window.__noticeDeskBatch || [];
  const leaving = new Set(drop);
  const kept = roots.filter((_, i) => !leaving.has(i));
  roots.forEach(({ record }, i) => { if (leaving.has(i)) record.remove(); });
  kept.forEach(({ record }, i) => {
    record.querySelector(':scope > a').href = prefix + i;
    record.style.setProperty('break-before', i === 0 ? 'auto' : 'page', 'important');
  });
  window.__noticeDeskBatch = kept;
}`;
