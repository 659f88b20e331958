import SSF from 'ssf';
import { describe, expect, it } from 'vitest';
import { builtinDateFormat, formatShortDate, shortDateFormat, shortDateOrder } from './locale-formats.ts';

const may12 = { year: 2024, month: 5, day: 12 };

describe('Excel’s locale-dependent date formats', () => {
  it('read day first with dashes in India, as Windows’ regional settings there write them', () => {
    for (const locale of ['en-IN', 'hi-IN', 'ta-IN', 'bn-IN', 'mr-IN', 'ur-IN', 'hi', 'ta']) {
      expect(builtinDateFormat(14, locale), locale).toBe('dd-mm-yyyy');
      expect(builtinDateFormat(22, locale), locale).toBe('dd-mm-yyyy hh:mm');
      expect(formatShortDate(may12, locale)).toBe('12-05-2024');
    }
  });

  it('read as Excel in the US does: m/d/yyyy, no leading zeros', () => {
    for (const locale of ['en-US', 'en']) {
      expect(builtinDateFormat(14, locale)).toBe('m/d/yyyy');
      expect(builtinDateFormat(22, locale)).toBe('m/d/yyyy h:mm');
      expect(formatShortDate(may12, locale)).toBe('5/12/2024');
    }
  });

  it.each([
    ['en-GB', 'dd/mm/yyyy', '12/05/2024'],
    ['de-DE', 'dd"."mm"."yyyy', '12.05.2024'],
    ['ko-KR', 'yyyy". "mm". "dd"."', '2024. 05. 12.'],
    ['nl-NL', 'dd-mm-yyyy', '12-05-2024'],
    ['ja-JP', 'yyyy/mm/dd', '2024/05/12'],
    ['sv-SE', 'yyyy-mm-dd', '2024-05-12'],
    ['th-TH', 'dd/mm/yyyy', '12/05/2024'],
    ['ar-EG', 'dd/mm/yyyy', '12/05/2024'],
  ])('follow the Intl order and separators elsewhere: %s', (locale, code, shown) => {
    expect(shortDateFormat(locale)).toBe(code);
    expect(formatShortDate(may12, locale)).toBe(shown);
  });

  it('give every locale a short date with day, month and a four-digit year, in Gregorian years', () => {
    for (const locale of Intl.DateTimeFormat.supportedLocalesOf([
      ...['en-IN', 'en-US', 'en-GB', 'fr-FR', 'de-DE', 'ja-JP', 'zh-CN', 'ko-KR', 'ar-SA', 'fa-IR'],
      ...['th-TH', 'he-IL', 'ru-RU', 'pt-BR', 'ur-PK', 'ne-NP', 'si-LK', 'my-MM', 'am-ET'],
    ])) {
      const code = shortDateFormat(locale);
      expect(code.replace(/"[^"]*"/g, ''), locale).toMatch(/^(?=.*d)(?=.*m)(?=.*yyyy)[dmy\-/: ]+$/);
      expect(formatShortDate(may12, locale), locale).toContain('2024');
    }
  });

  it('are codes the sheet reader’s formatter (SSF) draws as dates, as Excel would', () => {
    const may12At0905 = 45424 + (9 * 60 + 5) / 1440;
    for (const locale of [
      'en-IN',
      'hi-IN',
      'en-US',
      'en-GB',
      'de-DE',
      'ja-JP',
      'ko-KR',
      'zh-CN',
      'ar-EG',
      'fr-CA',
    ]) {
      for (const id of [14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 32, 36, 45, 46, 47, 50, 58, 71, 78, 81]) {
        const code = builtinDateFormat(id, locale)!;
        expect(SSF.is_date(code), `${locale} ${id} ${code}`).toBe(true);
        expect(() => SSF.format(code, may12At0905), `${locale} ${id} ${code}`).not.toThrow();
      }
      expect(SSF.format(builtinDateFormat(14, locale)!, may12At0905)).toBe(formatShortDate(may12, locale));
    }
    expect(SSF.format(builtinDateFormat(22, 'en-IN')!, may12At0905)).toBe('12-05-2024 09:05');
    expect(SSF.format(builtinDateFormat(22, 'en-US')!, may12At0905)).toBe('5/12/2024 9:05');
  });

  it('alias the East Asian and Thai ids to the short date, as Excel outside those locales does', () => {
    for (const id of [27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58, 71, 72]) {
      expect(builtinDateFormat(id, 'en-IN'), String(id)).toBe('dd-mm-yyyy');
      expect(builtinDateFormat(id, 'en-US'), String(id)).toBe('m/d/yyyy');
    }
    expect(builtinDateFormat(78, 'en-IN')).toBe('dd-mm-yyyy hh:mm');
    expect(builtinDateFormat(32, 'en-IN')).toBe('h:mm');
    expect(builtinDateFormat(33, 'en-IN')).toBe('h:mm:ss');
  });

  it('keep the formats that look alike everywhere, and know no format for numbers or text', () => {
    for (const locale of ['en-IN', 'en-US', 'de-DE']) {
      expect(builtinDateFormat(15, locale)).toBe('d-mmm-yy');
      expect(builtinDateFormat(16, locale)).toBe('d-mmm');
      expect(builtinDateFormat(17, locale)).toBe('mmm-yy');
      expect(builtinDateFormat(18, locale)).toBe('h:mm AM/PM');
      expect(builtinDateFormat(21, locale)).toBe('h:mm:ss');
      expect(builtinDateFormat(46, locale)).toBe('[h]:mm:ss');
    }
    for (const id of [0, 1, 2, 3, 4, 9, 10, 11, 12, 13, 37, 40, 48, 49, 59, 164, 200, -1, 1.5, NaN])
      expect(builtinDateFormat(id, 'en-IN'), String(id)).toBeUndefined();
  });

  it('say which part an all-number date gives first', () => {
    expect(shortDateOrder('en-IN')).toBe('day');
    expect(shortDateOrder('en-GB')).toBe('day');
    expect(shortDateOrder('en-US')).toBe('month');
    expect(shortDateOrder('ja-JP')).toBe('year');
  });
});
