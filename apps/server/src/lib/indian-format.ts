import { amountLanguages, rupeesInWords } from './amount-words.ts';
import { formatShortDate, shortDateOrder, type CalendarDate } from './xlsx/locale-formats.ts';

/**
 * Amounts and dates as legal notices in India state them: ₹1,25,000.50, 'One Lakh Twenty-Five Thousand
 * Rupees and Fifty Paise', 20-05-2024. Each takes the text a record holds and gives it back unchanged
 * when it is no amount or no date: a notice never prints a guess.
 *
 * Amounts are read as decimal text, never as a float, so crores of crores keep every digit; an amount
 * with a fraction of a paisa (125.505) is never rounded, it prints as the record holds it.
 */

/** Where documents are read: LOCALE and TIME_ZONE. */
export interface DocumentLocale {
  locale: string;
  timeZone: string;
}

export const INDIAN_DEFAULTS: DocumentLocale = { locale: 'en-IN', timeZone: 'Asia/Kolkata' };

/** The zero of each script's digits a sheet from India may hold: Devanagari ०, Bengali ০, Tamil ௦ … */
const DIGIT_ZEROS = [
  0x0660, 0x06f0, 0x0966, 0x09e6, 0x0a66, 0x0ae6, 0x0b66, 0x0be6, 0x0c66, 0x0ce6, 0x0d66, 0xff10,
];

/** The text with every Indian-script (and Arabic, full-width) digit as its ASCII digit: ०१२ → 012. */
export function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (digit) => {
    const code = digit.codePointAt(0)!;
    const zero = DIGIT_ZEROS.find((z) => code >= z && code <= z + 9);
    return zero === undefined ? digit : String(code - zero);
  });
}

export interface Amount {
  negative: boolean;
  /** Whole rupees: digits without leading zeros ('0' for none). */
  rupees: string;
  /** Two digits. */
  paise: string;
}

/** Plain digits, Western grouping (1,250,000) or Indian grouping (12,50,000); nothing else. */
const AMOUNT = /^(\d+|\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})*,\d{3})?(?:\.(\d*))?$/;

/**
 * An amount as a record may hold it: 125000.5, 1,25,000.50, Rs. 125000.50, ₹ 1,25,000, INR 500/-,
 * -500, (500), ₹-500, Indian-script digits. Undefined for anything else: commas out of place, words,
 * NaN, Infinity, 1e21 (scientific notation claims digits the sheet does not have), and an amount
 * with a fraction of a paisa that is not zero (125.505), which is never rounded.
 */
export function parseAmount(text: string): Amount | undefined {
  let rest = asciiDigits(text)
    .trim()
    .replace(/\u2212/g, '-');
  const bracketed = /^\((.*)\)$/.exec(rest);
  if (bracketed) rest = bracketed[1]!.trim();
  // One sign at most, before or after the currency: -₹500, ₹-500, (500).
  const [, before = '', after = ''] = /^([-+]?)\s*(?:(?:₹|rs\.?|inr)\s*)?([-+]?)\s*/i.exec(rest)!;
  const signs = (bracketed ? '-' : '') + before + after;
  if (signs.length > 1) return undefined;
  rest = rest.replace(/^[-+]?\s*(?:(?:₹|rs\.?|inr)\s*)?[-+]?\s*/i, '').replace(/\s*\/-$/, '');
  const match = AMOUNT.exec(rest);
  if (!match || rest === '' || rest === '.') return undefined;
  const fraction = (match[2] ?? '').replace(/(?<=^\d\d)0+$/, '');
  if (fraction.length > 2) return undefined;
  const rupees = (match[1] ?? '').replace(/,/g, '').replace(/^0+(?=\d)/, '') || '0';
  const paise = fraction.padEnd(2, '0');
  return { negative: signs === '-' && (rupees !== '0' || paise !== '00'), rupees, paise };
}

/** Digits grouped as India writes them: 12345678 → 1,23,45,678. */
export function groupIndian(digits: string): string {
  if (digits.length <= 3) return digits;
  const head = digits.slice(0, -3);
  const pairs: string[] = [];
  for (let end = head.length; end > 0; end -= 2) pairs.unshift(head.slice(Math.max(0, end - 2), end));
  return `${pairs.join(',')},${digits.slice(-3)}`;
}

