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
  /** Fields the sheet has no column for. */
  missing: FieldDefinition[];
  /** Column index -> the header text as written, for the report. */
  headers: Map<number, string>;
}

const exact = (header: string) => header.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Maps a header row to fields. A header matches, best first: a form label exactly (so the notice
 * wizard's 'State' and '01 State' stay apart), a field key, a form label, then the known sheet headers,
 * each ignoring case, spaces, dots and underscores. No field is taken twice.
 */
export function mapHeaders(
  kind: RecordKind,
  fields: readonly FieldDefinition[],
  headerRow: string[],
): ColumnMap {
  const tiers: { match: (header: string) => string; keys: Map<string, string> }[] = [
    { match: exact, keys: new Map() },
    { match: normalizeHeader, keys: new Map() },
    { match: normalizeHeader, keys: new Map() },
    { match: normalizeHeader, keys: new Map() },
  ];
  const add = (tier: number, text: string, key: string) => {
    const { match, keys } = tiers[tier]!;
    if (!keys.has(match(text))) keys.set(match(text), key);
  };
  for (const field of fields) {
    add(0, field.label, field.key);
    add(1, field.key, field.key);
    add(2, field.label, field.key);
    for (const header of extraHeaders[kind][field.key] ?? []) add(3, header, field.key);
  }
  const columns = new Map<number, string>();
  const headers = new Map<number, string>();
  const taken = new Set<string>();
  for (const tier of tiers) {
    headerRow.forEach((header, index) => {
      const key = tier.keys.get(tier.match(header));
      if (!key || taken.has(key) || columns.has(index)) return;
      columns.set(index, key);
      headers.set(index, header.trim());
      taken.add(key);
    });
  }
  return { columns, headers, missing: fields.filter((f) => !taken.has(f.key)) };
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
