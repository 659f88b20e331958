import { placeholdersIn, replacePlaceholders } from '@notice-desk/contract/templates';
import type { RecordKind } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
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

/** Refuses a template (saved or previewed) that names a placeholder no record of its kind has, naming it. */
export function checkPlaceholders(kind: RecordKind, text: string, field: string): void {
  const allowed = allowedByKind.get(kind)!;
  const unknown = placeholdersIn(text).filter((name) => !allowed.has(name));
  if (unknown.length > 0) {
    const names = unknown.map((name) => `{{${name}}}`).join(', ');
    const message = `${names} ${unknown.length === 1 ? 'names' : 'name'} no field of a ${recordKinds[kind].label.toLowerCase()} record. Use one of the listed placeholders.`;
    throw badRequest(message, { [field]: message });
  }
}

/**
 * The text with every `{{field}}` replaced by the record's value (through `encode`, such as HTML escaping).
 * Only the values' own keys are read: a name that is no field merges as nothing, never as a prototype's property.
 */
export function fillPlaceholders(
  text: string,
  values: Readonly<Record<string, string | null | undefined>>,
  encode: (value: string) => string = (value) => value,
): string {
  return replacePlaceholders(text, (name) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    return encode(typeof value === 'string' ? value : '');
  });
}
