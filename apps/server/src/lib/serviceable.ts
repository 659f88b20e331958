import { domainToASCII } from 'node:url';
import { singleMailAddress } from './mail-address.ts';
import { toE164 } from './send-errors.ts';

/**
 * Whether a record's stored e-mail and mobile can be served at all, judged by their form before
 * anything is sent (issue 28, "Addresses checked before they fail"). One rule for every place that
 * asks: import row report, record forms, campaign page and the send. The record still keeps any text;
 * this only says why a value cannot be served, or null when it can.
 */

/** Why `text` cannot be mailed, or null when it is one deliverable address (plus tags and IDN domains pass). */
export function mailUnserviceableReason(text: string): string | null {
  const value = text.trim();
  if (value === '') return 'no e-mail address';
  if (/[\s,;]/.test(value) && value.split(/[\s,;]+/).filter((part) => part.includes('@')).length > 1) {
    return 'more than one address in the cell';
  }
  if (/\s/.test(value)) return 'the address contains a space';
  const at = value.lastIndexOf('@');
  if (at <= 0 || value.indexOf('@') !== at)
    return value.includes('@') ? 'more than one @' : 'no @ in the address';
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (domain === '') return 'no domain after the @';
  if (domain.endsWith('.')) return 'the domain ends with a dot';
  if (!domain.includes('.')) return 'no dot in the domain';
  const asciiDomain = domainToASCII(domain);
  if (asciiDomain === '') return 'the domain is not a valid name';
  // An internationalised top-level domain is punycode (`xn--…`), which the plain-address rule's
  // letters-only TLD refuses: check the label's form, then the rest with a letters-only stand-in.
  const dot = asciiDomain.lastIndexOf('.');
  const tld = asciiDomain.slice(dot + 1);
  const checked = /^xn--[a-z0-9-]{1,59}$/i.test(tld) ? `${asciiDomain.slice(0, dot)}.idn` : asciiDomain;
  return singleMailAddress(`${local}@${checked}`) === null ? 'not a valid e-mail address' : null;
}

/**
 * Why `text` cannot be served on WhatsApp, or null when it is a mobile number. The country-code rule is
 * the send's own (`toE164` with DEFAULT_COUNTRY_CODE): 10 digits take the code, 11 digits starting 0 drop
 * the 0. A number written without an international prefix (+ or 00) must then be an Indian mobile when
 * the code is 91: 91 and 10 digits starting 6 to 9. A number with an explicit prefix is taken as given.
 */
export function mobileUnserviceableReason(text: string, countryCode: string): string | null {
  const value = text.trim();
  if (value === '') return 'no mobile number';
  if (/[^\d\s\-().+]/.test(value)) return 'the number contains letters or symbols';
  let digits: string;
  try {
    digits = toE164(value, countryCode);
  } catch {
    return 'not a mobile number (too short or too long)';
  }
  const compact = value.replace(/[\s\-().]/g, '');
  const international = compact.startsWith('+') || compact.startsWith('00');
  if (countryCode === '91' && (!international || digits.startsWith('91'))) {
    if (!digits.startsWith('91') || digits.length !== 12) return 'not a 10-digit Indian mobile number';
    if (!/^[6-9]/.test(digits.slice(2))) return 'an Indian mobile number starts with 6, 7, 8 or 9';
  }
  return null;
}
