import { placeholdersIn, replacePlaceholders, templateFormatters } from '@notice-desk/contract/templates';
import type { RecordKind } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import {
  amountInWords,
  formatDate,
  formatInr,
  INDIAN_DEFAULTS,
  type DocumentLocale,
} from '../../lib/indian-format.ts';
import { recordKinds } from '../records/record-kinds.ts';

/** The placeholders a template of a kind may use: the kind's field keys. */
export function placeholdersFor(kind: RecordKind): string[] {
  return recordKinds[kind].fields.map((field) => field.key);
}

// A Set of the kind's own field keys: `constructor`, `__proto__` or `toString` are never fields,
// whatever an object's prototype holds.
const allowedByKind = new Map<RecordKind, Set<string>>(
  (Object.keys(recordKinds) as RecordKind[]).map((kind) => [kind, new Set(placeholdersFor(kind))]),
);

/** What a merge knows of the document besides its values. */
export interface MergeOptions {
  /** The document's language (its template variant's code): `| words` says amounts in it. */
  language?: string | null;
  /**
   * A printed notice: every date field's value prints as `| date` does (one format in the whole notice,
   * whatever each cell of the sheet held), and a date or an `| inr` amount is kept on one line.
   */
  notice?: boolean;
}

/** `| name` → what it does to a value. A Map, so `| constructor` is no formatter either. */
const formatters = new Map<string, (value: string, where: DocumentLocale, options: MergeOptions) => string>([
  ['inr', (value) => formatInr(value)],
  ['words', (value, _where, options) => amountInWords(value, options.language)],
  ['date', (value, where) => formatDate(value, where)],
]);

/** The fields that hold a date, of either kind: in a notice they print as `| date` does. */
export const dateFields: ReadonlySet<string> = new Set([
  'disbursalDate',
  'conciliationDate',
  'noticeSentOn',
  'allocationDated',
  'campDate',
  'noticeDate',
]);

const oneToken = (text: string) => text.length > 0 && text.length <= 40 && !/\s/.test(text);

/** Formatters whose output is one token on paper (20-05-2024, ₹1,25,000.50): a line never breaks inside. */
const unbreakable = new Set(['inr', 'date']);

const formatterList = templateFormatters.map((f) => `| ${f.name}`).join(', ');
const written = (field: string, names: string[]) => `{{${[field, ...names].join(' | ')}}}`;

/**
 * Refuses a template (saved or previewed) that names a placeholder no record of its kind has, or a
 * formatter there is not (or more than one on a placeholder), naming each.
 */
export function checkPlaceholders(kind: RecordKind, text: string, field: string): void {
  const allowed = allowedByKind.get(kind)!;
  const placeholders = placeholdersIn(text);
  const problems: string[] = [];
  const unknown = [...new Set(placeholders.map((p) => p.field).filter((name) => !allowed.has(name)))];
  if (unknown.length > 0) {
    const names = unknown.map((name) => `{{${name}}}`).join(', ');
    problems.push(
      `${names} ${unknown.length === 1 ? 'names' : 'name'} no field of a ${recordKinds[kind].label.toLowerCase()} record. Use one of the listed placeholders.`,
    );
  }
  const unknownFormatters = placeholders.filter(
    (p) => p.formatters.length === 1 && !formatters.has(p.formatters[0]!),
  );
  if (unknownFormatters.length > 0) {
    const names = unknownFormatters.map((p) => written(p.field, p.formatters)).join(', ');
    problems.push(
      `${names} ${unknownFormatters.length === 1 ? 'names' : 'name'} no formatter. Use ${formatterList}.`,
    );
  }
  const chained = placeholders.filter((p) => p.formatters.length > 1);
  if (chained.length > 0) {
    const names = chained.map((p) => written(p.field, p.formatters)).join(', ');
    problems.push(`${names}: a placeholder takes one formatter at most.`);
  }
  if (problems.length > 0) {
    const message = problems.join(' ');
    throw badRequest(message, { [field]: message });
  }
}

/**
 * What a template is merged into. In HTML (a notice, an e-mail body) values are escaped, so a value's
 * `<` or `&` prints as itself and never as markup; in plain text (an e-mail subject, a WhatsApp message)
 * they go as they are, since an escape there would reach the reader as `&amp;`.
 */
export type MergeOutput = 'html' | 'text';

const encoders: Record<MergeOutput, (value: string) => string> = {
  html: escapeHtml,
  text: (value) => value,
};

/**
 * The one template merge: the template with every `{{field}}` replaced by the record's value, and every
 * `{{field | formatter}}` by the value formatted for `where` (LOCALE, TIME_ZONE), written for `output`.
 * Only the values' own keys are read: a name that is no field merges as nothing, never as a prototype's
 * property. A formatter the check would refuse leaves the value as it is. `options` (MergeOptions):
 * the notice's language, and whether it is a printed notice.
 */
export function mergeTemplate(
  template: string,
  values: Readonly<Record<string, string | null | undefined>>,
  output: MergeOutput,
  where: DocumentLocale = INDIAN_DEFAULTS,
  options: MergeOptions = {},
): string {
  const encode = encoders[output];
  return replacePlaceholders(template, (placeholder) => {
    const value = Object.hasOwn(values, placeholder.field) ? values[placeholder.field] : undefined;
    const text = typeof value === 'string' ? value : '';
    let name = placeholder.formatters.length === 1 ? placeholder.formatters[0]! : undefined;
    if (options.notice && name === undefined && dateFields.has(placeholder.field)) name = 'date';
    const format = name === undefined ? undefined : formatters.get(name);
    const merged = encode(format ? format(text, where, options) : text);
    // A no-break span, not U+2011: the bundled fonts need not have a non-breaking hyphen. Only a
    // short value without spaces (a date, an amount), never a sentence a record holds in a date field.
    const keepTogether =
      options.notice && output === 'html' && name !== undefined && unbreakable.has(name) && oneToken(merged);
    return keepTogether ? `<span style="white-space:nowrap">${merged}</span>` : merged;
  });
}
