import { request } from 'undici';
import { newId } from './ids.ts';
import { PermanentSendError, TransientSendError } from './send-errors.ts';
import type { FileStore } from './storage.ts';

/** One SMS on a DLT template: its text must be the registered text with the slots filled. */
export interface SmsMessage {
  /** E.164 digits (no '+'). */
  to: string;
  text: string;
  /** The template's id on the DLT platform (19 digits). */
  dltTemplateId: string;
  /** Whether the text needs UCS-2 (a character outside GSM-7). */
  unicode: boolean;
  /** Ours for this message (the delivery id). */
  reference: string;
}

export interface SmsReceipt {
  messageId: string;
  via: 'msg91' | 'outbox';
}

export interface SmsSender {
  /** Where messages go: MSG91, or the outbox folder when it is not configured. */
  readonly via: 'msg91' | 'outbox';
  send(message: SmsMessage): Promise<SmsReceipt>;
}

export interface Msg91Options {
  /** SMS_API_URL: MSG91's API root (a local peer in tests). */
  apiUrl: string;
  /** MSG91_AUTH_KEY: sent in the authkey header. */
  authKey: string;
  /** SMS_SENDER: the 6-character header registered on DLT. */
  sender: string;
  /** MSG91's route: 4 is transactional. */
  route: string;
}

/** Most of an error body quoted in a delivery's error. */
const QUOTE_MAX = 200;

/**
 * MSG91's SendSMS API (`POST /api/v2/sendsms`, JSON, `authkey` header) with the DLT template id in
 * `DLT_TE_ID`, one message a request so its request id names one delivery (MSG91's delivery reports
 * carry it as requestId). https://api.msg91.com/apidoc/textsms/send-sms-v1.php
 *
 * Errors: no answer, 429 and 5xx are retried (at Retry-After when given); 401/403 and MSG91's
 * `type: "error"` answers (a bad number, a template not matched, no balance) fail the message for good,
 * with MSG91's code and words.
 */
export function msg91Sender(options: Msg91Options): SmsSender {
  const url = `${options.apiUrl.replace(/\/$/, '')}/api/v2/sendsms`;
  return {
    via: 'msg91',
    async send(message) {
      let status: number;
      let text: string;
      let retryAfter: string | string[] | undefined;
      try {
        const res = await request(url, {
          method: 'POST',
          headers: { authkey: options.authKey, 'content-type': 'application/json' },
          body: JSON.stringify({
            sender: options.sender,
            route: options.route,
            country: '0',
            unicode: message.unicode ? 1 : 0,
            DLT_TE_ID: message.dltTemplateId,
            sms: [{ message: message.text, to: [message.to] }],
          }),
          headersTimeout: 30_000,
          bodyTimeout: 30_000,
        });
        status = res.statusCode;
        retryAfter = res.headers['retry-after'];
        text = await res.body.text();
      } catch (err) {
        throw new TransientSendError(`MSG91 could not be reached: ${(err as Error).message}`);
      }
      let body: { type?: unknown; message?: unknown; code?: unknown } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        // A proxy's error page: the status says what happened.
      }
      const words = typeof body.message === 'string' ? body.message : text.slice(0, QUOTE_MAX);
      if (status === 429 || status >= 500) {
        const seconds = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
        throw new TransientSendError(
          `MSG91 asked to try later (HTTP ${status}): ${words}`.trim(),
          Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined,
        );
      }
      if (status === 401 || status === 403)
        throw new PermanentSendError(`MSG91 refused the auth key (HTTP ${status}): ${words}`);
      if (status >= 200 && status < 300 && body.type === 'success' && typeof body.message === 'string')
        return { messageId: body.message, via: 'msg91' };
      const code = body.code === undefined ? '' : ` (code ${String(body.code)})`;
      throw new PermanentSendError(`MSG91 refused the SMS${code}: ${words || `HTTP ${status}`}`);
    },
  };
}

/** Without MSG91 settings: the SMS is written to DATA_DIR/outbox as JSON, and says so. */
export function smsOutbox(
  store: FileStore,
  entityId: string | undefined,
  sender: string | undefined,
): SmsSender {
  return {
    via: 'outbox',
    async send(message) {
      const id = `outbox-${newId()}`;
      await store.writeBuffer(
        `outbox/${id}.sms.json`,
        Buffer.from(
          JSON.stringify({ ...message, entityId: entityId ?? null, sender: sender ?? null }, null, 2),
        ),
      );
      return { messageId: id, via: 'outbox' };
    },
  };
}
