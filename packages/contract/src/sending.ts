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

export const deliveryChannels = ['email', 'whatsapp'] as const;
export type DeliveryChannel = (typeof deliveryChannels)[number];

/**
 * A campaign's records by what their sends came to: those whose latest attempt on the channel (on
 * either, when none is named) is in one of the statuses, given as a comma-separated list
 * (`failed,bounced`). Either left out filters nothing.
 */
export const deliveryFilterQuery = z.object({
  status: z
    .string({
      error: (issue) => (Array.isArray(issue.input) ? 'status must be given once.' : 'status must be text.'),
    })
    .transform((text, ctx) => {
      const listed = text.split(',').map((part) => part.trim());
      const unknown = listed.find((part) => !(deliveryStatuses as readonly string[]).includes(part));
      if (unknown === undefined) return [...new Set(listed)] as DeliveryStatus[];
      ctx.issues.push({
        code: 'custom',
        message: `status must be one or more of ${deliveryStatuses.join(', ')}, separated by commas; '${unknown.slice(0, 40)}' is none of them.`,
        input: text,
      });
      return z.NEVER;
    })
    .optional()
    .describe(
      `Only records whose latest attempt is in one of these statuses: ${deliveryStatuses.join(', ')}, comma-separated.`,
    ),
  channel: z
    .enum(deliveryChannels, { error: "channel must be 'email' or 'whatsapp'." })
    .optional()
    .describe('The channel the status filter looks at; either when absent.'),
});
export type DeliveryFilterQuery = z.infer<typeof deliveryFilterQuery>;

/** Every record id a filter finds in a campaign, in campaign order: what 'Resend failed' sends. */
export interface CampaignRecordIds {
  ids: string[];
  total: number;
}

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
