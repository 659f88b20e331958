import type { FieldDefinition } from '@notice-desk/contract/record-fields';
import type { RecordKind } from '../../db/schema.ts';

/** Headers are compared without case, spaces, dots and underscores (and other punctuation). */
export function normalizeHeader(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The headers staff's existing sheets use, beyond each field's key and form label (DESIGN.md).
 * Most of the credit-card headers (AAN NO., CUST NAME, EMAIL ID, …) already match their field key
 * once normalised; these are the ones that do not.
 */
const extraHeaders: Record<RecordKind, Record<string, string[]>> = {
  'credit-card': {
    custName: ['CUSTOMER NAME', 'NAME'],
    custMobileNo: ['MOBILE NO', 'MOBILE', 'CUSTOMER MOBILE NO'],
    emailId: ['EMAIL', 'E-MAIL', 'MAIL ID'],
    referenceNo: ['REF NO', 'REFERENCE NUMBER'],
    maskNo: ['MASK CARD', 'MASKCARD', 'CARD NO'],
    language: ['NOTICE LANGUAGE'],
  },
  notice: {
    loanNo: ['LOAN NUMBER', 'LAN', 'LAN NO', 'AGREEMENT NO'],
    custName: ['CUSTOMER NAME', 'NAME', 'CUST NAME'],
    branchAddress: ['BRANCH NAME', 'BRANCH ADDRESS'],
    clmMob: ['CLM MOBILE', 'CLM MOBILE NO', 'CLM MOB'],
    emiAmt: ['EMI AMOUNT', 'EMI AMT'],
    tenure: ['TENURE'],
    disbursalDate: ['DISBURSAL DATE', 'DISB DATE'],
    totalOverdueAmt: ['TOTAL OVERDUE', 'TOTAL OVERDUE AMOUNT', 'TOTAL DUE'],
    address: ['ADDRESS', 'ADDRESS 1', 'ADDRESS1'],
    zipCode: ['PIN', 'PINCODE', 'PIN CODE', 'ZIP'],
    chassisNo: ['CHASSIS NO'],
    regdNo: ['REGD NO', 'REGISTRATION NO'],
    emailId: ['EMAIL', 'EMAIL ID', 'E-MAIL'],
    custMobileNo: ['MOBILE NO', 'MOBILE', 'CUST MOBILE NO', 'CUSTOMER MOBILE NO'],
    allocationDated: ['ALLOCATION DATED'],
    modeOfDispatch: ['MODE OF DISPATCH', 'DISPATCH MODE'],
    language: ['NOTICE LANGUAGE'],
  },
};

export interface ColumnMap {
  /** Column index -> field key, for the columns that name a field. */
  columns: Map<number, string>;
  /** Fields the sheet has no column for (an ambiguous field is listed in `ambiguous`, not here). */
  missing: FieldDefinition[];
  /** Column index -> the header text as written, for the report. */
  headers: Map<number, string>;
  /** Fields more than one column could be, equally well: left unmapped until someone chooses. */
  ambiguous: Ambiguity[];
}

export interface Ambiguity {
  field: FieldDefinition;
  /** The columns (0-based) that fit it equally well. */
  columns: number[];
}

/** A user's choice: column index -> field key, or null for a column to ignore. */
export type ChosenColumns = Record<string, string | null>;

/**
 * How strongly a header names a field. An exact field key or a known sheet header is the field's own
 * name; a form label is what a person reads in the wizard, so it yields to either ('STATE' is the
 * field `state`, even though the notice wizard labels `hub` 'State').
 */
const Evidence = { keyOrKnownHeader: 3, exactLabel: 2, label: 1 } as const;

const exact = (header: string) => header.trim().replace(/\s+/g, ' ').toLowerCase();

/** Each header the kind knows, normalised, with the fields it names and how strongly. */
function namesOf(kind: RecordKind, fields: readonly FieldDefinition[]) {
  const normalised = new Map<string, Map<string, number>>();
  const exactLabels = new Map<string, Map<string, number>>();
  const add = (names: Map<string, Map<string, number>>, name: string, key: string, strength: number) => {
    if (!name) return;
    const byField = names.get(name) ?? new Map<string, number>();
    byField.set(key, Math.max(byField.get(key) ?? 0, strength));
    names.set(name, byField);
  };
  for (const field of fields) {
    add(normalised, normalizeHeader(field.key), field.key, Evidence.keyOrKnownHeader);
    for (const header of extraHeaders[kind][field.key] ?? [])
      add(normalised, normalizeHeader(header), field.key, Evidence.keyOrKnownHeader);
    add(normalised, normalizeHeader(field.label), field.key, Evidence.label);
    add(exactLabels, exact(field.label), field.key, Evidence.exactLabel);
  }
  return (header: string): Map<string, number> => {
    const found = new Map(normalised.get(normalizeHeader(header)));
    for (const [key, strength] of exactLabels.get(exact(header)) ?? [])
      found.set(key, Math.max(found.get(key) ?? 0, strength));
    return found;
  };
}

/**
 * Maps a header row to fields by evidence (see Evidence), ignoring case, spaces, dots and underscores.
 * Each field takes at most one column and each column at most one field, and among all ways to pair
 * them the one that maps the most columns, then with the strongest evidence, wins: so a header is
 * settled by elimination ('HUB' is `hub`, so 'STATE' is `state`; 'State' and '01 State' are `hub` and
 * `state`). Where two pairings tie, the fields and columns they disagree on are left unmapped and
 * reported as ambiguous; the order of the columns never decides anything.
 */
export function mapHeaders(
  kind: RecordKind,
  fields: readonly FieldDefinition[],
  headerRow: string[],
): ColumnMap {
  const fits = namesOf(kind, fields);
  const candidates = new Map<number, Map<string, number>>();
  // A header repeated more often than it has fields to fit can only tie: the extra copies change nothing
  // but the size of the problem, which a hostile sheet could make 16,384 columns wide.
  const copies = new Map<string, number>();
  headerRow.forEach((header, index) => {
    const found = fits(header);
    if (found.size === 0) return;
    const seen = copies.get(normalizeHeader(header)) ?? 0;
    copies.set(normalizeHeader(header), seen + 1);
    if (seen <= found.size) candidates.set(index, found);
  });

  const columns = new Map<number, string>();
  const ambiguousColumns = new Map<string, Set<number>>();
  for (const component of components(candidates)) {
    const settled = settle(component, candidates);
    for (const [index, key] of settled.columns) columns.set(index, key);
    for (const [key, indexes] of settled.ambiguous) ambiguousColumns.set(key, indexes);
  }
  const headers = new Map([...columns.keys()].map((index) => [index, headerRow[index]!.trim()]));
  const taken = new Set(columns.values());
  const ambiguous = fields
    .filter((field) => ambiguousColumns.has(field.key) && !taken.has(field.key))
    .map((field) => ({ field, columns: [...ambiguousColumns.get(field.key)!].sort((a, b) => a - b) }));
  const undecided = new Set(ambiguous.map((a) => a.field.key));
  return {
    columns,
    headers,
    ambiguous,
    missing: fields.filter((f) => !taken.has(f.key) && !undecided.has(f.key)),
  };
}

/** The fields a column's header could be, strongest evidence first. */
export function candidateFields(
  kind: RecordKind,
  fields: readonly FieldDefinition[],
  header: string,
): string[] {
  return [...namesOf(kind, fields)(header)].sort((a, b) => b[1] - a[1]).map(([key]) => key);
}

/**
 * The automatic mapping with a person's choices on top: a chosen column maps as chosen (null: ignored),
 * and a field chosen for one column is no longer guessed for another. Check the choices with
 * mappingError first.
 */
export function applyChosenColumns(
  kind: RecordKind,
  fields: readonly FieldDefinition[],
  headerRow: string[],
  chosen: ChosenColumns,
): ColumnMap {
  const automatic = mapHeaders(kind, fields, headerRow);
  const chosenIndexes = new Set(Object.keys(chosen).map(Number));
  const chosenFields = new Set(Object.values(chosen).filter((key): key is string => key !== null));
  const columns = new Map<number, string>();
  for (const [index, key] of automatic.columns)
    if (!chosenIndexes.has(index) && !chosenFields.has(key)) columns.set(index, key);
  for (const [index, key] of Object.entries(chosen)) if (key !== null) columns.set(Number(index), key);
  let ambiguous = automatic.ambiguous
    .filter((a) => !chosenFields.has(a.field.key))
    .map((a) => ({ ...a, columns: a.columns.filter((index) => !chosenIndexes.has(index)) }));
  // Choosing for all but one of the columns that tied leaves that one the field's.
  for (const a of ambiguous)
    if (a.columns.length === 1 && !columns.has(a.columns[0]!)) columns.set(a.columns[0]!, a.field.key);
  const taken = new Set(columns.values());
  ambiguous = ambiguous.filter((a) => !taken.has(a.field.key) && a.columns.length > 1);
  const undecided = new Set(ambiguous.map((a) => a.field.key));
  return {
    columns,
    headers: new Map([...columns.keys()].map((index) => [index, (headerRow[index] ?? '').trim()])),
    ambiguous,
    missing: fields.filter((f) => !taken.has(f.key) && !undecided.has(f.key)),
  };
}

/**
 * What is wrong with a person's choices for a header row of `width` columns, in words naming it, or
 * null: a column past the row, a field the kind does not have, or two columns for one field.
 */
export function mappingError(
  fields: readonly FieldDefinition[],
  width: number,
  chosen: ChosenColumns,
): string | null {
  const byKey = new Map(fields.map((field) => [field.key, field]));
  const columnOf = new Map<string, number>();
  for (const [column, key] of Object.entries(chosen)) {
    const index = Number(column);
    if (!/^\d+$/.test(column) || index >= width) {
      return `Column ${column.slice(0, 20)} is not in the header row: it has ${width} columns, numbered 0 to ${width - 1}.`;
    }
    if (key === null) continue;
    const field = byKey.get(key);
    if (!field) return `‘${key.slice(0, 100)}’ is not a field of this import.`;
    const other = columnOf.get(key);
    if (other !== undefined) {
      return `Columns ${Math.min(other, index)} and ${Math.max(other, index)} both map to ${field.label}: a field takes one column.`;
    }
    columnOf.set(key, index);
  }
  return null;
}

/** The columns that compete, directly or through each other, for the same fields. */
function components(candidates: Map<number, Map<string, number>>): number[][] {
  const byField = new Map<string, number[]>();
  for (const [index, found] of candidates)
    for (const key of found.keys()) byField.set(key, [...(byField.get(key) ?? []), index]);
  const done = new Set<number>();
  const result: number[][] = [];
  for (const start of candidates.keys()) {
    if (done.has(start)) continue;
    const component: number[] = [];
    const queue = [start];
    done.add(start);
    while (queue.length) {
      const index = queue.pop()!;
      component.push(index);
      for (const key of candidates.get(index)!.keys())
        for (const other of byField.get(key)!)
          if (!done.has(other)) {
            done.add(other);
            queue.push(other);
          }
    }
    result.push(component);
  }
  return result;
}

/**
 * The best pairing of one component's columns and fields, and where another pairing is as good: a
 * pair of the best is forced when leaving it out makes the best worse; otherwise its column and
 * field are ambiguous.
 */
function settle(component: number[], candidates: Map<number, Map<string, number>>) {
  const keys = [...new Set(component.flatMap((index) => [...candidates.get(index)!.keys()]))];
  const weight = (index: number, key: string, banned?: [number, string]) => {
    if (banned && banned[0] === index && banned[1] === key) return 0;
    const strength = candidates.get(index)!.get(key);
    // Mapping one more column always beats stronger evidence for fewer.
    return strength === undefined ? 0 : 1000 + strength;
  };
  const best = (banned?: [number, string]) => assign(component, keys, (i, k) => weight(i, k, banned));
  const { total, pairs } = best();
  const columns = new Map<number, string>();
  const ambiguous = new Map<string, Set<number>>();
  const unsure = (key: string, index: number) =>
    ambiguous.set(key, (ambiguous.get(key) ?? new Set()).add(index));
  if (component.length === 1 && keys.length === 1) {
    columns.set(component[0]!, keys[0]!);
    return { columns, ambiguous };
  }
  for (const [index, key] of pairs) {
    if (best([index, key]).total < total) columns.set(index, key);
    else unsure(key, index);
  }
  // Every column that could take an undecided field is one of the choices.
  for (const index of component)
    for (const key of candidates.get(index)!.keys())
      if (ambiguous.has(key) && !columns.has(index)) unsure(key, index);
  return { columns, ambiguous };
}

/**
 * The maximum-weight pairing of columns and fields (the Hungarian method on a square matrix, O(n³);
 * a component holds a handful of columns).
 */
function assign(
  columns: number[],
  keys: string[],
  weight: (index: number, key: string) => number,
): { total: number; pairs: [number, string][] } {
  const n = Math.max(columns.length, keys.length);
  const cost = (i: number, j: number) =>
    i < columns.length && j < keys.length ? -weight(columns[i]!, keys[j]!) : 0;
  const u = new Array<number>(n + 1).fill(0);
  const v = new Array<number>(n + 1).fill(0);
  const p = new Array<number>(n + 1).fill(0);
  const way = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Array<number>(n + 1).fill(Infinity);
    const used = new Array<boolean>(n + 1).fill(false);
    do {
      used[j0] = true;
      const i0 = p[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const cur = cost(i0 - 1, j - 1) - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= n; j++) {
        if (used[j]) {
          u[p[j]!] = u[p[j]!]! + delta;
          v[j] = v[j]! - delta;
        } else minv[j] = minv[j]! - delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0);
  }
  let total = 0;
  const pairs: [number, string][] = [];
  for (let j = 1; j <= n; j++) {
    const i = p[j]! - 1;
    if (i < columns.length && j - 1 < keys.length) {
      const w = weight(columns[i]!, keys[j - 1]!);
      if (w > 0) {
        total += w;
        pairs.push([columns[i]!, keys[j - 1]!]);
      }
    }
  }
  return { total, pairs };
}

/** The credit-card headers of staff's existing sheets (DESIGN.md), in their order; S.NO is ignored on import. */
const creditCardSheetHeaders = [
  'S.NO',
  'HUB',
  'LOCATION',
  'AAN NO.',
  'MASK NO.',
  'PRODUCT',
  'ACTIVITY',
  'CUST NAME',
  'CUSTOMER ADDRESS',
  'EMAIL ID',
  'CUST MOBILE NO.',
  'NOTICE BALANCE',
  'OVERDUE AMOUNT',
  'CLM NAME',
  'CLM NO.',
  'LIMIT',
  'AMOUNT EXCEEDED CREDIT LIMIT',
  'CONCILIATOR NAME',
  'CAMP DATE',
  'CAMP LOCATION',
  'NOTICE DATE',
  'REFERENCE NO',
  // Not one of staff's own headers: where a sheet says which language the notice prints in.
  'LANGUAGE',
];

/** The header row of a kind's sample sheet: staff's own headers for credit cards, the form labels for notices. */
export function sampleHeaders(kind: RecordKind, fields: readonly FieldDefinition[]): string[] {
  return kind === 'credit-card' ? creditCardSheetHeaders : fields.map((field) => field.label);
}
