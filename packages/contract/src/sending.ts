import { z } from 'zod';
import { campaignType } from './campaigns.ts';

/** A delivery's statuses, in the order they happen; failed, bounced and outbox are final. */
export const deliveryStatuses = [
  'queued',
  'outbox',
  'sent',
  'delivered',
  'read',
  'failed',
  'bounced',
] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/** Most record ids one send-mail request takes; the web sends chunks of 10. */
export const SEND_MAX_IDS = 500;

export const sendMailBody = z.object({
  data: z
    .array(z.string().max(64), { error: 'data must be a list of record ids.' })
    .max(SEND_MAX_IDS, { error: `Send at most ${SEND_MAX_IDS} records in one request.` }),
  type: campaignType,
  /** Send again records already sent on a channel. */
  resend: z.boolean().optional(),
  /** Send also to addresses that bounced or failed before (BOUNCED_ADDRESSES=confirm asks for this). */
  confirmBounced: z.boolean().optional(),
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
  /** Messages left out because their address bounced or failed before (BOUNCED_ADDRESSES=skip). */
  bouncedBefore?: number;
  /**
   * Each channel held to a provider limit (WHATSAPP_RATE, SMTP_RATE): the limit, and the messages a
   * second it went out at over the last 5 seconds, every worker together. Empty when none is limited.
   */
  rates?: { channel: 'email' | 'whatsapp'; limit: number; perSecond: number }[];
}
