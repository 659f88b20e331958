import { z } from 'zod';

/** What temporary-upload answers: `data` is the stored file name to start an import with. */
export interface TemporaryUploadResponse {
  data: string;
}

/** A stored upload's name: random letters and the file's extension (.xlsx, .csv or .tsv), never a path. */
export const storedName = z
  .string({ error: 'file is required: send the name temporary-upload answered.' })
  .regex(/^[A-Za-z0-9_-]{8,64}\.(xlsx|csv|tsv)$/, {
    error: 'file must be a name temporary-upload answered, not a path.',
  });

/** A name a person gives a file or campaign: plain text, no path. */
export const plainName = z
  .string()
  .trim()
  .max(200, { error: 'The name must be at most 200 characters.' })
  .refine((name) => !/[\\/]|\.\./.test(name), { error: 'The name must be a plain file name, not a path.' });

/** Excel's last row: a header row past it is no row of a sheet. */
const MAX_SHEET_ROW = 1_048_576;

/** The sheet row that holds the headers, as Excel numbers it. */
export const headerRowNumber = z.coerce
  .number({ error: 'headerRow must be a row number.' })
  .int({ error: 'headerRow must be a whole row number.' })
  .min(1, { error: 'headerRow must be 1 or more.' })
  .max(MAX_SHEET_ROW, { error: `headerRow must be at most ${MAX_SHEET_ROW}.` });

/**
 * The column mapping a person confirmed: the header row, and for columns of it (0-based index) the
 * field each fills, or null to ignore it. Columns left out are mapped automatically.
 */
const columnKeyError = (key: string) =>
  `Column "${key.slice(0, 20)}" is not a column index: a column is named by its 0-based index, such as "0" or "12".`;
const chosenColumns = z
  // zod drops an own "__proto__" key without a word (the choice would vanish): refused by name first.
  .custom<unknown>(
    (input) => !(input !== null && typeof input === 'object' && Object.hasOwn(input, '__proto__')),
    {
      error: columnKeyError('__proto__'),
    },
  )
  // One spelling per column: "00" would be a second key for column 0 ("0").
  .pipe(
    z.record(z.string().regex(/^(0|[1-9]\d{0,4})$/), z.string().max(100).nullable(), {
      // A key that fails is zod's 'invalid_key' issue, whose own message ('Invalid key in record')
      // names neither the key nor what a key must be: this one does both.
      error: (issue) => (issue.code === 'invalid_key' ? columnKeyError(String(issue.input)) : undefined),
    }),
  )
  .refine((columns) => Object.keys(columns).length <= 16_384, { error: 'More columns than a sheet has.' });

export const columnMapping = z.object({ headerRow: headerRowNumber, columns: chosenColumns });
export type ColumnMapping = z.infer<typeof columnMapping>;

/**
 * What an import does with a row whose loan number (notices) or AAN and mask number (credit cards) the
 * owner already has: leave it out (the default), import it as a new record anyway (a new notice round),
 * or update the existing records that were never served (a served record is never changed: its row
 * is left out).
 */
export const duplicateChoice = z.enum(['skip', 'new', 'update'], {
  error:
    "duplicates must be 'skip' (leave them out), 'new' (import them as new records) or 'update' (update the records not yet served).",
});
export type DuplicateChoice = z.infer<typeof duplicateChoice>;

export const startImportBody = z.object({
  file: storedName,
  /** The campaign's name; the uploaded file's name when absent. */
  name: plainName.optional(),
  /** The confirmed mapping; absent: the automatic one, which must then be complete. */
  mapping: columnMapping.optional(),
  /** What to do with rows already imported; absent: 'skip'. */
  duplicates: duplicateChoice.optional(),
});
export type StartImportBody = z.infer<typeof startImportBody>;

export interface StartImportResponse {
  message: string;
  jobId: string;
}

export type ImportStatus = 'queued' | 'running' | 'done' | 'failed';

/** The caller's latest import of a kind. progressPercentage is null when there has been none. */
export interface ImportProgress {
  progressPercentage: number | null;
  jobId?: string;
  status?: ImportStatus;
  /** When it failed: what was wrong with the file, in words for the person who uploaded it. */
  error?: string | null;
  imported?: number;
  skipped?: number;
  /** Rows imported with a note in the report (a language no template knows). */
  noted?: number;
  /** Rows whose number the owner already had (see duplicateChoice), and existing records they updated. */
  duplicates?: number;
  updated?: number;
  /** Rows imported whose e-mail / mobile cannot be served by its form (on a channel they go on); the report says why. */
  notServiceable?: { email: number; whatsapp: number };
  campaignId?: string | null;
}

