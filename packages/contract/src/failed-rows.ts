import { z } from 'zod';
import { pagingQuery } from './paging.ts';
import { messageChannels, type MessageChannel, type SendResult } from './sending.ts';

/** The statuses a row's latest attempt on a channel has when it did not reach the borrower. */
export const failedRowStatuses = ['failed', 'bounced', 'not_serviceable'] as const;
export type FailedRowStatus = (typeof failedRowStatuses)[number];

/**
 * A campaign's failed rows: `show=unchanged` keeps the rows whose record still has the address that
 * failed (nothing was fixed since), the ones 'Resend failed' would send to the same place again.
 */
export const failedRowsQuery = pagingQuery({ limit: 50, limitMax: 1000 }).extend({
  show: z
    .enum(['all', 'unchanged'], { error: "show must be 'all' or 'unchanged'." })
    .default('all')
    .describe("'unchanged': only the rows whose record still has the address that failed."),
});
export type FailedRowsQuery = z.input<typeof failedRowsQuery>;

/** One record and channel whose latest attempt failed, bounced or was left out as not serviceable. */
export interface FailedRow {
  recordId: string;
  channel: MessageChannel;
  status: FailedRowStatus;
  custName: string;
  /** Loan No. for notices, AAN No. for credit cards. */
  reference: string;
  /** The e-mail address or mobile number the attempt went to. */
  recipient: string;
  /** Why it failed, in words (the provider's error as lib/send-errors.ts and whatsapp-errors.ts read it). */
  reason: string;
  /** ISO time of the failure. */
  failedAt: string;
  /** The record's e-mail and mobile now. */
  emailId: string;
  custMobileNo: string;
  /** The record still has the address that failed. */
  unchanged: boolean;
}

export interface FailedRowsPage {
  items: FailedRow[];
  /** The rows `show` keeps, over the whole campaign. */
  total: number;
  /** Over the whole campaign: every failed row, and those whose address is unchanged since. */
  failed: number;
  unchanged: number;
}

/** Edit and resend: the record's new e-mail and/or mobile, and the channel that failed, resent on it. */
export const editAndResendBody = z
  .object({
    channel: z.enum(messageChannels, { error: `channel must be one of ${messageChannels.join(', ')}.` }),
    emailId: z
      .string({ error: 'emailId must be text.' })
      .max(254, { error: 'emailId must be at most 254 characters.' })
      .optional(),
    custMobileNo: z
      .string({ error: 'custMobileNo must be text.' })
      .max(32, { error: 'custMobileNo must be at most 32 characters.' })
      .optional(),
    /** Send also when the address bounced or failed before (asked by 409 BOUNCED_BEFORE). */
    confirmBounced: z.boolean({ error: 'confirmBounced must be true or false.' }).optional(),
    /** Send also when the borrower was served recently by another campaign (asked by 409 SERVED_RECENTLY). */
    confirmServedRecently: z.boolean({ error: 'confirmServedRecently must be true or false.' }).optional(),
  })
  .strict();
export type EditAndResendBody = z.infer<typeof editAndResendBody>;

export interface EditAndResendResult {
  message: string;
  /** What changed on the record (empty when the addresses were already these). */
  changed: ('emailId' | 'custMobileNo')[];
  /** The resend on the channel that failed. */
  send: SendResult;
}

export const failedRowsPaths = {
  list: (campaignId: string) => `/api/campaigns/${encodeURIComponent(campaignId)}/failed-rows`,
  editAndResend: (campaignId: string, recordId: string) =>
    `/api/campaigns/${encodeURIComponent(campaignId)}/records/${encodeURIComponent(recordId)}/edit-and-resend`,
} as const;
