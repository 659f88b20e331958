export interface MailInfo {
  _id: string;
  name: string;
  /** ISO time of the latest status. */
  date: string;
  /** queued, outbox, sent, delivered, read, failed or bounced. */
  status: string;
  channel: 'email' | 'whatsapp';
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
