import { z } from 'zod';
import { campaignType } from './campaigns.ts';
import { serviceStatuses, type ServiceStatus } from './service-dates.ts';

/**
 * A delivery's statuses, in the order they happen; failed, bounced and outbox are final.
 * not_serviceable: the send left the record out on that channel, its address being unservable by its
 * form (the reason is the delivery's error); nothing went to a provider, and the record is not served.
 */
export const deliveryStatuses = [
  'queued',
  'outbox',
  'sent',
  'delivered',
  'read',
  'failed',
  'bounced',
  'not_serviceable',
] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/** The channels a delivery goes by; a post delivery is a letter booked at the post office (modules/post). */
export const deliveryChannels = ['email', 'whatsapp', 'sms', 'post'] as const;
export type DeliveryChannel = (typeof deliveryChannels)[number];
/** The channels a send sends a message by; what the send, its summary and the filters take. */
export const messageChannels = ['email', 'whatsapp', 'sms'] as const;
export type MessageChannel = (typeof messageChannels)[number];

/** What the campaign table's `status` filter takes: a delivery status, or a service status (service-dates.ts). */
export const campaignFilterStatuses = [...deliveryStatuses, ...serviceStatuses] as const;
export type CampaignFilterStatus = DeliveryStatus | ServiceStatus;

/**
 * A campaign's records by what their sends came to: those whose latest attempt on the channel (on
 * either, when none is named) is in one of the delivery statuses, or that are in one of the service
 * statuses (the notice page opened, acknowledged or disputed; the respond-by date passed or within 7
 * days), given as a comma-separated list (`failed,bounced`); a record in any of them is kept. `channel`
 * narrows only the delivery statuses. Either left out filters nothing.
 */
export const deliveryFilterQuery = z.object({
  status: z
    .string({
      error: (issue) => (Array.isArray(issue.input) ? 'status must be given once.' : 'status must be text.'),
    })
    .transform((text, ctx) => {
      const listed = text.split(',').map((part) => part.trim());
      const unknown = listed.find((part) => !(campaignFilterStatuses as readonly string[]).includes(part));
      if (unknown === undefined) return [...new Set(listed)] as CampaignFilterStatus[];
      ctx.issues.push({
        code: 'custom',
        message: `status must be one or more of ${campaignFilterStatuses.join(', ')}, separated by commas; '${unknown.slice(0, 40)}' is none of them.`,
        input: text,
      });
      return z.NEVER;
    })
    .optional()
    .describe(
      `Only records whose latest attempt is in one of these statuses: ${deliveryStatuses.join(', ')}; or whose notice page was ${serviceStatuses.slice(0, 3).join(', ')}; or whose respond-by date has passed (respond_by_passed) or falls within 7 days (respond_by_within_7_days). Comma-separated; a record in any is kept.`,
    ),
  channel: z
    .enum(messageChannels, { error: `channel must be one of ${messageChannels.join(', ')}.` })
    .optional()
    .describe('The channel the delivery statuses look at; either when absent.'),
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
  /** Send also records served on the channel by another campaign within RESERVE_WARN_DAYS (asked by 409 SERVED_RECENTLY). */
  confirmServedRecently: z.boolean().optional(),
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
   * Messages left out because the record's address cannot be served by its form (recorded as
   * not_serviceable), per channel, with each reason and how many it left out.
   */
  notServiceable?: number;
  notServiceableReasons?: { channel: DeliveryChannel; reason: string; count: number }[];
  /**
   * Each channel held to a provider limit (WHATSAPP_RATE, SMTP_RATE): the limit, and the messages a
   * second it went out at over the last 5 seconds, every worker together. Empty when none is limited.
   */
  rates?: { channel: MessageChannel; limit: number; perSecond: number }[];
  /**
   * WHATSAPP_ALONE_REFUSED (on by default; the Supreme Court's order of 10 July 2020): the records this
   * send served by WhatsApp that have no e-mail address to go with it, so are served by WhatsApp only.
   */
  whatsappOnly?: string[];
}

/** Which channel a send summary counts; both when absent. */
export const sendSummaryQuery = z.object({
  channel: z
    .enum(messageChannels, { error: `channel must be one of ${messageChannels.join(', ')}.` })
    .optional()
    .describe('The channel counted; both when absent.'),
});
export type SendSummaryQuery = z.infer<typeof sendSummaryQuery>;

/** Most record ids one send summary takes: the largest page of a campaign. */
export const SEND_SUMMARY_MAX_IDS = 10_000;

/** The records a send summary counts: these ids of the campaign, or every record of it when absent. */
export const sendSummaryBody = z
  .object({
    data: z
      .array(z.string().max(64), { error: 'data must be a list of record ids.' })
      .max(SEND_SUMMARY_MAX_IDS, { error: `Count at most ${SEND_SUMMARY_MAX_IDS} records at once.` })
      .optional(),
  })
  .optional();
export type SendSummaryBody = z.infer<typeof sendSummaryBody>;

/** Per channel, what a send of these records would do, before it is asked. */
export interface SendSummaryChannel {
  channel: MessageChannel;
  /** Records whose send goes on this channel (their Mode Of Dispatch, or both for credit cards). */
  records: number;
  /** Would be sent now: servable and not sent on this channel before. */
  toSend: number;
  /** Left out: the address cannot be served by its form. */
  notServiceable: number;
  /** Served on this channel by another campaign (same loan number / AAN) within RESERVE_WARN_DAYS. */
  servedRecently: number;
  /** Already sent on this channel (a resend would send them again). */
  sentBefore: number;
}

export interface SendSummary {
  /** The records counted (of the caller's, in the campaign). */
  records: number;
  /** BULK_SEND_CONFIRM_THRESHOLD: a send of more records than this asks first. */
  threshold: number;
  /** RESERVE_WARN_DAYS. */
  reserveWarnDays: number;
  channels: SendSummaryChannel[];
}

/**
 * A test send: one record of the campaign (its first when absent) rendered and sent by the real channel
 * to an address the person types, not recorded as service (no delivery; audited as a test send).
 */
export const testSendBody = z.object({
  channel: z.enum(messageChannels, { error: `channel must be one of ${messageChannels.join(', ')}.` }),
  to: z
    .string({ error: 'to must be the e-mail address or mobile number to send the test to.' })
    .max(254, { error: 'to must be at most 254 characters.' }),
  recordId: z.string().max(64).optional(),
});
export type TestSendBody = z.infer<typeof testSendBody>;

export interface TestSendResult {
  message: string;
  channel: DeliveryChannel;
  to: string;
  /** 'outbox' when no provider is set up: the test went to the outbox folder. */
  via: 'provider' | 'outbox';
}

/** The API paths of the pre-send confirmation. */
export const sendConfirmPaths = {
  summary: (campaignId: string) => `/api/campaigns/${encodeURIComponent(campaignId)}/send-summary`,
  testSend: (campaignId: string) => `/api/campaigns/${encodeURIComponent(campaignId)}/test-send`,
} as const;
