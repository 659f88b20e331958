import { z } from 'zod';
import type { LegalBasis, ServiceCounts, ServiceDates } from './service-dates.ts';

export const campaignTypes = ['credit-card', 'notice'] as const;
export const campaignType = z.enum(campaignTypes, { error: "type must be 'credit-card' or 'notice'." });
export type CampaignType = z.infer<typeof campaignType>;

/** A history entry: one import, or the owner's 'Manual entries' of a kind. */
export interface Campaign {
  _id: string;
  name: string;
  /** ISO time it was imported. */
  date: string;
  imported: number;
  skipped: number;
}

export interface CampaignList {
  items: Campaign[];
  total: number;
}

/** One record in a campaign's detail table. Statuses read '-' until the record is sent on that channel. */
export interface CampaignRow {
  _id: string;
  custName: string;
  /** Loan No. for notices, Mask No. for credit cards. */
  reference: string;
  date: string;
  /** The latest status on the channel ('queued', 'outbox', 'sent', 'delivered', 'read', 'failed', 'bounced'), or '-'. */
  emailResponse: string;
  whatsappResponse: string;
  /** Why the latest attempt failed, when it did. */
  emailError?: string | null;
  whatsappError?: string | null;
  /** Why the record's e-mail / mobile cannot be served by its form (on a channel it goes on), or null. */
  emailNotServiceable?: string | null;
  whatsappNotServiceable?: string | null;
  /** SMS (issue 31): present only for a record that goes by SMS or was sent one. */
  smsResponse?: string;
  smsError?: string | null;
  /** Served on (and by what) and respond by; null fields until served. */
  service?: ServiceDates | null;
}

export interface SingleCampaign {
  _id: string;
  name: string;
  type: CampaignType;
  date: string;
  total: number;
  imported: number;
  skipped: number;
  /**
   * What its import did with rows already imported (skip, new or update) and how many rows that was;
   * null for manual entries and imports from before the choice.
   */
  duplicates?: { choice: 'skip' | 'new' | 'update'; rows: number } | null;
  /** Records sent on at least one channel. */
  completedCounts: number;
  /** Over the whole campaign: records whose address on a channel they go on cannot be served by its form. */
  notServiceable?: { email: number; whatsapp: number };
  /** Over the whole campaign: how many records' latest attempt on each channel is in each status. */
  statusCounts?: { channel: 'email' | 'whatsapp' | 'sms'; status: string; count: number }[];
  /** Over the whole campaign: how many records are in each service status (the status filter's words). */
  serviceCounts?: ServiceCounts;
  /** The legal basis its records follow (its own, else its kind's); null when none is set. */
  legalBasis?: LegalBasis | null;
  creditCards?: CampaignRow[];
  notices?: CampaignRow[];
}
