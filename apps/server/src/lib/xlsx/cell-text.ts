import SSF from 'ssf';
import { regroupLakhs } from './lakh-grouping.ts';
import { builtinDateFormat } from './locale-formats.ts';
import type { SharedStrings } from './shared-strings.ts';
import { shorten } from './xml.ts';

/**
 * A cell Excel would not show as the file has it: reported against that cell, never the whole file.
 * `shows` is the cell's text all the same where Excel shows one (an error value's #N/A).
 */
export class CellProblemError extends Error {
  constructor(
    message: string,
    readonly shows = '',
  ) {
    super(message);
  }
}

/** A cell's number format, from styles.xml. */
export interface CellFormat {
  /** The number format code, or a built-in format's id. */
  code: string | number;
  /** Digits grouped the Indian way (12,50,000.50): `code` groups them in threes, and they are regrouped after. */
  lakhGrouping: boolean;
  /** Whether it shows numbers as dates or times (so a number Excel cannot show as one is a problem). */
  isDate: boolean;
  /** General: a date cell (t="d") under it shows as the locale's short date. */
  isGeneral: boolean;
  /** Whether it has a text section (`"Ref: "@`), which Excel applies to text cells. */
  hasTextSection: boolean;
}

/** One cell as the sheet has it. */
export interface RawCell {
  type: string | undefined;
  style: number;
  /** The text of `<v>`, references resolved. */
  value: string | undefined;
  /** The text of an inline string (`<is>`), as a TextRun gave it. */
  inline: string | undefined;
  /** The cell holds a formula (`<f>`): `value` is its result as last calculated, if it ever was. */
  hasFormula: boolean;
}

export interface CellContext {
  shared: SharedStrings | undefined;
  formats: CellFormat[];
  date1904: boolean;
  /** The workbook's formulas were never calculated (WorkbookParts.calculateOnLoad). */
  calculateOnLoad: boolean;
  locale: string;
}

/** Excel's last date, 31 December 9999, as a serial in either date system. */
const LAST_DATE = { 1900: 2_958_465, 1904: 2_957_003 };

/** The text a person sees in the cell in Excel; a CellProblemError when Excel would show no such text. */
export function formatCell(raw: RawCell, context: CellContext): string {
  const format = context.formats[raw.style];
  if (raw.hasFormula && !isCalculated(raw, context)) {
    throw new CellProblemError(
      'The cell holds a formula that was not calculated when the file was written, so the file has no result for it. Open the file in Excel, save it, and import again.',
    );
  }
  switch (raw.type) {
    case 's':
      return withTextSection(context.shared?.get(Number(raw.value)) ?? '', format);
    case 'inlineStr':
      return withTextSection(raw.inline ?? '', format);
    case 'str':
      return withTextSection(excelText(raw.value ?? ''), format);
    case 'e': {
      const code = excelText(raw.value ?? '');
      throw new CellProblemError(`'${shorten(code)}' (an Excel error value)`, code);
    }
    case 'b':
      return formatBoolean(raw.value ?? '');
    case 'd':
      return formatIsoDate(raw.value ?? '', format, context);
    default: {
      if (raw.value === undefined || raw.value === '') {
        return raw.inline === undefined ? '' : withTextSection(raw.inline, format);
      }
      const number = Number(raw.value);
      if (!Number.isFinite(number)) return excelText(raw.value);
      if (!format?.isDate) {
        if (Math.abs(number) >= FIFTEEN_DIGITS) throw pastFifteenDigits(raw.value);
        if (Number.isInteger(number) && showsAsGeneral(format)) return String(number);
      }
      const text = formatSerial(
        number,
        raw.value,
        format?.code ?? 0,
        format?.isDate ?? false,
        context.date1904,
      );
      return format?.lakhGrouping ? regroupLakhs(text) : text;
    }
  }
}

