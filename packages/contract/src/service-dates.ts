import { z } from 'zod';
import type { campaignType } from './campaigns.ts';

/**
 * The dates that follow from service (issue 29): when a record was served, by which event, and the day
 * the response period it starts runs out. The legal basis names the period: NI Act s.138 gives 15 days
 * from receipt, SARFAESI s.13(2) 60 days, any other basis (conciliation, …) the days the office sets.
 * A record kind has a default; a campaign may override it.
 */
export const legalBases = ['ni-138', 'sarfaesi-13-2', 'other'] as const;
export type LegalBasisName = (typeof legalBases)[number];

/** The periods the Acts fix, and how each reads. */
export const statutoryBases = {
  'ni-138': { label: 'NI Act s.138', periodDays: 15 },
  'sarfaesi-13-2': { label: 'SARFAESI s.13(2)', periodDays: 60 },
} as const;

/**
 * What counts as served. `first-event`: the first of delivered or read on any channel, or the notice
 * page's verified or acknowledged; failing those, deemed service DEEMED_SERVICE_DAYS after the first dispatch.
 */
export const servedWhens = ['first-event'] as const;
export type ServedWhen = (typeof servedWhens)[number];

export const OTHER_PERIOD_MAX_DAYS = 365;
export const LEGAL_BASIS_LABEL_MAX = 60;

export const legalBasisBody = z
  .object({
    basis: z.enum(legalBases, { error: "basis must be 'ni-138', 'sarfaesi-13-2' or 'other'." }),
    periodDays: z
      .number({ error: 'periodDays must be a whole number of days.' })
      .int({ error: 'periodDays must be a whole number of days.' })
      .min(1, { error: `periodDays must be from 1 to ${OTHER_PERIOD_MAX_DAYS}.` })
      .max(OTHER_PERIOD_MAX_DAYS, { error: `periodDays must be from 1 to ${OTHER_PERIOD_MAX_DAYS}.` })
      .optional(),
    label: z
      .string({ error: 'label must be text, such as Conciliation.' })
      .trim()
      .max(LEGAL_BASIS_LABEL_MAX, { error: `label must be at most ${LEGAL_BASIS_LABEL_MAX} characters.` })
      .optional(),
    servedWhen: z.enum(servedWhens, { error: "servedWhen must be 'first-event'." }).default('first-event'),
  })
  .superRefine((body, ctx) => {
    if (body.basis === 'other') {
      if (body.periodDays === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['periodDays'],
          message: `periodDays is needed for 'other': the days to respond, 1 to ${OTHER_PERIOD_MAX_DAYS}.`,
        });
      if (!body.label)
        ctx.addIssue({
          code: 'custom',
          path: ['label'],
          message: "label is needed for 'other': name the basis, such as Conciliation.",
        });
    } else if (body.periodDays !== undefined && body.periodDays !== statutoryBases[body.basis].periodDays)
      ctx.addIssue({
        code: 'custom',
        path: ['periodDays'],
        message: `periodDays is fixed by ${statutoryBases[body.basis].label} at ${statutoryBases[body.basis].periodDays} days; leave it out, or choose 'other'.`,
      });
  });
export type LegalBasisBody = z.input<typeof legalBasisBody>;

export interface LegalBasis {
  basis: LegalBasisName;
  /** NI Act s.138, SARFAESI s.13(2), or the office's own label. */
  label: string;
  periodDays: number;
  servedWhen: ServedWhen;
  /** Where it comes from: the record kind's default or the campaign's own. */
  source: 'kind' | 'campaign';
  updatedAt: string;
}

/** The defaults per record kind (null: none set, so no record of that kind has a respond-by date). */
export interface LegalBasisSettings {
  kinds: Record<z.infer<typeof campaignType>, LegalBasis | null>;
  /** DEEMED_SERVICE_DAYS: deemed service this many days after the first dispatch (0: never deemed). */
  deemedServiceDays: number;
}

/** A campaign's legal basis: its own, else its kind's default, else null. */
export interface CampaignLegalBasis {
  campaignId: string;
  basis: LegalBasis | null;
}

/** The paths of the legal basis settings. */
export const legalBasisPaths = {
  settings: '/api/legal-basis',
  kind: (kind: string) => `/api/legal-basis/kinds/${encodeURIComponent(kind)}`,
  campaign: (campaignId: string) => `/api/legal-basis/campaigns/${encodeURIComponent(campaignId)}`,
} as const;

/**
 * A record's service: `servedOn` the instant (ISO) it counts as served, `servedBy` the event that set it
 * ('email: delivered', 'whatsapp: read', 'notice page: acknowledged', 'deemed (30 days after dispatch)'),
 * `respondBy` the last day of the response period (YYYY-MM-DD in TIME_ZONE). All null until served;
 * respondBy also while no legal basis is set.
 */
export interface ServiceDates {
  servedOn: string | null;
  servedBy: string | null;
  respondBy: string | null;
  /** The same as people read them: DD-MM-YYYY in TIME_ZONE. */
  shown: { servedOn: string | null; respondBy: string | null };
}

/**
 * What the campaign table's `status` filter takes besides the delivery statuses: what the notice page
 * saw (`opened`, `acknowledged`, `disputed`) and where the response period stands.
 */
export const serviceStatuses = [
  'opened',
  'acknowledged',
  'disputed',
  'respond_by_passed',
  'respond_by_within_7_days',
] as const;
export type ServiceStatus = (typeof serviceStatuses)[number];

/** How many of a campaign's records are in each service status. */
export type ServiceCounts = Record<ServiceStatus, number>;
