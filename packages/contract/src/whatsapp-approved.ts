import { z } from 'zod';
import type { CampaignType } from './campaigns.ts';

/** What Meta says of a template, or why it cannot be told (not found, no business account set). */
export type ApprovedTemplateState =
  'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED' | 'MISSING' | 'UNKNOWN';

/** The approved WhatsApp template a record kind is sent with, and what Meta says of it now. */
export interface ApprovedTemplate {
  kind: CampaignType;
  /** null until an ADMIN sets one. */
  name: string | null;
  language: string | null;
  /** The record fields that fill the body's parameters {{1}}, {{2}}…, in order. */
  bodyFields: string[];
  status: {
    state: ApprovedTemplateState;
    /** Why it is not usable, in words (a rejection reason, a parameter count that does not match). */
    reason: string | null;
    /** How many parameters the template's body has, when Meta was asked. */
    bodyParameters: number | null;
  };
  /** Whether a send with it would go: APPROVED, a document header, and one field per parameter. */
  usable: boolean;
  /**
   * Added for the notice page (issue 29): how its messages carry the page's link. 'button': as the
   * dynamic suffix of its URL button; 'body': as its last body parameter (one more than the mapped
   * fields); 'button and body': the code as the button's suffix and the whole address as the spare last
   * body parameter; 'none': the template has no place for it. Absent where Meta could not be asked.
   */
  linkBy?: 'button' | 'body' | 'button and body' | 'none';
}

export interface ApprovedTemplates {
  /** template: business-initiated messages as approved templates; session: free-form documents (24-hour window). */
  mode: 'template' | 'session' | 'outbox';
  items: ApprovedTemplate[];
}

/** Meta's template names: lowercase letters, digits and underscores. */
export const approvedTemplateUpdate = z.object({
  name: z
    .string({ error: 'Template name is required!!' })
    .trim()
    .regex(/^[a-z0-9_]{1,512}$/, {
      error: 'The template name is lowercase letters, digits and underscores, as it is at Meta (notice_v2).',
    }),
  language: z
    .string({ error: 'Language is required!!' })
    .trim()
    .regex(/^[a-z]{2,3}(_[A-Za-z]{2,4})?$/, {
      error: 'The language is a WhatsApp language code such as en, en_US or hi.',
    }),
  bodyFields: z
    .array(z.string().min(1).max(64), { error: 'bodyFields must be a list of field keys.' })
    .max(60, { error: 'A template body has at most 60 parameters.' }),
});
export type ApprovedTemplateUpdate = z.infer<typeof approvedTemplateUpdate>;