/** Rows of an upload whose e-mail or mobile cannot be served by its form: imported all the same, flagged. */
export interface NotServiceableReport {
  /** Rows not serviceable by e-mail, and by WhatsApp (a row may be both). */
  email: number;
  whatsapp: number;
  /** The first 100 of them, in row order, each channel with why. */
  rows: { rowNumber: number; channel: 'email' | 'whatsapp'; reason: string }[];
}

export const importKindName = z.enum(['notice', 'credit-card'], {
  error: "kind must be 'notice' or 'credit-card'.",
});

/** What the Review mapping step asks about an upload. */
export const importPreviewQuery = z.object({
  kind: importKindName,
  /** The header row to use; absent: the one found (or remembered). */
  headerRow: headerRowNumber.optional(),
  /**
   * The columns as the user has them so far (JSON, as in the start request's mapping), so the
   * rows and the problem count are the ones this mapping would give.
   */
  columns: z
    .string()
    .max(200_000)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'columns must be JSON: {"0": "loanNo", "3": null}.' });
        return z.NEVER;
      }
    })
    .pipe(chosenColumns)
    .optional(),
  /** false: answer without reading the whole file (problemRows is then null). */
  scan: z
    .enum(['true', 'false'], { error: 'scan must be true or false.' })
    .optional()
    .transform((value) => value !== 'false'),
});

/** One existing record a row's number matches: its campaign, and whether it was served on any channel. */
export interface DuplicateMatch {
  campaignId: string;
  campaignName: string;
  served: boolean;
}

/** A row already imported: into the owner's records (matches), or earlier in the same file (repeatsRow). */
export interface DuplicateRow {
  rowNumber: number;
  /** The loan number, or the mask number and AAN, as the row has them. */
  number: string;
  matches: DuplicateMatch[];
  repeatsRow: number | null;
}

/** The rows of an upload that are already imported, which the import's duplicate choice applies to. */
export interface DuplicateReport {
  /** Rows whose number the owner already has (in records neither archived nor deleted). */
  existing: number;
  /** Of those, rows whose every matching record was served: an update leaves them out. */
  served: number;
  /** Rows that repeat an earlier row of the same file: always left out. */
  inFile: number;
  /** The first 100 of them, in row order. */
  rows: DuplicateRow[];
}

/** One column of the header row and the field it fills (null: ignored). */
export interface PreviewColumn {
  index: number;
  header: string;
  field: string | null;
  /** The fields its header could be, strongest evidence first (empty when it names none). */
  candidates: string[];
}

export interface ImportPreview {
  fileName: string;
  /** The worksheet read (the first visible one) when the workbook has others; null otherwise and for CSV. */
  sheetName: string | null;
  /** The header row used, as Excel numbers it, and the rows it could be (the first with text in them). */
  headerRow: number;
  headerRows: { rowNumber: number; text: string }[];
  /**
   * Columns of the header row: the first 100, and any other that fills or could fill a field. A
   * header row may have up to 16,384; columnCount says how many it has.
   */
  columns: PreviewColumn[];
  columnCount: number;
  /** The kind's fields, in the wizard's order. */
  fields: { key: string; label: string; required: boolean }[];
  /** Where the mapping came from: found by the headers, confirmed for these headers before, or asked about. */
  source: 'automatic' | 'remembered' | 'chosen';
  /**
   * The first 5 data rows, exactly as they will be stored: the text of each column, by index ('' for a
   * column not in columns; a cell longer than a field stores is cut one character past it).
   */
  rows: { rowNumber: number; cells: string[] }[];
  /**
   * Data rows, and those with a problem the import skips them for; null when not scanned. A row only
   * noted in the report (a language no template knows) is imported, and not counted.
   */
  dataRows: number | null;
  problemRows: number | null;
  /** When the whole file was scanned and has more rows than one import takes. */
  tooManyRows: boolean;
  /** Required fields no column fills. */
  missing: string[];
  /** Fields more than one column could be, equally well, with those columns. */
  ambiguous: { field: string; columns: number[] }[];
  /** True when nothing needs a decision: Import can go ahead with this mapping. */
  complete: boolean;
  /** Rows already imported (null when not scanned). */
  duplicates: DuplicateReport | null;
  /** Rows the import takes whose e-mail or mobile cannot be served (null when not scanned). */
  notServiceable?: NotServiceableReport | null;
  /**
   * Notices: each distinct Mode Of Dispatch (the 50 most common) and how it was understood: the
   * channels it names and the parts no spelling matches (flagged, never guessed). Null when not scanned.
   */
  dispatchModes?: DispatchModeReading[] | null;
}

export interface DispatchModeReading {
  value: string;
  /** Channels: email, whatsapp, sms, speed_post, rpad, courier. */
  channels: string[];
  unknown: string[];
  /** In words: "E-mail + Speed Post; unknown: 'Post'". */
  reading: string;
  rows: number;
}
