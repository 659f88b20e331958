/**
 * One plain e-mail address (`local@domain.tld`), checked before anything is mailed to a value people can
 * type: no display name, no list, no comments or quoted parts, no spaces or line breaks, ASCII only
 * (internationalised domains are not accepted). A value that is not exactly one such address is no
 * address at all, so `ctl\r\nBcc: x@evil.test` or `a@x.io, b@y.io` never reach the mailer.
 */
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const SINGLE_ADDRESS = new RegExp(`^${ATOM}(?:\\.${ATOM})*@(?:${LABEL}\\.)+[A-Za-z]{2,63}$`);

/** The address, when `text` is exactly one acceptable address; null otherwise. */
export function singleMailAddress(text: string): string | null {
  if (text.length > 254 || text.split('@')[0]!.length > 64) return null;
  return SINGLE_ADDRESS.test(text) ? text : null;
}