/** A TRUE/FALSE cell holds 1 or 0; any other value (7, true) is not read as either. */
function formatBoolean(value: string): string {
  if (value === '1') return 'TRUE';
  if (value === '0') return 'FALSE';
  if (value === '') return '';
  throw new CellProblemError(
    `'${shorten(excelText(value))}' in a TRUE/FALSE cell is neither TRUE nor FALSE (Excel's TRUE/FALSE cells hold 1 or 0).`,
  );
}

/**
 * Excel keeps 15 significant digits: a 16-digit card number typed into a number cell is stored with a
 * 0 for its last digit. A number this large cannot be trusted to the digit, and identifiers are.
 */
const FIFTEEN_DIGITS = 1e15;

function pastFifteenDigits(written: string): CellProblemError {
  return new CellProblemError(
    `The number ${shorten(written)} has more than 15 digits, and Excel keeps only 15: the digits after the 15th are lost (Excel turns them into zeros). Format the column as Text in Excel, type the numbers again, and import again.`,
  );
}

/**
 * Under General (or Text, for a number typed before the cell was made Text) an integer reads whole:
 * a mobile number 919876543210, not General's 9.19877E+11, which Excel shows only in a narrow column
 * and to which no message can be sent.
 */
function showsAsGeneral(format: CellFormat | undefined): boolean {
  return !format || format.isGeneral || format.code === 49 || format.code === '@';
}

/**
 * Whether a formula cell holds a calculated result. openpyxl writes none (no `<v>`, or an empty one);
 * xlsxwriter writes 0 and asks for the workbook to be calculated on load. An empty `<v>` of t="str" is
 * Excel's own result for a formula giving empty text (=IF(A1="","",A1)).
 */
function isCalculated(raw: RawCell, context: CellContext): boolean {
  if (raw.value === undefined) return false;
  if (raw.value === '') return raw.type === 'str';
  return !(context.calculateOnLoad && raw.value === '0' && (raw.type === undefined || raw.type === 'n'));
}

function formatSerial(
  number: number,
  written: string,
  code: string | number,
  isDate: boolean,
  date1904: boolean,
): string {
  if (isDate && (number < 0 || number >= LAST_DATE[date1904 ? 1904 : 1900] + 1)) {
    // Excel shows ##### here; SSF would give '' and the row would read as if the cell were empty.
    throw new CellProblemError(
      `${shorten(written)} is not a date Excel can show: its dates run from 1 January ${date1904 ? 1904 : 1900} to 31 December 9999.`,
    );
  }
  try {
    return SSF.format(code, number, { date1904 });
  } catch {
    // Shown in General instead, 1250000.5 would be stored where Excel shows ₹12,50,000.50, and no one told.
    throw undrawable(code, shorten(written));
  }
}

function undrawable(code: string | number, shown: string): CellProblemError {
  return new CellProblemError(
    `The cell's number format ${typeof code === 'number' ? `#${code}` : `'${shorten(code, 60)}'`} is one the import cannot draw, so ${shown} cannot be read as Excel shows it. Give the column a standard number format in Excel (Home, Number Format), save, and import again.`,
  );
}

