import { PermanentSendError, TransientSendError } from './send-errors.ts';

/** A Cloud API error object, as an answer's `error` or a failed status's `errors[]` holds it. */
export interface CloudApiError {
  code?: number;
  title?: string;
  message?: string;
  error_data?: { details?: string };
}

/**
 * 131056: too many messages to one number in a short time. Meta does not publish the window; a pair
 * may take about one message every 6 seconds, so the retry waits at least that long.
 */
export const PAIR_RATE_WINDOW_MS = 6_000;

/**
 * 131053: WhatsApp could not use the media of a message (answered at once for a media id it no longer
 * has, or by status webhook after taking the message): the PDF is uploaded again for the next one.
 */
export const MEDIA_UPLOAD_ERROR = 131053;

/** Codes worth retrying: throttling, and Meta's own passing troubles. */
const throttled = new Set([4, 80007, 130429]);
const passing = new Set([1, 2, 131000, 131016, 131057, 133004]);

/** What the codes that people meet most often mean, in the product's words. */
const readable = new Map<number, string>([
  [131047, 'WhatsApp refuses a message outside the 24-hour window; use an approved template'],
  [470, 'WhatsApp refuses a message outside the 24-hour window; use an approved template'],
  [131026, 'The number is not a WhatsApp user (or cannot receive this message)'],
  [131021, 'The number is the sender’s own'],
  [131051, 'WhatsApp does not support this message type'],
  [132000, 'The template’s body parameters do not match the fields mapped to it'],
  [132001, 'The template does not exist in that language (or is not approved yet)'],
  [132005, 'The template’s text with the record’s values is too long'],
  [132007, 'The template’s text breaks WhatsApp’s formatting policy'],
  [132012, 'A template parameter is not in the format the template expects'],
  [132015, 'The template is paused for low quality'],
  [132016, 'The template is disabled for low quality'],
  [132068, 'The template flow is blocked'],
  [132069, 'The template flow is throttled'],
  [190, 'WhatsApp refused the access token; check WHATSAPP_TOKEN'],
]);

/** '(#131047) WhatsApp refuses … template: Re-engagement message': what a person reads as the failure. */
export function whatsappErrorReason(error: CloudApiError): string {
  const known = error.code !== undefined ? readable.get(error.code) : undefined;
  const templateError =
    error.code !== undefined && error.code >= 132000 && error.code < 133000 && !known
      ? 'WhatsApp refused the template'
      : undefined;
  const given = [error.title ?? error.message, error.error_data?.details]
    .filter((part): part is string => Boolean(part))
    .join(': ');
  const what = known ?? templateError;
  const text = what ? (given ? `${what} (${given})` : what) : given || 'no reason given';
  return `${error.code !== undefined ? `(#${error.code}) ` : ''}${text}`;
}

/**
 * Decides what an error answer of the Cloud API means for a message: throttling (130429, 80007, 4,
 * HTTP 429), a pair limit (131056, retried after its window) and Meta's passing troubles (5xx,
 * 131000, 131016, 133004) are retried with backoff; everything else (131047 outside the 24-hour window,
 * 131026 not on WhatsApp, 132xxx template errors, 470, an invalid number) is final, with its reason.
 */
export function classifyWhatsappError(
  httpStatus: number,
  error: CloudApiError | undefined,
): TransientSendError | PermanentSendError {
  const code = error?.code;
  const reason = whatsappErrorReason(error ?? { message: `HTTP ${httpStatus}` });
  if (code === 131056)
    return new TransientSendError(
      `WhatsApp asked to wait before another message to this number: ${reason}`,
      PAIR_RATE_WINDOW_MS,
    );
  if (httpStatus === 429 || (code !== undefined && throttled.has(code)))
    return new TransientSendError(`WhatsApp asked to slow down: ${reason}`);
  if (httpStatus >= 500 || (code !== undefined && passing.has(code)))
    return new TransientSendError(`WhatsApp asked to try later: ${reason}`);
  return new PermanentSendError(`WhatsApp refused the message: ${reason}`);
}
