import { z } from 'zod';
import { pagingQuery } from './paging.ts';
import { deliveryStatuses } from './sending.ts';

export interface MailInfo {
  _id: string;
  name: string;
  /** ISO time of the latest status. */
  date: string;
  /** queued, outbox, sent, delivered, read, failed or bounced. */
  status: string;
  channel: 'email' | 'whatsapp' | 'sms';
  error: string | null;
}

export interface DashboardInfo {
  totalCreditCards: number;
  totalNotices: number;
  totalCreditCardCampaigns: number;
  totalNoticeCampaigns: number;
  /** The latest 100 deliveries, newest first. */
  mailInfo: MailInfo[];
}

/** GET /api/dashboard/mails: the caller's deliveries, newest first, a page at a time, of one status or all. */
export const mailDetailsQuery = pagingQuery({ limit: 20, limitMax: 500 }).extend({
  status: z
    .enum(deliveryStatuses, { error: `status must be one of ${deliveryStatuses.join(', ')}.` })
    .optional(),
});
export type MailDetailsQuery = z.infer<typeof mailDetailsQuery>;

export interface MailDetails {
  items: MailInfo[];
  total: number;
}
