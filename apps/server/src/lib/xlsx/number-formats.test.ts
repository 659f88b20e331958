import { describe, expect, it } from 'vitest';
import { CellProblemError, formatCell, type CellContext } from './cell-text.ts';
import { parseStyles } from './styles.ts';

/** The text a cell shows under a custom format code: a number cell for a number, an inline string for text. */
function shows(formatCode: string, value: number | string): string {
  const escaped = formatCode.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const styles = `<styleSheet><numFmts><numFmt numFmtId="164" formatCode="${escaped}"/></numFmts><cellXfs><xf numFmtId="0"/><xf numFmtId="164"/></cellXfs></styleSheet>`;
  const context: CellContext = {
    shared: undefined,
    formats: parseStyles(styles, 'xl/styles.xml', 'en-IN'),
    date1904: false,
    calculateOnLoad: false,
    locale: 'en-IN',
  };
  const cell = typeof value === 'number' ? { value: String(value) } : { type: 'inlineStr', inline: value };
  return formatCell(
    { type: undefined, style: 1, value: undefined, inline: undefined, hasFormula: false, ...cell },
    context,
  );
}

describe('Indian digit grouping: the last three digits, then twos, as Excel draws it', () => {
  it.each([
    ['#,##,##0.00', 1250000.5, '12,50,000.50'],
    ['[$₹-4009]#,##,##0.00', 1250000.5, '₹12,50,000.50'],
    ['[$-4009]#,##,##0.00', 1250000.5, '12,50,000.50'],
    ['[$₹-4009] #,##,##0', 123456789, '₹ 12,34,56,789'],
    ['##,##,##0', 1234567890, '1,23,45,67,890'],
    ['#,##,##0.00', 999.5, '999.50'],
    ['#,##,##0.00', 12345, '12,345.00'],
    ['#,##,##0.00', 123456, '1,23,456.00'],
    ['#,##,##0.00', 0, '0.00'],
    ['#,##,##0.00 "Cr"', 1250000.5, '12,50,000.50 Cr'],
    ['[$₹-4009]#,##,##0.00;[RED]-[$₹-4009]#,##,##0.00', -1250000.5, '-₹12,50,000.50'],
    // Excel's Indian accounting format (en-IN's built-in), with its spacing and fill.
    [
      '_ [$₹-4009]\\ * #,##,##0.00_ ;_ [$₹-4009]\\ * \\-#,##,##0.00_ ;_ [$₹-4009]\\ * "-"??_ ;_ @_ ',
      1250000.5,
      ' ₹ 12,50,000.50 ',
    ],
  ])('%s draws %s as %s', (code, value, text) => {
    expect(shows(code, value)).toBe(text);
  });

  it('grouping in threes is left as it is', () => {
    expect(shows('#,##0.00', 1250000.5)).toBe('1,250,000.50');
    expect(shows('[$₹-4009] #,##0.00', 1250000.5)).toBe('₹ 1,250,000.50');
    // A locale tag without a symbol shows nothing (SSF alone draws it as a dollar sign).
    expect(shows('[$-409]#,##0.00', 1250000.5)).toBe('1,250,000.50');
  });
});

describe('a format the import cannot draw: a problem of the cell, never General in silence', () => {
  it.each([
    ['grouping in neither threes nor Indian twos', '#,###,##0'],
    ['Indian grouping padded with zeros', '00,00,000'],
    ['Indian grouping beside a literal holding digits', '"Rs 1,000 x " #,##,##0'],
  ])('%s', (_, code) => {
    expect(() => shows(code, 1250000.5)).toThrow(
      new CellProblemError(
        `The cell's number format '${code}' is one the import cannot draw, so 1250000.5 cannot be read as Excel shows it. Give the column a standard number format in Excel (Home, Number Format), save, and import again.`,
      ),
    );
  });
});

describe('a text section the import cannot draw: a problem of the cell, not the bare text', () => {
  it('five sections, which no format has', () => {
    expect(() => shows('#,##0;-0;0;"Ref "@;"y"@', 'LN-1')).toThrow(
      new CellProblemError(
        `The cell's number format '#,##0;-0;0;"Ref "@;"y"@' is one the import cannot draw, so 'LN-1' cannot be read as Excel shows it. Give the column a standard number format in Excel (Home, Number Format), save, and import again.`,
      ),
    );
  });
});
