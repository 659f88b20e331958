import { languageOf } from '@notice-desk/contract/languages';
import { FIELD_MAX } from '@notice-desk/contract/record-fields';
import {
  recordAddress,
  recordChannels,
  unserviceableReason,
  type ServiceChannel,
} from '@notice-desk/contract/serviceable';
import type { RecordKind } from '../../db/schema.ts';
import type { SheetRow } from '../../lib/xlsx/read-sheet.ts';
import type { RecordKindInfo } from '../records/record-kinds.ts';
import { applyChosenColumns, mapHeaders, type ChosenColumns, type ColumnMap } from './header-mapping.ts';

/** Rows with text searched for the header row. */
export const HEADER_SEARCH = 20;
/** A header row names at least this many fields; fewer is a title or a data row. */
const HEADER_MIN_FIELDS = 3;
/** Labels a refusal lists before '… and N more'. */
const LISTED = 5;

/**
 * The fields that identify a record: a row that repeats them within one file is reported, not imported
 * twice, and one that repeats a record the owner has is a duplicate (see duplicates.ts).
 */
export const identity: Record<RecordKind, readonly string[]> = {
  notice: ['loanNo'],
  'credit-card': ['maskNo', 'aanNo'],
};

/** The identity of a record or row as compared: each identifying field trimmed and in lower case. */
export function identityKey(kind: RecordKind, values: Record<string, string>): string {
  return identity[kind].map((k) => (values[k] ?? '').trim().toLowerCase()).join('|');
}

export const isBlank = (row: SheetRow) => row.cells.every((cell) => cell.trim() === '');

/** The header row's mapping: the automatic one, with a person's choices over it when there are any. */
export function columnMapFor(info: RecordKindInfo, headerCells: string[], chosen?: ChosenColumns): ColumnMap {
  return chosen
    ? applyChosenColumns(info.kind, info.fields, headerCells, chosen)
    : mapHeaders(info.kind, info.fields, headerCells);
}

/** Whether a row looks like the header row: it names enough fields. */
export function namesFields(info: RecordKindInfo, row: SheetRow): boolean {
  const map = mapHeaders(info.kind, info.fields, row.cells);
  return map.columns.size + map.ambiguous.length >= HEADER_MIN_FIELDS;
}

/** 'A, B, C, D, E and 3 more': at most five, so a message stays one a person reads. */
export function listLabels(labels: string[]): string {
  if (labels.length <= 1) return labels.join('');
  if (labels.length <= LISTED) return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
  return `${labels.slice(0, LISTED).join(', ')} and ${labels.length - LISTED} more`;
}

/**
 * Why an import cannot go ahead with this mapping, or null: required fields with no column, and fields
 * that more than one column fits equally well (which the Review mapping step settles).
 */
export function incompleteMapping(map: ColumnMap): string | null {
  const missing = map.missing.filter((field) => field.required).map((field) => field.label);
  const sentences: string[] = [];
  if (missing.length > 0) {
    sentences.push(
      `The sheet has no column for ${listLabels(missing)}. ` +
        'Add these columns (the sample file has every header) or map them in Review mapping, and import again.',
    );
  }
  if (map.ambiguous.length > 0) {
    const fields = listLabels(map.ambiguous.map((a) => a.field.label));
    sentences.push(
      `More than one column could be ${fields}: choose which in Review mapping, or rename the others, and import again.`,
    );
  }
  return sentences.length ? sentences.join(' ') : null;
}

export interface RowProblem {
  /** The header of the column (as written), or the field's label when it has none. */
  column: string;
  text: string;
}

export interface CheckedRow {
  /** The row as it will be stored: each mapped field's trimmed text. */
  values: Record<string, string>;
  /** Problems that keep the row out. */
  problems: RowProblem[];
  /** Imported, but the report says something about it (a language no template knows). */
  notes: RowProblem[];
  /** The earlier row of the file it repeats (its problem says so), if it does. */
  repeatOf?: number;
  /** Channels the row goes on whose address cannot be served by its form, with why (imported all the same). */
  notServiceable?: { channel: ServiceChannel; reason: string }[];
}

