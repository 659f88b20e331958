import { e164Digits } from '@notice-desk/contract/serviceable';
/** A send that may succeed later (throttling, a server down): retried with backoff. */
export class TransientSendError extends Error {
  constructor(
    message: string,
    /** The least the provider asked to wait before trying again, when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** A send that will never succeed as it stands (a bad address, a refused message): recorded as failed. */
export class PermanentSendError extends Error {}

/** SMTP: 4xx replies (421 closing, 450/451/452 try later) and connection failures are retried; 5xx replies are final. */
export function classifySmtpError(err: unknown): TransientSendError | PermanentSendError {
  const e = err as { responseCode?: number; code?: string; message?: string; response?: string };
  const text = e.response ?? e.message ?? String(err);
  if (typeof e.responseCode === 'number') {
    return e.responseCode >= 500
      ? new PermanentSendError(`The mail server refused the message: ${text}`)
      : new TransientSendError(`The mail server asked to try later: ${text}`);
  }
  return new TransientSendError(`The mail server could not be reached: ${text}`);
}

const emailPattern = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;

export function checkEmail(address: string): string {
  const trimmed = address.trim();
  if (!emailPattern.test(trimmed)) throw new PermanentSendError(`Invalid e-mail address: '${address}'.`);
  return trimmed;
}

/**
 * A phone number in E.164 digits (no '+'), as the WhatsApp Cloud API wants it: a 10-digit number gets
 * the default country code, a leading 0 trunk prefix is dropped.
 */
export function toE164(number: string, countryCode: string): string {
  const digits = e164Digits(number, countryCode);
  if (digits === null) throw new PermanentSendError(`Invalid mobile number: '${number}'.`);
  return digits;
}
