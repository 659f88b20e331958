import { z } from 'zod';
import { languages, recordLanguageNote } from './languages.ts';

/** One input of a record wizard: its key in the API, its label on screen, and its message when left empty. */
export interface FieldDefinition {
  key: string;
  label: string;
  /** The spec's message under the field; absent when the field is optional. */
  required?: string;
  /** Values the form suggests (the field still takes any text). */
  suggestions?: readonly string[];
  /** A note under the field about what its value means, e.g. which template a language prints. */
  note?: (value: string) => string | undefined;
}

/** Longest value a record field may hold; longer is refused, never truncated. */
export const FIELD_MAX = 2000;

function fieldSchema(field: FieldDefinition) {
  const text = z.string({
    error: (issue) =>
      issue.input === undefined
        ? (field.required ?? `${field.label} is required!!`)
        : `${field.label} must be text.`,
  });
  const bounded = text.max(FIELD_MAX, { error: `${field.label} must be at most ${FIELD_MAX} characters.` });
  return field.required
    ? bounded.refine((value) => value.trim().length > 0, { error: field.required })
    : bounded.optional().default('');
}

/** The zod schema for one wizard step, or (given every step's fields) for the whole record. */
export function fieldsSchema<const F extends readonly FieldDefinition[]>(fields: F) {
  const shape = Object.fromEntries(fields.map((field) => [field.key, fieldSchema(field)]));
  return z.object(shape) as unknown as z.ZodObject<{
    [K in F[number]['key']]: z.ZodType<string, string | undefined>;
  }>;
}

/** A record kind's wizard: the fields of each step, in order. Its contract follows from it. */
export type RecordSteps = readonly (readonly FieldDefinition[])[];

/** A record kind's fields in wizard order, and the body schema that checks them (POST and PUT). */
export function recordKindContract<const Steps extends RecordSteps>(steps: Steps) {
  const fields = steps.flat() as Steps[number][number][];
  return { fields, body: fieldsSchema(fields) };
}

/** A record's fields by key, each a string, for the kind whose wizard these steps are. */
export type FieldsOf<Steps extends RecordSteps> = Record<Steps[number][number]['key'], string>;

/**
 * The record's language, optional, on each wizard's last step: it picks the template's language variant.
 * A value that names no language is kept and prints the default template (the note says so).
 */
export const languageField = {
  key: 'language',
  label: 'Language',
  suggestions: languages.map((language) => language.name),
  note: recordLanguageNote,
} as const satisfies FieldDefinition;

export const recordId = z.uuid({ error: 'The id is not a record id.' });

/** A stored record of either kind: its fields and what the server adds. */
export type StoredRecord<Fields> = Fields & {
  _id: string;
  campaignId: string;
  /** The campaign's name, in lists (a loan imported twice shows in which). */
  campaignName?: string;
  createdAt: string;
  updatedAt: string;
  /** Appended to the list's pdfUrl, it opens this record's PDF; empty until PDFs exist. */
  pdfLink: string;
};

/** A page of a record list. */
export interface RecordListPage<Item> {
  items: Item[];
  total: number;
  pdfUrl: string;
}