/** A format's text section applied to text (`"Ref: "@` shows abc as Ref: abc); others show text as it is. */
function withTextSection(text: string, format: CellFormat | undefined): string {
  if (!format?.hasTextSection) return text;
  try {
    return SSF.format(format.code, text);
  } catch {
    throw undrawable(format.code, `'${shorten(text)}'`);
  }
}

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;
const ISO_TIME = /^T?(\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * A date cell (t="d", an ISO 8601 date and time) shown as Excel shows it: Excel stores it as the
 * serial of that wall-clock time (any zone offset is not applied) and draws it in the cell's format;
 * under General, in the locale's short date (and time, when it has one).
 */
function formatIsoDate(value: string, format: CellFormat | undefined, context: CellContext): string {
  const serial = isoSerial(value.trim(), context.date1904);
  if (serial === undefined) {
    throw new CellProblemError(
      `'${shorten(value)}' in a date cell is not a date (Excel's date cells hold dates like 2024-05-12T09:05:00).`,
    );
  }
  const hasTime = serial % 1 !== 0;
  let code = format?.code ?? 0;
  if (!format || format.isGeneral) {
    code =
      serial < 1 ? 'h:mm:ss' : (builtinDateFormat(hasTime ? 22 : 14, context.locale) ?? (hasTime ? 22 : 14));
  }
  return formatSerial(serial, value, code, true, context.date1904);
}

function isoSerial(value: string, date1904: boolean): number | undefined {
  const time = (h?: string, m?: string, s?: string) =>
    (Number(h ?? 0) * 3600 + Number(m ?? 0) * 60 + Number(s ?? 0)) / 86_400;
  const onlyTime = ISO_TIME.exec(value);
  if (onlyTime) return time(onlyTime[1], onlyTime[2], onlyTime[3]);
  const m = ISO_DATE.exec(value);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const utc = Date.UTC(year, month - 1, day);
  const date = new Date(utc);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || year < 1000) return undefined;
  const fraction = time(m[4], m[5], m[6]);
  if (fraction >= 1) return undefined;
  if (date1904) return (utc - Date.UTC(1904, 0, 1)) / 86_400_000 + fraction;
  const days = (utc - Date.UTC(1899, 11, 30)) / 86_400_000;
  // Excel counts a 29 February 1900 that never was: dates before March 1900 are one lower.
  return (days <= 60 ? days - 1 : days) + fraction;
}

/**
 * The text of `<t>` elements (a plain string, or the runs of rich text) as Excel shows it: without
 * xml:space="preserve", leading and trailing white space of a run is not shown (a run of white space
 * only is, as Excel draws it between rich-text runs).
 */
export class TextRun {
  inText = false;
  private preserveItem = false;
  private preserve = false;
  private piece = '';
  private item = '';

  startItem(attributes?: Record<string, string>): void {
    this.item = '';
    this.inText = false;
    this.preserveItem = attributes?.['xml:space'] === 'preserve';
  }

  startText(attributes: Record<string, string>): void {
    this.inText = true;
    const space = attributes['xml:space'];
    this.preserve = space === undefined ? this.preserveItem : space === 'preserve';
    this.piece = '';
  }

  add(text: string): void {
    this.piece += text;
  }

  endText(): void {
    if (!this.inText) return;
    this.inText = false;
    this.item += this.preserve ? this.piece : trimXmlSpace(this.piece);
  }

  /** The item's text; a CellProblemError for a bad character reference in it, or a bad escape. */
  endItem(badReference?: string): string {
    this.inText = false;
    if (badReference) throw badReferenceProblem(badReference);
    return excelText(this.item);
  }
}

function isXmlSpace(code: number | undefined): boolean {
  return code === 0x20 || code === 0x9 || code === 0xa || code === 0xd;
}

function trimXmlSpace(text: string): string {
  if (!isXmlSpace(text.charCodeAt(0)) && !isXmlSpace(text.charCodeAt(text.length - 1))) return text;
  const trimmed = text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
  return trimmed === '' ? text : trimmed;
}

export function badReferenceProblem(reference: string): CellProblemError {
  return new CellProblemError(
    `The cell holds the character reference ${shorten(reference)}, which is not a character a workbook may hold.`,
  );
}

/**
 * Text as Excel shows it, from text as XML gives it: Excel's _xHHHH_ escapes decoded (_x000D_ is a
 * carriage return), CR LF and lone CR made LF. An escape that leaves U+0000 or half a surrogate pair
 * is a problem of the cell that holds it.
 */
export function excelText(text: string): string {
  let decoded = text;
  if (decoded.includes('_x')) {
    decoded = decoded.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    if (decoded.includes('\0')) {
      throw new CellProblemError('The cell holds the character U+0000 (NUL), which cannot be stored.');
    }
    if (loneSurrogate.test(decoded)) {
      throw new CellProblemError(
        'The cell holds half of a surrogate pair (a code from U+D800 to U+DFFF on its own), which is no character.',
      );
    }
  }
  return decoded.includes('\r') ? decoded.replace(/\r\n?/g, '\n') : decoded;
}

/** In Unicode mode a pair is one code point, so only a lone half matches. */
const loneSurrogate = /\p{Cs}/u;
