import type { AuditEntry } from '@notice-desk/contract/audit';
import { creditCardFields } from '@notice-desk/contract/credit-card';
import { noticeFields } from '@notice-desk/contract/notice';

/** One field an edit changed. */
export type AuditChange = { field: string; label: string; before: string; after: string };

/** The entries that are edits: the ones with a before and an after to compare. */
export const editActions: ReadonlySet<AuditEntry['action']> = new Set([
  'record.update',
  'template.update',
  'user.rename',
]);

const labelsOf = (fields: readonly { key: string; label: string }[]) =>
  new Map(fields.map(({ key, label }) => [key, label]));

/** Field names as the forms label them, per kind of thing edited. */
const fieldLabels: Record<string, Map<string, string>> = {
  notice: labelsOf(noticeFields),
  'credit-card': labelsOf(creditCardFields),
  template: new Map([
    ['value', 'Value'],
    ['html', 'Body'],
  ]),
  user: new Map([
    ['name', 'Name'],
    ['username', 'Username'],
  ]),
};

/** A stored value as text: '' for nothing, text as it is, anything else as JSON. */
export function auditValueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** The fields whose value differs between `before` and `after` of an edit, in the order they were written. */
export function auditChanges(entry: Pick<AuditEntry, 'subjectType' | 'before' | 'after'>): AuditChange[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const labels = fieldLabels[entry.subjectType];
  return fields
    .map((field) => ({
      field,
      label: labels?.get(field) ?? field,
      before: auditValueText(before[field]),
      after: auditValueText(after[field]),
    }))
    .filter((change) => change.before !== change.after);
}
