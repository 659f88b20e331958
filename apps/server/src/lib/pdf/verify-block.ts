import { languageOf } from '@notice-desk/contract/languages';
import QRCode from 'qrcode';
import { escapeHtml } from '../escape-html.ts';

/** The public verification page of a notice: `APP_URL/v/<code>` (issue 30). */
export const verifyLink = (appUrl: string, code: string) => `${appUrl}/v/${code}`;

/**
 * The line above the link, in the notice's language where the notice and verification pages have
 * their words (English and Hindi), else English.
 */
const verifyWords: Record<string, string> = {
  en: 'Verify this notice: scan the code or open',
  hi: 'इस नोटिस का सत्यापन करें: कोड स्कैन करें या यह पता खोलें',
};

/**
 * The block every notice ends with: a QR code (inline SVG, drawn by the `qrcode` package) and beside
 * it the same link as text, under a line in `language` (the template's). It follows the template's
 * content in the flow of the page, never on top of it, and is kept whole on one page. Its styles are
 * inline, so a template's rules do not move it. The same link gives the same SVG: the notice stays
 * byte-reproducible.
 */
export async function verifyBlockHtml(link: string, language?: string | null): Promise<string> {
  const words = verifyWords[languageOf(language ?? '')?.code ?? 'en'] ?? verifyWords.en!;
  const svg = (await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }))
    .trim()
    .replace('<svg ', '<svg width="17mm" height="17mm" style="display:block" ');
  return (
    '<div data-notice-verify style="all:initial;display:flex;align-items:center;clear:both;' +
    'break-inside:avoid;page-break-inside:avoid;margin:3mm 0 0;padding:0;direction:ltr;text-align:left">' +
    `<div style="flex:none;width:17mm;height:17mm;margin:0 3mm 0 0">${svg}</div>` +
    '<div style="font-family:\'Notice Sans\',sans-serif;font-size:8.5pt;line-height:1.4;color:#000;overflow-wrap:anywhere">' +
    `${words}<br>` +
    `<span style="font-size:9.5pt;font-weight:bold">${escapeHtml(link)}</span></div></div>`
  );
}

/** The notice's HTML with the verification block at the end of its body. */
export function withVerifyBlock(html: string, block: string): string {
  const at = html.search(/<\/body\s*>/i);
  return at < 0 ? `${html}${block}` : `${html.slice(0, at)}${block}${html.slice(at)}`;
}
