import SSF from 'ssf';
import type { CellFormat } from './cell-text.ts';
import { lakhGroupedCode } from './lakh-grouping.ts';
import { builtinDateFormat } from './locale-formats.ts';
import { parseXml } from './xml.ts';

/**
 * For each cell style index (a cell's s="…"), its number format. A format the workbook defines wins
 * over the built-in of the same id, as in Excel: some writers redefine 0 (General) or 14.
 */
export function parseStyles(xml: string, part: string, locale: string): CellFormat[] {
  const custom = new Map<number, string>();
  const formatIds: number[] = [];
  const open: string[] = [];
  parseXml(xml, part, {
    open(name, attributes) {
      if (name === 'numFmt' && attributes.formatCode !== undefined) {
        custom.set(Number(attributes.numFmtId), attributes.formatCode);
      } else if (name === 'xf' && open.at(-1) === 'cellXfs') {
        formatIds.push(Number(attributes.numFmtId ?? 0));
      }
      open.push(name);
    },
    close: () => void open.pop(),
  });
  return formatIds.map((id) => {
    const own = custom.get(id);
    // A format redefined as '' or 'General' is General: SSF would show '' for every number under ''.
    const code =
      own === undefined ? (builtinDateFormat(id, locale) ?? id) : /^\s*(general)?\s*$/i.test(own) ? 0 : own;
    const text = typeof code === 'number' ? (SSF.get_table() as Record<number, string>)[code] : code;
    const drawn = typeof code === 'string' ? withoutLocaleTags(code) : code;
    const lakhCode = typeof drawn === 'string' ? lakhGroupedCode(drawn) : undefined;
    return {
      code: lakhCode ?? drawn,
      lakhGrouping: lakhCode !== undefined,
      isDate: isDateFormat(text),
      isGeneral: code === 0,
      hasTextSection: typeof code === 'string' && (code.includes('@') || code.split(';').length >= 4),
    };
  });
}

function isDateFormat(text: string | undefined): boolean {
  try {
    return text !== undefined && SSF.is_date(text);
  } catch {
    return false;
  }
}

/**
 * A code without its locale-only tags ([$-4009], [$-409]): they choose the language of month names
 * and show nothing, but SSF draws them as a dollar sign ($12,50,000.50). Tags with a symbol ([$₹-4009])
 * are kept: SSF draws their symbol.
 */
function withoutLocaleTags(code: string): string {
  return code.replace(/"[^"]*"|\\.|\[\$-[^\]]*\]/g, (token) => (token.startsWith('[') ? '' : token));
}
