import { z } from 'zod';
import { campaignType } from './campaigns.ts';
import { languageByCode } from './languages.ts';
import { recordId } from './record-fields.ts';

/**
 * The language of the template being previewed: a variant's code (`hi`, `ta`), or null (or left out)
 * for a default template. Amounts in words print in it, and the preview's default record is one in it.
 */
export const previewLanguage = z
  .string({ error: 'The language must be a language code, such as hi or ta.' })
  .max(10, { error: 'The language must be a language code, such as hi or ta.' })
  .refine((code) => languageByCode(code) !== undefined, {
    error: (issue) => `‘${String(issue.input)}’ is not a language code the templates know, such as hi or ta.`,
  })
  .nullish();

/** What the PDF Editor's Preview sends: the body as it stands, and which of the caller's records to print it with. */
export const templatePreviewBody = z.object({
  kind: campaignType,
  html: z.string().min(1, { error: 'Body is required!!' }),
  /** One of the caller's records; left out, the newest in the template's language (else the newest). */
  recordId: recordId.optional(),
  language: previewLanguage,
});
export type TemplatePreviewBody = z.infer<typeof templatePreviewBody>;

/** The records a preview may print with: typed text searches them by name or loan, mask or reference number. */
export const previewRecordsQuery = z.object({
  kind: campaignType,
  language: previewLanguage,
  q: z
    .string()
    .trim()
    .max(100, { error: 'Search text must be at most 100 characters.' })
    .optional()
    .transform((q) => q || undefined),
});
export type PreviewRecordsQuery = z.input<typeof previewRecordsQuery>;

/** A record the preview may print with, as the picker lists it. */
export interface PreviewRecord {
  _id: string;
  /** The loan number of a notice, the mask number of a credit card. */
  reference: string;
  custName: string;
  /** The record's language as stored ('' when none). */
  language: string;
  /** Whether the record is in the template's language (it prints this variant). */
  inLanguage: boolean;
}

export interface PreviewRecords {
  records: PreviewRecord[];
  /** The record a preview prints with when none is picked; null when the caller has no record of the kind. */
  defaultId: string | null;
}
