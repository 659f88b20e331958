/**
 * Whether a record's stored e-mail and mobile can be served at all, judged by their form before
 * anything is sent (issue 28, "Addresses checked before they fail"). One rule for every place that
 * asks: the import row report, the record forms (in the browser), the campaign page and the send. The
 * record still keeps any text; this only says why a value cannot be served, or null when it can.
 * Plain TypeScript with no Node module, so the web app runs the same rule.
 */

const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const SINGLE_ADDRESS = new RegExp(`^${ATOM}(?:\\.${ATOM})*@(?:${LABEL}\\.)+[A-Za-z]{2,63}$`);

/**
 * One plain e-mail address (`local@domain.tld`), checked before anything is mailed to a value people can
 * type: no display name, no list, no comments or quoted parts, no spaces or line breaks, ASCII only
 * (internationalised domains are not accepted). A value that is not exactly one such address is no
 * address at all, so `ctl\r\nBcc: x@evil.test` or `a@x.io, b@y.io` never reach the mailer.
 * Answers the address, when `text` is exactly one acceptable address; null otherwise.
 */
export function singleMailAddress(text: string): string | null {
  if (text.length > 254 || text.split('@')[0]!.length > 64) return null;
  return SINGLE_ADDRESS.test(text) ? text : null;
}

/** The WHATWG URL class, in Node and in browsers alike (the contract is typed without either's library). */
const WhatwgUrl = (globalThis as unknown as { URL: new (input: string) => { hostname: string } }).URL;

/** A domain in ASCII (punycode for an internationalised one), as the WHATWG URL parser writes it; '' when it is no host name. */
function domainToAscii(domain: string): string {
  if (/[/?#\\:@[\]%<>^|]/.test(domain)) return '';
  try {
    return new WhatwgUrl(`http://${domain}/`).hostname;
  } catch {
    return '';
  }
}

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
  const asciiDomain = domainToAscii(domain);
  if (asciiDomain === '') return 'the domain is not a valid name';
  // An internationalised top-level domain is punycode (`xn--…`), which the plain-address rule's
  // letters-only TLD refuses: check the label's form, then the rest with a letters-only stand-in.
  const dot = asciiDomain.lastIndexOf('.');
  const tld = asciiDomain.slice(dot + 1);
  const checked = /^xn--[a-z0-9-]{1,59}$/i.test(tld) ? `${asciiDomain.slice(0, dot)}.idn` : asciiDomain;
  return singleMailAddress(`${local}@${checked}`) === null ? 'not a valid e-mail address' : null;
}

/**
 * A phone number in E.164 digits (no '+'), as the WhatsApp Cloud API wants it: a 10-digit number gets
 * the default country code, a leading 0 trunk prefix is dropped. Null when the result is no number.
 */
export function e164Digits(number: string, countryCode: string): string | null {
  let digits = number.replace(/[\s\-().]/g, '');
  if (digits.startsWith('+')) digits = digits.slice(1);
  else if (digits.startsWith('00')) digits = digits.slice(2);
  else if (digits.startsWith('0') && digits.length === 11) digits = countryCode + digits.slice(1);
  else if (digits.length === 10) digits = countryCode + digits;
  return /^[1-9]\d{7,14}$/.test(digits) ? digits : null;
}

/**
 * Why `text` cannot be served on WhatsApp, or null when it is a mobile number. The country-code rule is
 * the send's own (`e164Digits` with DEFAULT_COUNTRY_CODE): 10 digits take the code, 11 digits starting 0
 * drop the 0. A number written without an international prefix (+ or 00) must then be an Indian mobile
 * when the code is 91: 91 and 10 digits starting 6 to 9. A number with an explicit prefix is taken as given.
 */
export function mobileUnserviceableReason(text: string, countryCode: string): string | null {
  const value = text.trim();
  if (value === '') return 'no mobile number';
  if (/[^\d\s\-().+]/.test(value)) return 'the number contains letters or symbols';
  const digits = e164Digits(value, countryCode);
  if (digits === null) return 'not a mobile number (too short or too long)';
  const compact = value.replace(/[\s\-().]/g, '');
  const international = compact.startsWith('+') || compact.startsWith('00');
  if (countryCode === '91' && (!international || digits.startsWith('91'))) {
    if (!digits.startsWith('91') || digits.length !== 12) return 'not a 10-digit Indian mobile number';
    if (!/^[6-9]/.test(digits.slice(2))) return 'an Indian mobile number starts with 6, 7, 8 or 9';
  }
  return null;
}

/** The channels a record can be served on, with why not. */
export type ServiceChannel = 'email' | 'whatsapp' | 'sms';

/** Why a record's address on `channel` cannot be served, or null when it can. */
export function unserviceableReason(
  channel: ServiceChannel,
  address: string,
  countryCode: string,
): string | null {
  return channel === 'email'
    ? mailUnserviceableReason(address)
    : mobileUnserviceableReason(address, countryCode);
}

/**
 * The channels a record goes on: a notice where its Mode Of Dispatch says (e-mail, WhatsApp, or both
 * when it names neither), a credit card both ways. The send, the import report and the campaign page
 * judge serviceability on these channels only (a WhatsApp-only notice needs no e-mail).
 */
export function recordChannels(
  kind: 'notice' | 'credit-card',
  fields: Record<string, string | undefined>,
): ServiceChannel[] {
  if (kind === 'credit-card') return ['email', 'whatsapp'];
  const mode = (fields.modeOfDispatch ?? '').toLowerCase();
  const email = /mail/.test(mode);
  const whatsapp = /whats\s*app|\bwa\b/.test(mode);
  // SMS goes only where the Mode Of Dispatch names it, beside what else it names.
  const sms: ServiceChannel[] = /\bsms\b/.test(mode) ? ['sms'] : [];
  if (email && !whatsapp) return ['email', ...sms];
  if (whatsapp && !email) return ['whatsapp', ...sms];
  if (sms.length > 0 && !email && !whatsapp) return sms;
  return ['email', 'whatsapp', ...sms];
}

/** Where a record says a channel's message goes: its e-mail or its mobile. */
export function recordAddress(fields: Record<string, string | undefined>, channel: ServiceChannel): string {
  return (channel === 'email' ? fields.emailId : fields.custMobileNo) ?? '';
}

/**
 * The record forms' note under the e-mail field: a non-blocking warning with why it cannot be served
 * (the record still saves; a send leaves it out on e-mail). Nothing while empty or servable.
 */
export function emailFieldNote(value: string): string | undefined {
  const reason = value.trim() === '' ? null : mailUnserviceableReason(value);
  return reason ? `Not serviceable by e-mail: ${reason}. It saves, but a send leaves it out.` : undefined;
}

/**
 * The note under the mobile field, by India's rule (91, the usual DEFAULT_COUNTRY_CODE; the send judges
 * with the server's setting).
 */
export function mobileFieldNote(value: string): string | undefined {
  const reason = value.trim() === '' ? null : mobileUnserviceableReason(value, '91');
  return reason ? `Not serviceable by WhatsApp: ${reason}. It saves, but a send leaves it out.` : undefined;
}
