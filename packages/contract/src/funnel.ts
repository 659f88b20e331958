import type { DeliveryChannel } from './sending.ts';

/**
 * The funnel (issue 29): how many records got how far, per channel. GET /api/campaigns/{id}/funnel for
 * one campaign, GET /api/dashboard/funnel for the caller's live campaigns (an ADMIN's: everyone's).
 *
 * Each number counts records, not messages or visits: a record sent twice is sent once here, and a
 * borrower who opens the page five times opened it once.
 */
export const funnelSteps = [
  'sent',
  'delivered',
  'read',
  'opened',
  'verified',
  'acknowledged',
  'disputed',
  'settleRequested',
] as const;
export type FunnelStep = (typeof funnelSteps)[number];

/** How the chart names each step. */
export const funnelStepLabels: Record<FunnelStep, string> = {
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  opened: 'Opened',
  verified: 'Verified',
  acknowledged: 'Acknowledged',
  disputed: 'Disputed',
  settleRequested: 'Settle asked',
};

/**
 * One row of the funnel. `sent`: an attempt went out (to the provider, or to the outbox when the
 * channel is not set up), bounced ones included; `delivered`: a provider reported it delivered or read;
 * `read`: read (WhatsApp). The page steps come from the notice page's events, by the channel whose link
 * the visitor came by; `any` counts each record once whatever the channel, page events whose channel
 * is not known included.
 */
export type FunnelRow = { channel: DeliveryChannel | 'any' } & Record<FunnelStep, number>;

export interface Funnel {
  /** email, whatsapp, then any. */
  rows: FunnelRow[];
}