/** `{{field | inr}}`: ₹1,25,000.50, -₹500.00, ₹0.00; the text as it is when it holds no amount. */
export function formatInr(text: string): string {
  const amount = parseAmount(text);
  if (!amount) return text;
  return `${amount.negative ? '-' : ''}₹${groupIndian(amount.rupees)}.${amount.paise}`;
}

const ONES = [
  'Zero',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

/** 1–99: 'Seven', 'Nineteen', 'Twenty-Five'. */
const belowHundred = (n: number) =>
  n < 20 ? ONES[n]! : `${TENS[Math.floor(n / 10)]}${n % 10 ? `-${ONES[n % 10]}` : ''}`;

/** 1 to 99,99,999 in words: 'One Lakh Twenty-Five Thousand Three Hundred Seven'. */
function belowCrore(n: number): string[] {
  const words: string[] = [];
  const lakhs = Math.floor(n / 100_000);
  const thousands = Math.floor(n / 1000) % 100;
  const hundreds = Math.floor(n / 100) % 10;
  if (lakhs) words.push(belowHundred(lakhs), 'Lakh');
  if (thousands) words.push(belowHundred(thousands), 'Thousand');
  if (hundreds) words.push(ONES[hundreds]!, 'Hundred');
  if (n % 100) words.push(belowHundred(n % 100));
  return words;
}

/** Longest rupee amount said in words: below a crore crore crore (10^21). */
export const WORDS_MAX_DIGITS = 21;

/** Whole rupees in the Indian system: each seven digits up is one more Crore ('One Crore Crore'). */
function wholeInWords(digits: string): string {
  const words: string[] = [];
  const groups = Math.ceil(digits.length / 7);
  for (let group = groups - 1; group >= 0; group--) {
    const end = digits.length - group * 7;
    const value = Number(digits.slice(Math.max(0, end - 7), end));
    if (value) words.push(...belowCrore(value), ...Array<string>(group).fill('Crore'));
  }
  return words.join(' ');
}

/**
 * `{{field | words}}`: 'One Lakh Twenty-Five Thousand Rupees and Fifty Paise', as legal notices state
 * amounts. One Rupee and One Paisa are singular; 0 is 'Zero Rupees'; 0.50 is 'Fifty Paise'; a negative
 * amount starts 'Minus'. No 'and' inside a number, so 'and' only ever joins rupees to paise. The text
 * as it is when it holds no amount or more than WORDS_MAX_DIGITS digits of rupees.
 *
 * `language` (the notice's: its template variant's code) says it in that language's words where
 * amount-words.ts has them ('एक लाख पच्चीस हजार रुपये और पचास पैसे'); English for any other, and for none.
 */
export function amountInWords(text: string, language?: string | null): string {
  const amount = parseAmount(text);
  if (!amount || amount.rupees.length > WORDS_MAX_DIGITS) return text;
  const words = language && Object.hasOwn(amountLanguages, language) ? amountLanguages[language] : undefined;
  if (words) return rupeesInWords(words, amount);
  const { rupees, paise } = amount;
  const parts: string[] = [];
  if (rupees !== '0') parts.push(`${wholeInWords(rupees)} ${rupees === '1' ? 'Rupee' : 'Rupees'}`);
  if (paise !== '00') parts.push(`${belowHundred(Number(paise))} ${paise === '01' ? 'Paisa' : 'Paise'}`);
  const said = parts.join(' and ') || 'Zero Rupees';
  return amount.negative ? `Minus ${said}` : said;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** 'May', 'may.', 'September', 'Sept' → 5, 9; undefined for any other word. */
function monthNamed(name: string): number | undefined {
  const word = name.toLowerCase().replace(/\.$/, '');
  const index = MONTHS.findIndex((month) => word === month || word === month.slice(0, 3));
  return index >= 0 ? index + 1 : word === 'sept' ? 9 : undefined;
}

/** Excel's two-digit years: 00–29 are 2000–2029, 30–99 are 1930–1999. */
const fullYear = (year: string) =>
  year.length === 2 ? Number(year) + (Number(year) < 30 ? 2000 : 1900) : Number(year);

function calendarDate(year: number, month: number, day: number): CalendarDate | undefined {
  if (year < 1000 || year > 9999 || month < 1 || month > 12 || day < 1) return undefined;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate() ? { year, month, day } : undefined;
}

/** Excel's serial day 1 is 1900-01-01; it counts a 29 February 1900 that never was (serial 60). */
function excelSerialDate(serial: number): CalendarDate | undefined {
  const day = Math.floor(serial);
  if (day < 1 || day === 60) return undefined;
  const date = new Date(Date.UTC(1899, 11, day < 60 ? 31 : 30) + day * 86_400_000);
  return calendarDate(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

/** The calendar date an instant falls on in a time zone. */
function dateIn(instant: number, timeZone: string): CalendarDate | undefined {
  if (!Number.isFinite(instant)) return undefined;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    calendar: 'gregory',
    numberingSystem: 'latn',
  }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return calendarDate(part('year'), part('month'), part('day'));
}

/** A time of day after a date, which the date formatter drops: ' 14:05', 'T10:30:00.000', ' 2:05 pm'. */
const TIME = String.raw`(?:[T ,]+\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s*[ap]\.?m\.?)?)?`;
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:Z|[+-]\d{2}:?\d{2})$/i;
const YEAR_FIRST = new RegExp(String.raw`^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})${TIME}$`, 'i');
const NUMERIC = new RegExp(String.raw`^(\d{1,2})([-/. ])(\d{1,2})\2(\d{4}|\d{2})${TIME}$`, 'i');
const DAY_MONTH_NAME = new RegExp(
  String.raw`^(\d{1,2})(?:st|nd|rd|th)?[-/. ]+([a-z]{3,9}\.?)[-/., ]+(\d{4}|\d{2})${TIME}$`,
  'i',
);
const MONTH_NAME_DAY = new RegExp(
  String.raw`^([a-z]{3,9}\.?)[- ]+(\d{1,2})(?:st|nd|rd|th)?,?[- ]+(\d{4})${TIME}$`,
  'i',
);

/**
 * The calendar date in the text a record holds: 20.05.2024, 20/05/2024, 20-05-24, 2024-05-20,
 * 20240520, 20 May 2024, 20-May-24, May 20, 2024, an Excel serial of five digits (45432), or an ISO instant
 * (2024-05-19T18:30:00Z), which is the date it is in the time zone: a timestamp's day is India's day.
 * All-number dates are read in the locale's order: day first in India (05/12/2024 is 5 December),
 * month first in the US. A day or month out of range is no date; it is never read the other way.
 */
export function parseDate(text: string, where: DocumentLocale = INDIAN_DEFAULTS): CalendarDate | undefined {
  const written = asciiDigits(text).trim();
  if (written.length > 64) return undefined;
  let match: RegExpExecArray | null;
  if ((match = ISO_INSTANT.exec(written))) {
    if (!calendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) return undefined;
    const iso = written.replace(/\s+/g, '').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
    return dateIn(Date.parse(iso), where.timeZone);
  }
  if ((match = YEAR_FIRST.exec(written)))
    return calendarDate(Number(match[1]), Number(match[3]), Number(match[4]));
  if ((match = /^(\d{4})(\d{2})(\d{2})$/.exec(written)))
    return calendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
  // Five digits: 10000 is 1927-05-18, 99999 is 2173. Four digits are more likely a year than 1905.
  if (/^\d{5}(?:\.\d+)?$/.test(written)) return excelSerialDate(Number(written));
  if ((match = NUMERIC.exec(written))) {
    const [first, second] = [Number(match[1]), Number(match[3])];
    const monthFirst = shortDateOrder(where.locale) === 'month';
    return calendarDate(fullYear(match[4]!), monthFirst ? first : second, monthFirst ? second : first);
  }
  if ((match = DAY_MONTH_NAME.exec(written))) {
    const month = monthNamed(match[2]!);
    return month ? calendarDate(fullYear(match[3]!), month, Number(match[1])) : undefined;
  }
  if ((match = MONTH_NAME_DAY.exec(written))) {
    const month = monthNamed(match[1]!);
    return month ? calendarDate(Number(match[3]), month, Number(match[2])) : undefined;
  }
  return undefined;
}

/** `{{field | date}}`: the date in the locale's short date (20-05-2024 under en-IN); else the text as it is. */
export function formatDate(text: string, where: DocumentLocale = INDIAN_DEFAULTS): string {
  const date = parseDate(text, where);
  return date ? formatShortDate(date, where.locale) : text;
}
