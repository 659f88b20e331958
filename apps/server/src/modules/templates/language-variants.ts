import { languageOf } from '@notice-desk/contract/languages';

/** What choosing a variant reads of a template row, PDF or WhatsApp alike. */
export interface VariantRow {
  id: string;
  language: string | null;
  variant_of: string | null;
}

/**
 * The template a record prints or sends with: the default's variant in the record's language (named by
 * code, English or native name, in any case and spacing), else the default itself, also for a language
 * value that names no language.
 */
export function variantFor<T extends VariantRow>(
  base: T,
  templates: readonly T[],
  recordLanguage: string | null | undefined,
): T {
  const language = languageOf(recordLanguage);
  if (!language) return base;
  return templates.find((t) => t.variant_of === base.id && t.language === language.code) ?? base;
}

/** Default templates only: the ones a record's kind or activity chooses among. */
export const defaultsOf = <T extends VariantRow>(templates: readonly T[]): T[] =>
  templates.filter((t) => t.variant_of === null);
