import { describeDispatchModes, parseDispatchModes } from '../../lib/dispatch-modes.ts';
import { createHash } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import type {
  DuplicateReport,
  DuplicateRow,
  ImportPreview,
  NotServiceableReport,
} from '@notice-desk/contract/imports';
import { FIELD_MAX } from '@notice-desk/contract/record-fields';
import type { SheetReader, SheetRow } from '../../lib/xlsx/read-sheet.ts';
import type { RecordKindInfo } from '../records/record-kinds.ts';
import { describeMatches, type DuplicateFinder } from './duplicates.ts';
import { candidateFields, normalizeHeader, type ChosenColumns } from './header-mapping.ts';
import {
  columnMapFor,
  HEADER_SEARCH,
  identity,
  identityKey,
  isBlank,
  namesFields,
  RowChecker,
} from './import-rows.ts';

/** Data rows the preview shows. */
const SHOWN_ROWS = 5;
/** Characters of a row shown in the header row selector. */
const ROW_TEXT = 80;
/**
 * Columns of the header row the preview lists, besides those that fill or could fill a field: what a
 * person can review. A header of 16,384 columns listed whole, with each column's candidates and every
 * shown row's cells, was megabytes of answer for a screen nobody reads to its end.
 */
export const SHOWN_COLUMNS = 100;
/** Characters of a shown cell: one past the longest a field stores, so a cell too long still shows as one. */
const CELL_TEXT = FIELD_MAX + 1;

/** Rows already imported the preview lists; the report counts them all. */
export const LISTED_DUPLICATES = 100;
/** Rows looked up against the owner's records at a time. */
const LOOKUP_ROWS = 500;

/** A header row the user named that is not one the import would look at. */
export class HeaderRowError extends Error {}

/** The key a confirmed mapping is remembered by: the header row's cells, normalised, trailing blanks left off. */
export function headerKey(cells: string[]): string {
  const names = cells.map(normalizeHeader);
  while (names.length && names.at(-1) === '') names.pop();
  return createHash('sha256').update(JSON.stringify(names)).digest('hex');
}

/**
 * The sheet's first rows with text, up to HEADER_SEARCH, and the header row among them: the one asked
 * for, else the first that names enough fields (else the first row, for the user to change). Throws
 * HeaderRowError for a row number that is not among them. `rest` goes on with the rows after them.
 */
export async function readTopRows(
  reader: SheetReader,
  info: RecordKindInfo,
  headerRow?: number,
): Promise<{ top: SheetRow[]; header: SheetRow | undefined }> {
  const top: SheetRow[] = [];
  // next() by hand: leaving a for-await loop early would close the generator the data rows come from.
  while (top.length < HEADER_SEARCH) {
    const next = await reader.rows.next();
    if (next.done) break;
    if (!isBlank(next.value)) top.push(next.value);
  }
  if (headerRow === undefined) {
    for (const row of top) {
      if (namesFields(info, row)) return { top, header: row };
      // Mapping a row of 16,384 headers takes tens of milliseconds on this thread: twenty of them in
      // one go held every other request for about a second.
      await setImmediate();
    }
    return { top, header: top[0] };
  }
  const header = top.find((row) => row.rowNumber === headerRow);
  if (!header) {
    throw new HeaderRowError(
      `Row ${headerRow} cannot be the header row: it must be one of the first ${HEADER_SEARCH} rows with text in them (${top.map((r) => r.rowNumber).join(', ') || 'the sheet has none'}).`,
    );
  }
  return { top, header };
}

export interface PreviewOptions {
  headerRow?: number;
  /** false: stop after the shown rows (problemRows is then null). */
  scan: boolean;
  maxRows: number;
  /** The user's choices for a header row: the ones asked about, or the ones remembered for it. */
  mappingFor: (headerCells: string[]) => Promise<ChosenMapping | undefined>;
  /** Finds the owner's records rows repeat (when scanning): the duplicates report. */
  duplicates?: DuplicateFinder;
  /** DEFAULT_COUNTRY_CODE: the mobile rule of the not-serviceable report; 91 when absent. */
  countryCode?: string;
}

export interface ChosenMapping {
  columns: ChosenColumns;
  source: 'remembered' | 'chosen';
}

