import { toSVG } from 'bwip-js/node';
import type { LabelLayout, PostEnvelope } from '@notice-desk/contract/post';
import { escapeHtml } from '../../lib/escape-html.ts';

/** What a letter's address block and label print: the addressee, the lines, the article number. */
export interface Letter {
  name: string;
  lines: string[];
  articleNumber: string | null;
  /** Under the block, small: the loan number, so a returned envelope finds its record. */
  reference: string;
}

/**
 * Where a window envelope's window falls on an A4 sheet, in mm from the sheet's top left. DL (110 ×
 * 220 mm, the sheet folded in three): the address field of DIN 5008 form B, 20 mm from the left and
 * 45 mm down, 85 × 45 mm, which DL windows (ISO 269 / DIN 680: 90 × 45 mm, 20 mm in) show. C5 (162 ×
 * 229 mm, the sheet folded once): 20 mm in and 50 mm down, 90 × 45 mm, the common C5 window.
 */
export const envelopeWindows: Record<
  PostEnvelope,
  { left: number; top: number; width: number; height: number }
> = {
  DL: { left: 20, top: 45, width: 85, height: 45 },
  C5: { left: 20, top: 50, width: 90, height: 45 },
};

/** The article number as a Code 128 barcode (bwip-js), an SVG data URL the renderer may load. */
export function barcodeDataUrl(articleNumber: string): string {
  const svg = toSVG({ bcid: 'code128', text: articleNumber, height: 9, includetext: false });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

const PAGE_STYLE = `@page{size:A4;margin:0}html,body{margin:0;padding:0;font-family:'Noto Sans',sans-serif;color:#000}`;

/**
 * One carrier page per letter: the address block where the envelope's window shows it, the article
 * number as text and barcode under it once known, and the sender above as the return address. The
 * notice follows on its own pages, unchanged, so the paper is the very file whose hash the trail keeps.
 */
export function carrierHtml(letters: readonly Letter[], envelope: PostEnvelope, sender: string): string {
  const w = envelopeWindows[envelope];
  const pages = letters.map((letter) => {
    const article = letter.articleNumber
      ? `<div class="article"><img alt="" src="${barcodeDataUrl(letter.articleNumber)}"><div>${escapeHtml(letter.articleNumber)}</div></div>`
      : '';
    return `<section class="sheet">${sender ? `<div class="sender">From: ${escapeHtml(sender)}</div>` : ''}<div class="window"><div class="to">${escapeHtml(letter.name)}</div>${letter.lines.map((line) => `<div>${escapeHtml(line)}</div>`).join('')}</div>${article}<div class="reference">Ref: ${escapeHtml(letter.reference)}</div></section>`;
  });
  return `<!doctype html><html><head><meta charset="utf-8"><style>${PAGE_STYLE}
.sheet{position:relative;width:210mm;height:296mm;overflow:hidden;break-after:page}
.sheet:last-child{break-after:auto}
.sender{position:absolute;left:${w.left}mm;top:${w.top - 12}mm;width:${w.width + 60}mm;font-size:8pt;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.window{position:absolute;left:${w.left + 3}mm;top:${w.top + 3}mm;width:${w.width - 6}mm;height:${w.height - 6}mm;font-size:10.5pt;line-height:1.3;overflow:hidden}
.to{font-weight:700}
.article{position:absolute;left:${w.left + w.width + 8}mm;top:${w.top + 3}mm;width:70mm;font-size:10pt;font-family:monospace;text-align:center}
.article img{width:64mm;height:13mm;display:block;margin:0 auto 1mm}
.reference{position:absolute;left:${w.left + 3}mm;top:${w.top + w.height + 2}mm;font-size:8pt}
</style></head><body>${pages.join('')}</body></html>`;
}

/** A4 label sheets: the grid and each label's size in mm. */
export const labelGrids: Record<LabelLayout, { columns: number; rows: number }> = {
  '2x7': { columns: 2, rows: 7 },
  '3x8': { columns: 3, rows: 8 },
};

/** One page per sheet of labels, in the order given, each label the address block and article number. */
export function labelsHtml(letters: readonly Letter[], layout: LabelLayout): string {
  const { columns, rows } = labelGrids[layout];
  const perSheet = columns * rows;
  const width = 210 / columns;
  const height = 296 / rows;
  const sheets: string[] = [];
  for (let i = 0; i < letters.length; i += perSheet) {
    const labels = letters
      .slice(i, i + perSheet)
      .map(
        (letter) =>
          `<div class="label"><div class="to">${escapeHtml(letter.name)}</div>${letter.lines.map((line) => `<div>${escapeHtml(line)}</div>`).join('')}${letter.articleNumber ? `<div class="article">${escapeHtml(letter.articleNumber)}</div>` : ''}</div>`,
      );
    sheets.push(`<section class="sheet">${labels.join('')}</section>`);
  }
  const fontSize = layout === '2x7' ? 9.5 : 8;
  return `<!doctype html><html><head><meta charset="utf-8"><style>${PAGE_STYLE}
.sheet{width:210mm;height:296mm;overflow:hidden;break-after:page;display:grid;grid-template-columns:repeat(${columns},${width}mm);grid-auto-rows:${height}mm}
.sheet:last-child{break-after:auto}
.label{box-sizing:border-box;padding:3mm 5mm;overflow:hidden;font-size:${fontSize}pt;line-height:1.25}
.to{font-weight:700}
.article{font-family:monospace;margin-top:1mm}
</style></head><body>${sheets.join('')}</body></html>`;
}

/** The last page of a print file when some notices could not print: which, and why. */
export function notPrintedHtml(lines: readonly string[]): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>${PAGE_STYLE}body{padding:20mm;font-size:10pt}</style></head><body><h1 style="font-size:14pt">Not printed</h1><p>These notices could not print and are not in this file:</p><ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul></body></html>`;
}
