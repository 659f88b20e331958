/**
 * Excel's locale-dependent built-in date formats. A cell with built-in format 14 ("short date") or 22
 * ("short date and time") stores only the id; Excel draws it with the reader's regional settings, so
 * the same cell reads 5/12/2024 in the US and 12-05-2024 in India. These give the format code Excel
 * would use under a locale, so an import shows what a person there sees in Excel.
 */

/** Built-ins that look the same under every locale (ECMA-376 §18.8.30). */
const FIXED: Readonly<Record<number, string>> = {
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
};

/**
 * East Asian (27–36, 50–58) and Thai (71–81) built-ins: outside those locales Excel draws them as
 * the id given here (as SheetJS measured in Excel 2019). Their era and 年月日 forms are not drawn.
 */
const ALIASES: Readonly<Record<number, number>> = {
  27: 14,
  28: 14,
  29: 14,
  30: 14,
  31: 14,
  32: 20,
  33: 21,
  34: 14,
  35: 14,
  36: 14,
  50: 14,
  51: 14,
  52: 14,
  53: 14,
  54: 14,
  55: 14,
  56: 14,
  57: 14,
  58: 14,
  71: 14,
  72: 14,
  73: 15,
  74: 16,
  75: 17,
  76: 20,
  77: 21,
  78: 22,
  79: 45,
  80: 46,
  81: 47,
};

/** Literal text a format code may hold unquoted between date parts; others are quoted ("."), as SSF needs. */
const PLAIN_SEPARATOR = /^[-/: ]+$/;

/**
 * Windows' short date where it differs from what Intl (CLDR) prints: India's regional settings write
 * dd-MM-yyyy (CLDR has dd/MM/yyyy), the US M/d/yyyy without leading zeros.
 */
function windowsShortDate(locale: Intl.Locale): string | undefined {
  if (locale.region === 'IN') return 'dd-mm-yyyy';
  if (locale.language === 'en' && locale.region === 'US') return 'm/d/yyyy';
  return undefined;
}

/** The short date as the locale's Intl order and separators give it, day and month with two digits. */
function intlShortDate(locale: string): string {
  const parts = new Intl.DateTimeFormat(locale, {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    calendar: 'gregory',
    numberingSystem: 'latn',
  }).formatToParts(new Date(Date.UTC(2024, 4, 12, 12)));
  const code = parts
    .map((part) => {
      if (part.type === 'day') return 'dd';
      if (part.type === 'month') return 'mm';
      if (part.type === 'year') return 'yyyy';
      // Bidi marks are layout, not text.
      const literal = part.value.replace(/[\u200e\u200f\u061c]/g, '');
      return PLAIN_SEPARATOR.test(literal) || literal === '' ? literal : `"${literal.replace(/"/g, '')}"`;
    })
    .join('');
  return /d/.test(code) && /m/.test(code) && /y/.test(code) ? code : 'dd-mm-yyyy';
}

const shortDates = new Map<string, string>();

/** Built-in 14 under a locale: 'dd-mm-yyyy' for en-IN (and every Indian locale), 'm/d/yyyy' for en-US. */
export function shortDateFormat(locale: string): string {
  let code = shortDates.get(locale);
  if (code === undefined) {
    const maximized = new Intl.Locale(locale).maximize();
    code = windowsShortDate(maximized) ?? intlShortDate(locale);
    shortDates.set(locale, code);
  }
  return code;
}

/**
 * The format code Excel uses for a built-in date or time format id under `locale`, such as
 * en-IN 14 → 'dd-mm-yyyy', 22 → 'dd-mm-yyyy hh:mm'; en-US 14 → 'm/d/yyyy', 22 → 'm/d/yyyy h:mm'.
 * Undefined for an id that is no date or time (numbers, text, a custom format's id).
 */
export function builtinDateFormat(id: number, locale: string): string | undefined {
  const builtin = ALIASES[id] ?? id;
  if (builtin === 14) return shortDateFormat(locale);
  if (builtin === 22) {
    const date = shortDateFormat(locale);
    // Hours padded as the day is: 12-05-2024 09:05, but 5/12/2024 9:05.
    return `${date} ${date.includes('dd') ? 'hh' : 'h'}:mm`;
  }
  return Object.hasOwn(FIXED, builtin) ? FIXED[builtin] : undefined;
}

/** Which part a locale's short date reads first: 12-05-2024 is day-first in India, May 12th in the US. */
export function shortDateOrder(locale: string): 'day' | 'month' | 'year' {
  const first = /[dmy]/.exec(shortDateFormat(locale).replace(/"[^"]*"/g, ''))?.[0];
  return first === 'm' ? 'month' : first === 'y' ? 'year' : 'day';
}

export interface CalendarDate {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
}

/** A date written in the locale's short date (built-in 14): 20-05-2024 under en-IN. */
export function formatShortDate(date: CalendarDate, locale: string): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return shortDateFormat(locale).replace(/"([^"]*)"|yyyy|yy|dd|d|mm|m/g, (token, quoted?: string) => {
    if (quoted !== undefined) return quoted;
    if (token === 'yyyy') return String(date.year).padStart(4, '0');
    if (token === 'yy') return two(date.year % 100);
    if (token === 'dd') return two(date.day);
    if (token === 'd') return String(date.day);
    if (token === 'mm') return two(date.month);
    return String(date.month);
  });
}