/**
 * What the Review mapping step shows about a sheet: its header row and the rows it could be, each
 * column's field, the first rows as they will be stored, and (scanning the whole sheet, at most
 * maxRows + 1 rows) how many rows have a problem, by the same checks the import makes.
 */
export async function previewSheet(
  reader: SheetReader,
  info: RecordKindInfo,
  fileName: string,
  options: PreviewOptions,
): Promise<ImportPreview> {
  const { top, header } = await readTopRows(reader, info, options.headerRow);
  const headerCells = header?.cells ?? [];
  const chosen = header ? await options.mappingFor(headerCells) : undefined;
  const map = columnMapFor(info, headerCells, chosen?.columns);
  const checker = new RowChecker(info, map, options.countryCode ?? '91');
  const notServiceable: NotServiceableReport = { email: 0, whatsapp: 0, rows: [] };
  // The columns listed: the first SHOWN_COLUMNS, and any other that fills or could fill a field (a
  // mapping shown without them would seem to lack a field the import has).
  const shownColumns = new Set<number>();
  for (let index = 0; index < Math.min(headerCells.length, SHOWN_COLUMNS); index++) shownColumns.add(index);
  for (const index of map.columns.keys()) shownColumns.add(index);
  for (const tie of map.ambiguous) for (const index of tie.columns) shownColumns.add(index);
  const listed = [...shownColumns].sort((a, b) => a - b);
  const width = listed.length ? listed.at(-1)! + 1 : 0;
  const rows: ImportPreview['rows'] = [];
  let dataRows = 0;
  let problemRows = 0;
  let tooManyRows = false;

  // Notices: how each distinct Mode Of Dispatch reads (a few distinct values in practice; at most 1,000 kept).
  const dispatchValues = new Map<string, number>();
  const duplicates = new DuplicateTally(info, options.scan ? options.duplicates : undefined);

  const take = (row: SheetRow): boolean => {
    dataRows += 1;
    if (dataRows > options.maxRows) {
      tooManyRows = true;
      return false;
    }
    if (rows.length < SHOWN_ROWS)
      rows.push({ rowNumber: row.rowNumber, cells: shownCells(row.cells, shownColumns, width) });
    // A note (a language no template knows) imports the row all the same: only problems skip one.
    const checked = checker.check(row);
    if (checked.problems.length) problemRows += 1;
    for (const { channel, reason } of checked.notServiceable ?? []) {
      // An SMS goes to the mobile WhatsApp goes to: the report counts e-mail and WhatsApp.
      if (channel === 'sms') continue;
      notServiceable[channel] += 1;
      if (notServiceable.rows.length < LISTED_DUPLICATES)
        notServiceable.rows.push({ rowNumber: row.rowNumber, channel, reason });
    }
    duplicates.add(row.rowNumber, checked.values, checked.problems.length === 0, checked.repeatOf);
    const mode = info.kind === 'notice' ? checked.values.modeOfDispatch?.trim() : undefined;
    if (mode !== undefined && (dispatchValues.has(mode) || dispatchValues.size < 1000))
      dispatchValues.set(mode, (dispatchValues.get(mode) ?? 0) + 1);
    return options.scan || rows.length < SHOWN_ROWS;
  };
  let going = true;
  for (const row of top) if (going && header && row.rowNumber > header.rowNumber) going = take(row);
  if (header) {
    while (going) {
      const next = await reader.rows.next();
      if (next.done) break;
      if (!isBlank(next.value)) going = take(next.value);
      if (duplicates.due) await duplicates.lookUp();
    }
  }

  const missing = map.missing.filter((field) => field.required).map((field) => field.key);
  return {
    fileName,
    sheetName: reader.sheetName && (reader.sheetCount ?? 1) > 1 ? reader.sheetName : null,
    headerRow: header?.rowNumber ?? 1,
    headerRows: top.map((row) => ({
      rowNumber: row.rowNumber,
      text: row.cells
        .map((cell) => cell.trim())
        .filter(Boolean)
        .join(' | ')
        .slice(0, ROW_TEXT),
    })),
    columns: listed.map((index) => ({
      index,
      header: headerCells[index]!.trim().slice(0, CELL_TEXT),
      field: map.columns.get(index) ?? null,
      candidates: candidateFields(info.kind, info.fields, headerCells[index]!),
    })),
    columnCount: headerCells.length,
    fields: info.fields.map((field) => ({ key: field.key, label: field.label, required: !!field.required })),
    source: chosen?.source ?? 'automatic',
    rows,
    dataRows: options.scan ? Math.min(dataRows, options.maxRows) : null,
    problemRows: options.scan ? problemRows : null,
    tooManyRows,
    missing,
    ambiguous: map.ambiguous.map((a) => ({ field: a.field.key, columns: a.columns })),
    complete: missing.length === 0 && map.ambiguous.length === 0 && !!header,
    duplicates: options.scan && header ? await duplicates.report() : null,
    notServiceable: options.scan && header ? notServiceable : null,
    dispatchModes:
      options.scan && header && info.kind === 'notice'
        ? [...dispatchValues]
            .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
            .slice(0, 50)
            .map(([value, rows]) => {
              const modes = parseDispatchModes(value);
              return { value, ...modes, reading: describeDispatchModes(modes), rows };
            })
        : null,
  };
}

