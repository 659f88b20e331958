import { parse } from 'content-disposition';
import { describe, expect, it } from 'vitest';
import { asciiFallback, attachment, inline } from './content-disposition.ts';
import { safeFileName } from './file-names.ts';

describe('download names', () => {
  it.each([
    ['LN100012 राजेश शर्मा.pdf', 'LN100012.pdf'],
    ['LN100013 கார்த்திகேயன்.zip', 'LN100013.zip'],
    ['محمد عمران خان report.xlsx', 'report.xlsx'],
    ['Émile "Zola" 50%.pdf', 'Emile Zola 50.pdf'],
    ['राजेश.pdf', 'download.pdf'],
  ])('%s: filename* in UTF-8 (RFC 5987) for browsers, %s for the rest', (name, fallback) => {
    expect(asciiFallback(name)).toBe(fallback);
    for (const header of [attachment(name), inline(name)]) {
      expect(header).toMatch(/^[\x20-\x7e]+$/);
      expect(parse(header).parameters.filename).toBe(name);
      expect(parse(header, { extended: false }).parameters.filename).toBe(fallback);
    }
  });

  it('keep vowel signs, viramas and joiners; replace separators and direction overrides; cut whole characters', () => {
    expect(safeFileName('LN1 र्‍ज / क्‌ष', 50)).toBe('LN1 र्‍ज _ क्‌ष');
    expect(safeFileName('invoice\u202Efdp.exe', 50)).toBe('invoice_fdp.exe');
    expect(safeFileName('e\u0301cole', 50)).toBe('\u00e9cole');
    const long = 'शर्मा '.repeat(400);
    const cut = safeFileName(long, 120);
    expect(
      [...new Intl.Segmenter('hi', { granularity: 'grapheme' }).segment(cut)].length,
    ).toBeLessThanOrEqual(120);
    expect(cut.endsWith('्')).toBe(false);
  });
});
