import { SEARCH_MAX_LENGTH, type SearchField } from '@notice-desk/contract/search';
import type { RecordKind } from '../../db/schema.ts';

/**
 * How records are found. Values and queries are reduced to lower-case words of letters and digits,
 * and a search is a prefix match on the reduced form. An identifier keeps no spaces, so 'LN-2024/07',
 * 'ln 2024 07' and 'LN202407' are the same text. A name is stored once from each of its words on,
 * words apart ('Ravi Kumar' as 'ravi kumar' and 'kumar'), so typing the start of any word finds it,
 * so does 'ravi kum', and a whole word ('ravi …') sorts before a longer one ('ravinder …').
 */

/** The fields each kind is found by, in the order a term that two fields share is credited. */
export const searchedFields: Record<RecordKind, readonly SearchField[]> = {
  notice: ['custName', 'loanNo', 'custMobileNo'],
  'credit-card': ['custName', 'maskNo', 'custMobileNo', 'referenceNo'],
};

/** Terms are cut here: a query is never longer, so a prefix of the cut term is a prefix of the whole. */
export const TERM_MAX = SEARCH_MAX_LENGTH;
/** A name is found from its first few words on; a 2,000-character name should not make hundreds of terms. */
const NAME_WORDS_MAX = 8;
/** The product's country: '+91 98450 12345', '098450 12345' and '9845012345' are one mobile number. */
const COUNTRY_CODE = '91';
const NATIONAL_DIGITS = 10;

/** Lower-case words of letters and digits. */
function words(text: string): string[] {
  if (!/^[\x20-\x7e]*$/.test(text)) {
    return text
      .normalize('NFKC')
      .toLowerCase()
      .split(/[^\p{L}\p{M}\p{N}]+/u)
      .filter(Boolean);
  }
  // Plain ASCII, as almost every imported value is: scanned by hand, since an import runs this for
  // every row and the regular-expression way makes enough garbage to slow it and swell its heap.
  const found: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) | 0x20 : 0;
    const letterOrDigit = (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a);
    if (letterOrDigit && start < 0) start = i;
    else if (!letterOrDigit && start >= 0) {
      found.push(text.slice(start, i).toLowerCase());
      start = -1;
    }
  }
  return found;
}

/** Lower-case letters and digits only: the form identifiers are compared in. */
export const compact = (text: string) => words(text).join('');
/** Lower-case words one space apart: the form names are compared in. */
export const wordsApart = (text: string) => words(text).join(' ');

/** A stored mobile number's national digits, whatever prefix and spacing it was typed with. */
function nationalNumber(value: string): string {
  const digits = value.replace(/\D/g, '');
  const withCode = COUNTRY_CODE.length + NATIONAL_DIGITS;
  if (digits.length === withCode && digits.startsWith(COUNTRY_CODE)) return digits.slice(COUNTRY_CODE.length);
  if (digits.length === withCode + 2 && digits.startsWith(`00${COUNTRY_CODE}`)) return digits.slice(4);
  if (digits.length === NATIONAL_DIGITS + 1 && digits.startsWith('0')) return digits.slice(1);
  return digits;
}

/**
 * A typed query that looks like the start of a phone number ('+91 984', '098-45', '919845012345'),
 * as the start of national digits; undefined for any other query.
 */
export function phonePrefix(query: string): string | undefined {
  if (!/^[\d\s+\-().]+$/.test(query)) return undefined;
  let digits = query.replace(/\D/g, '');
  const trimmed = query.trim();
  if (trimmed.startsWith('+') || digits.startsWith('00')) {
    digits = digits.replace(/^0*/, '');
    if (digits.startsWith(COUNTRY_CODE)) digits = digits.slice(COUNTRY_CODE.length);
  } else if (digits.startsWith('0')) {
    digits = digits.slice(1);
  } else if (digits.length > NATIONAL_DIGITS && digits.startsWith(COUNTRY_CODE)) {
    digits = digits.slice(COUNTRY_CODE.length);
  }
  return digits || undefined;
}

/** One prefix to look up, and the field it is limited to (a phone-number form only finds mobiles). */
export interface Lookup {
  prefix: string;
  field?: SearchField;
}

/**
 * The prefixes a typed query is looked up by: identifiers keep no spaces, names one between words, and
 * digits typed as a phone number find mobiles. A form equal to an earlier one adds nothing; the first,
 * looking in every field, stays. None when the query holds no letter or digit.
 */
export function queryLookups(query: string): Lookup[] {
  const lookups: Lookup[] = [];
  const add = (form: string | undefined, field?: SearchField) => {
    const prefix = form?.slice(0, TERM_MAX);
    if (prefix && !lookups.some((lookup) => lookup.prefix === prefix)) lookups.push({ prefix, field });
  };
  add(compact(query));
  if (/\p{L}/u.test(query)) add(wordsApart(query), 'custName');
  add(phonePrefix(query), 'custMobileNo');
  return lookups;
}

/** Each term a record is found by, with the field it comes from (the first field, when two share one). */
export function recordTerms(kind: RecordKind, record: Record<string, string>): Map<string, SearchField> {
  const terms = new Map<string, SearchField>();
  const add = (term: string, field: SearchField) => {
    const cut = term.slice(0, TERM_MAX);
    if (cut && !terms.has(cut)) terms.set(cut, field);
  };
  for (const field of searchedFields[kind]) {
    const value = record[field] ?? '';
    if (field === 'custName') {
      const parts = words(value);
      for (let i = 0; i < Math.min(parts.length, NAME_WORDS_MAX); i++) add(parts.slice(i).join(' '), field);
    } else if (field === 'custMobileNo') {
      add(nationalNumber(value), field);
    } else {
      add(compact(value), field);
      // A masked card ('XXXX XXXX XXXX 1234') is quoted by the digits it ends with.
      if (field === 'maskNo') add(/(\d+)\D*$/.exec(value)?.[1] ?? '', field);
    }
  }
  return terms;
}