/**
 * The rows of a scanned sheet already imported: looked up against the owner's records a batch at a
 * time (only rows the import would take), and the repeats within the file the checks found.
 */
class DuplicateTally {
  private pending: { rowNumber: number; values: Record<string, string> }[] = [];
  private readonly listed: DuplicateRow[] = [];
  private existing = 0;
  private served = 0;
  private inFile = 0;

  constructor(
    private readonly info: RecordKindInfo,
    private readonly finder: DuplicateFinder | undefined,
  ) {}

  /** A data row: taken (no problem), or a repeat of an earlier row of the file. */
  add(rowNumber: number, values: Record<string, string>, taken: boolean, repeatOf?: number): void {
    if (!this.finder) return;
    if (repeatOf !== undefined) {
      this.inFile += 1;
      this.list({ rowNumber, number: this.numberOf(values), matches: [], repeatsRow: repeatOf });
    } else if (taken) {
      this.pending.push({ rowNumber, values });
    }
  }

  get due(): boolean {
    return this.pending.length >= LOOKUP_ROWS;
  }

  async lookUp(): Promise<void> {
    const rows = this.pending;
    this.pending = [];
    if (!this.finder || rows.length === 0) return;
    const found = await this.finder.find(rows.map((row) => row.values));
    for (const { rowNumber, values } of rows) {
      const matches = found.get(identityKey(this.info.kind, values));
      if (!matches) continue;
      this.existing += 1;
      if (matches.every((m) => m.served)) this.served += 1;
      this.list({
        rowNumber,
        number: this.numberOf(values),
        matches: describeMatches(matches),
        repeatsRow: null,
      });
    }
  }

  async report(): Promise<DuplicateReport | null> {
    if (!this.finder) return null;
    await this.lookUp();
    return {
      existing: this.existing,
      served: this.served,
      inFile: this.inFile,
      rows: this.listed.sort((a, b) => a.rowNumber - b.rowNumber).slice(0, LISTED_DUPLICATES),
    };
  }

  /** Keeps the first rows by row number (repeats are found as read, existing ones a batch later). */
  private list(row: DuplicateRow): void {
    this.listed.push(row);
    if (this.listed.length > LISTED_DUPLICATES * 2) {
      this.listed.sort((a, b) => a.rowNumber - b.rowNumber).length = LISTED_DUPLICATES;
    }
  }

  private numberOf(values: Record<string, string>): string {
    return identity[this.info.kind]
      .map((key) => values[key] ?? '')
      .filter(Boolean)
      .join(' / ')
      .slice(0, CELL_TEXT);
  }
}

/** A data row's cells as stored, by index, for the listed columns only (the others are left empty). */
function shownCells(cells: string[], shown: Set<number>, width: number): string[] {
  const out: string[] = [];
  for (let index = 0; index < Math.min(cells.length, width); index++)
    out.push(shown.has(index) ? cells[index]!.trim().slice(0, CELL_TEXT) : '');
  return out;
}
