import { z } from 'zod';
import type { CampaignType } from './campaigns.ts';

/** Templates may hold up to this much text; a bigger body answers 413. */
export const TEMPLATE_MAX_BYTES = 2 * 1024 * 1024;

/** A language variant of a template, as its default template lists it. */
export interface TemplateVariant {
  _id: string;
  /** The variant's language code (`hi`, `ta`). */
  language: string;
  name: string;
}

/** What every template says about languages: a default has variants, a variant names its default. */
export interface TemplateLanguage {
  /** The language code of a variant; null for a default template, which prints for every other language. */
  language: string | null;
  /** The default template a variant belongs to; null for a default. */
  variantOf: string | null;
  /** A default's variants (none for a variant). */
  variants: TemplateVariant[];
}

export interface WhatsappTemplate extends TemplateLanguage {
  _id: string;
  key: string;
  name: string;
  value: string;
  kind: CampaignType;
  /** The `{{fieldKey}}` placeholders this template may use. */
  placeholders: string[];
}

export interface EmailTemplate extends TemplateLanguage {
  _id: string;
  key: string;
  name: string;
  html: string;
  kind: CampaignType;
  placeholders: string[];
}

/** Adds a language variant to a default template; it starts as a copy of the default's text. */
export const templateVariantCreate = z.object({
  language: z
    .string({ error: 'Choose a language.' })
    .refine((v) => v.trim().length > 0, { error: 'Choose a language.' }),
});
export type TemplateVariantCreate = z.infer<typeof templateVariantCreate>;

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

/**
 * What `{{ field | formatter }}` does to a field's value in a printed notice, a mail or a WhatsApp text.
 * A value that holds no amount (or no date) prints as it is.
 */
export const templateFormatters = [
  { name: 'inr', example: '₹1,25,000.50', says: 'an amount in rupees, lakh and crore grouping' },
  {
    name: 'words',
    example: 'One Lakh Twenty-Five Thousand Rupees and Fifty Paise',
    says: 'an amount in words, Indian system, in the template’s language',
  },
  { name: 'date', example: '20-05-2024', says: 'a date as LOCALE writes it (day first in India)' },
] as const;
export type TemplateFormatterName = (typeof templateFormatters)[number]['name'];

/** One `{{ field }}` or `{{ field | formatter }}` a template uses. */
export interface Placeholder {
  field: string;
  /** What follows each `|`, in order: none, or one formatter's name (more is refused by the check). */
  formatters: string[];
}

/** A placeholder: a field name, then any `| name`, spaces around each part ignored. */
const placeholderPattern = () => /\{\{\s*([^{}\s|]+)\s*((?:\|\s*[^{}\s|]*\s*)*)\}\}/g;

const placeholderOf = (field: string, piped: string): Placeholder => ({
  field,
  formatters: piped
    .split('|')
    .slice(1)
    .map((name) => name.trim()),
});

/** Every placeholder a template uses, each once: `{{ a|inr }}` and `{{a | inr}}` are one. */
export function placeholdersIn(text: string): Placeholder[] {
  const seen = new Map<string, Placeholder>();
  for (const [, field, piped] of text.matchAll(placeholderPattern())) {
    const placeholder = placeholderOf(field!, piped!);
    seen.set([placeholder.field, ...placeholder.formatters].join('|'), placeholder);
  }
  return [...seen.values()];
}

/** The text with every placeholder replaced by `valueOf(placeholder)`. */
export function replacePlaceholders(text: string, valueOf: (placeholder: Placeholder) => string): string {
  return text.replace(placeholderPattern(), (_, field: string, piped: string) =>
    valueOf(placeholderOf(field, piped)),
  );
}
