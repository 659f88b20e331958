import { z } from 'zod';
import { campaignType } from './campaigns.ts';

/** Most record ids one send-mail request takes; the web sends chunks of 10. */
export const SEND_MAX_IDS = 500;

export const sendMailBody = z.object({
  data: z
    .array(z.string().max(64), { error: 'data must be a list of record ids.' })
    .max(SEND_MAX_IDS, { error: `Send at most ${SEND_MAX_IDS} records in one request.` }),
  type: campaignType,
  /** Send again records already sent on a channel. */
  resend: z.boolean().optional(),
});
export type SendMailBody = z.infer<typeof sendMailBody>;

export interface SendResult {
  message: string;
  /** Accepted by the mail server or WhatsApp (or written to the outbox when none is configured). */
  sent: number;
  failed: number;
  /** Waiting to be retried: the provider asked to try later. */
  queued: number;
  /** Already sent on that channel (ask for a resend to send again). */
  skipped: number;
  /** Ids that are not the caller's records. */
  ignored: number;
}
