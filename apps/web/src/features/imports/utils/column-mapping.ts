import type { ColumnMapping, ImportPreview } from '@notice-desk/contract/imports';

export type MappedColumns = ColumnMapping['columns'];

/** Every column of the preview's header row with the field it maps to, or null (Ignored). */
export function columnsOf(preview: ImportPreview): MappedColumns {
  return Object.fromEntries(preview.columns.map((column) => [String(column.index), column.field]));
}

/** The mapping to start the import with: the preview's header row and every column's field. */
export function mappingOf(
  preview: ImportPreview,
  columns: MappedColumns = columnsOf(preview),
): ColumnMapping {
  return { headerRow: preview.headerRow, columns };
}

export type MappingBlockers = {
  /** Labels of required fields no column maps to. */
  missing: string[];
  /** Labels of fields chosen for more than one column. */
  doubled: string[];
};

/** What keeps Import disabled: required fields with no column, fields chosen twice. */
export function mappingBlockers(fields: ImportPreview['fields'], columns: MappedColumns): MappingBlockers {
  const counts = new Map<string, number>();
  for (const key of Object.values(columns)) if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  return {
    missing: fields.filter((field) => field.required && !counts.has(field.key)).map((field) => field.label),
    doubled: fields.filter((field) => (counts.get(field.key) ?? 0) > 1).map((field) => field.label),
  };
}

/** 'A, B, C, D, E and 3 more': at most five names in a sentence. */
export function listLabels(labels: string[]): string {
  if (labels.length <= 1) return labels.join('');
  if (labels.length <= 5) return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
  return `${labels.slice(0, 5).join(', ')} and ${labels.length - 5} more`;
}

/** The sentence under the mapping while Import is disabled, or null when it may go ahead. */
export function blockerMessage({ missing, doubled }: MappingBlockers): string | null {
  const sentences: string[] = [];
  if (missing.length) sentences.push(`Map a column to ${listLabels(missing)} to import.`);
  if (doubled.length) sentences.push(`${listLabels(doubled)}: choose one column each.`);
  return sentences.length ? sentences.join(' ') : null;
}