/** What the row report says of an address that cannot be served: the record still imports. */
const notServiceableNote = (channel: ServiceChannel, reason: string) =>
  `Imported, but not serviceable by ${channel === 'email' ? 'e-mail' : 'WhatsApp'}: ${reason}. Correct it before sending, or the send leaves it out.`;

/**
 * The checks each data row goes through, for the import and for its preview alike: required fields,
 * length, cells the reader could not read, a repeat of an earlier row, and a language no template knows.
 */
export class RowChecker {
  private readonly columns: [number, string][];
  private readonly columnOf: Map<string, number>;
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly info: RecordKindInfo,
    private readonly map: ColumnMap,
    /** DEFAULT_COUNTRY_CODE: when given, addresses that cannot be served are noted (lib/serviceable.ts). */
    private readonly countryCode?: string,
  ) {
    this.columns = [...map.columns];
    this.columnOf = new Map(this.columns.map(([index, key]) => [key, index]));
  }

  headerOf(key: string): string {
    const index = this.columnOf.get(key);
    return (index !== undefined && this.map.headers.get(index)) || key;
  }

  check(row: SheetRow): CheckedRow {
    const values: Record<string, string> = {};
    for (const [index, key] of this.columns) values[key] = (row.cells[index] ?? '').trim();
    const problems: RowProblem[] = [];
    const notes: RowProblem[] = [];
    // Cells the reader could not take as Excel shows them: reported as what they are, not as empty.
    const unreadable = new Set<string>();
    for (const cell of row.problems ?? []) {
      const key = this.map.columns.get(cell.column);
      if (key === undefined) continue; // an ignored column: nothing of it is stored
      unreadable.add(key);
      problems.push({ column: this.headerOf(key), text: cell.message });
    }
    for (const field of this.info.fields) {
      const value = values[field.key] ?? '';
      if (unreadable.has(field.key)) continue;
      if (field.required && value === '') {
        problems.push({ column: this.headerOf(field.key), text: field.required });
      } else if (value.length > FIELD_MAX) {
        problems.push({ column: this.headerOf(field.key), text: `Longer than ${FIELD_MAX} characters.` });
      }
    }
    let repeatOf: number | undefined;
    if (problems.length === 0) {
      const key = identityKey(this.info.kind, values);
      const first = this.seen.get(key);
      if (first !== undefined) {
        const labels = this.identityLabels();
        problems.push({ column: labels, text: `Repeats row ${first} (same ${labels}).` });
        repeatOf = first;
      } else {
        this.seen.set(key, row.rowNumber);
      }
    }
    const language = values.language;
    if (problems.length === 0 && language && !languageOf(language)) {
      // Kept as written, as the wizard keeps it, but never printed in another language unsaid.
      notes.push({
        column: this.headerOf('language'),
        text: `Imported, but ‘${language.slice(0, 100)}’ is not a language the templates know: this record prints the default template.`,
      });
    }
    const notServiceable: { channel: ServiceChannel; reason: string }[] = [];
    if (problems.length === 0 && this.countryCode !== undefined) {
      for (const channel of recordChannels(this.info.kind, values)) {
        const reason = unserviceableReason(channel, recordAddress(values, channel), this.countryCode);
        if (reason === null) continue;
        notServiceable.push({ channel, reason });
        notes.push({
          column: this.headerOf(channel === 'email' ? 'emailId' : 'custMobileNo'),
          text: notServiceableNote(channel, reason),
        });
      }
    }
    return {
      values,
      problems,
      notes,
      ...(repeatOf !== undefined && { repeatOf }),
      ...(notServiceable.length > 0 && { notServiceable }),
    };
  }

  /** 'Loan No', or 'Mask No and AAN No': the headers of the identifying columns. */
  identityLabels(): string {
    return identity[this.info.kind].map((k) => this.headerOf(k)).join(' and ');
  }
}
