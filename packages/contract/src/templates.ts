import { z } from 'zod';
import type { CampaignType } from './campaigns.ts';

/** Templates may hold up to this much text; a bigger body answers 413. */
export const TEMPLATE_MAX_BYTES = 2 * 1024 * 1024;

export interface WhatsappTemplate {
  _id: string;
  key: string;
  name: string;
  value: string;
  kind: CampaignType;
  /** The `{{fieldKey}}` placeholders this template may use. */
  placeholders: string[];
}

export interface EmailTemplate {
  _id: string;
  key: string;
  name: string;
  html: string;
  kind: CampaignType;
  placeholders: string[];
}

export interface TemplateList<T> {
  items: T[];
  total: number;
}

/** key and name are shown but fixed: an update that changes them is refused. */
export const whatsappTemplateUpdate = z.object({
  key: z.string().optional(),
  name: z.string().optional(),
  value: z
    .string({ error: 'value is required!!' })
    .refine((v) => v.trim().length > 0, { error: 'value is required!!' })
    .refine((v) => v.length <= 4096, { error: 'value must be at most 4096 characters (WhatsApp’s limit).' }),
});
export type WhatsappTemplateUpdate = z.infer<typeof whatsappTemplateUpdate>;

export const emailTemplateUpdate = z.object({
  key: z.string().optional(),
  name: z.string().optional(),
  html: z
    .string({ error: 'Body is required!!' })
    .refine((v) => v.trim().length > 0, { error: 'Body is required!!' }),
});
export type EmailTemplateUpdate = z.infer<typeof emailTemplateUpdate>;

/** A `{{ name }}` placeholder; `name` is what the template names, spaces around it ignored. */
const placeholderPattern = () => /\{\{\s*([^{}\s]+)\s*\}\}/g;

/** Every `{{ name }}` a template uses. */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(placeholderPattern())].map((m) => m[1]!))];
}

/** The text with every `{{ name }}` replaced by `valueOf(name)`. */
export function replacePlaceholders(text: string, valueOf: (name: string) => string): string {
  return text.replace(placeholderPattern(), (_, name: string) => valueOf(name));
}
