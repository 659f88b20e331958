import { z } from 'zod';
import type { CampaignType } from './campaigns.ts';

/**
 * Placeholders an SMS text may use besides the record's fields: the notice page's whole address, or
 * its code with the channel (`<code>?c=s`, 26 characters) for a template that registers the address's
 * fixed part (`https://notices.example.in/n/{#var#}`): a DLT slot takes at most 30 characters.
 */
export const smsLinkPlaceholders = ['noticeLink', 'noticeCode'] as const;

/** The DLT template a record kind's SMS goes on, as an ADMIN set it, and how its text goes. */
export interface SmsTemplate {
  kind: CampaignType;
  /** null until an ADMIN sets one: no SMS of this kind can be sent. */
  dltTemplateId: string | null;
  /** The text as registered on the DLT platform, with a {#var#} for each variable. */
  registeredText: string;
  /** The SMS text in the product's placeholders: the registered text with a placeholder for each slot. */
  text: string;
  /** The placeholder (a record field, or noticeLink / noticeCode) that fills each slot, in order. */
  slotFields: string[];
  /** With each slot at its longest (30 characters): the segments it takes, and whether it needs Unicode (UCS-2). */
  length: { characters: number; segments: number; unicode: boolean };
  updatedAt: string | null;
}

export interface SmsTemplates {
  /** Where SMS go: MSG91, or the outbox folder without its settings. */
  via: 'msg91' | 'outbox';
  /** SMS_DLT_ENTITY_ID and SMS_SENDER, as set (null: unset). */
  entityId: string | null;
  sender: string | null;
  items: SmsTemplate[];
}

export const smsTemplateUpdate = z.object({
  dltTemplateId: z
    .string({ error: 'dltTemplateId is required: the template id the DLT platform gave (19 digits).' })
    .trim()
    .regex(/^\d{10,25}$/, {
      error: 'dltTemplateId must be the DLT template id: digits only (19 as a rule).',
    }),
  registeredText: z
    .string({ error: 'registeredText is required: the template text as registered on DLT.' })
    .min(1, { error: 'registeredText is required: the template text as registered on DLT.' })
    .max(2000, { error: 'registeredText must be at most 2000 characters.' }),
  text: z
    .string({ error: 'text is required: the registered text with a placeholder where each {#var#} is.' })
    .min(1, { error: 'text is required: the registered text with a placeholder where each {#var#} is.' })
    .max(2000, { error: 'text must be at most 2000 characters.' }),
});
export type SmsTemplateUpdate = z.infer<typeof smsTemplateUpdate>;
