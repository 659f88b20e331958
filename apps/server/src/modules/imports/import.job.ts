import { importedRows } from '../../lib/metrics.ts';
import { columnMapping, duplicateChoice, type ColumnMapping } from '@notice-desk/contract/imports';
import { z } from 'zod';
import { isPostgres, type Database } from '../../db/database.ts';
import type { RecordState } from '../../db/schema.ts';
import { defineJob } from '../../jobs/job-definition.ts';
import { PermanentJobError, type JobContext } from '../../jobs/job-runner.ts';
import { newId } from '../../lib/ids.ts';
import { openSheet } from '../../lib/sheet-source.ts';
import { StoredFileMissing, type FileStore, type LocalCopy } from '../../lib/storage.ts';
import { nowIso } from '../../lib/time.ts';
import type { SheetReader, SheetRow } from '../../lib/xlsx/read-sheet.ts';
import { XlsxError } from '../../lib/xlsx/xlsx-error.ts';
import * as campaigns from '../campaigns/campaigns.repository.ts';
import { recordKinds, type RecordKindInfo } from '../records/record-kinds.ts';
import * as records from '../records/records.repository.ts';
import { indexRecords } from '../search/search-index.ts';
import { campaignNames, DuplicateFinder } from './duplicates.ts';
import { startHandOver, type HandOverThread } from './hand-over-in-worker.ts';
import { finishImport, importResult, type HandOver } from './hand-over.ts';
import type { ColumnMap } from './header-mapping.ts';
import {
  columnMapFor,
  HEADER_SEARCH,
  incompleteMapping,
  identity,
  identityKey,
  isBlank,
  namesFields,
  RowChecker,
  type CheckedRow,
  type RowProblem,
} from './import-rows.ts';
import {
  deleteProblems,
  deleteTermsOf,
  insertProblems,
  setCampaignMapping,
  type ImportProblemRow,
} from './imports.repository.ts';

export const importJobPayload = z.object({
  kind: z.enum(['notice', 'credit-card']),
  /** Storage key of the uploaded file. */
  fileKey: z.string().min(1),
  /** The file's name as uploaded (absent in jobs queued before it was recorded). */
  fileName: z.string().optional(),
  campaignName: z.string().min(1),
  /** The mapping the user confirmed (checked when the import was started); absent: the automatic one. */
  mapping: columnMapping.optional(),
  /** What to do with rows the owner already has (absent in jobs queued before the choice: 'skip'). */
  duplicates: duplicateChoice.optional(),
});
export type ImportPayload = z.infer<typeof importJobPayload>;
export const IMPORT_JOB = defineJob('import', importJobPayload);

export interface ImportResult {
  campaignId: string;
  imported: number;
  skipped: number;
  /** Rows imported with a note in the report (absent in results from before notes). */
  noted?: number;
  /** Rows whose number the owner already had, and the existing records they updated (absent before the choice). */
  duplicates?: number;
  updated?: number;
  /** Rows imported whose e-mail / mobile cannot be served by its form, on a channel they go on (absent before). */
  notServiceable?: { email: number; whatsapp: number };
}

export interface ImportLimits {
  maxRows: number;
  maxUnpackedBytes: number;
  maxSharedStringsBytes: number;
  /** LOCALE: the order Excel's locale-dependent date formats print in. */
  locale: string;
  /** DEFAULT_COUNTRY_CODE: the mobile rule of the not-serviceable notes; 91 when absent. */
  countryCode?: string;
}

/**
 * Rows written per transaction, on either database: small enough to keep the database free for others
 * between them, and to keep a batch's rows and search terms from living long enough to be promoted to
 * the old heap. At 1,000 a 100,000-row SQLite import peaked about 80 MB higher for no gain in speed; on
 * SQLite a transaction also holds the main thread from start to end (its driver is synchronous). On
 * PostgreSQL, 500 rows, with the next batch checked while the database wrote the last, peaked at
 * 445-483 MB; 250 rows written one batch at a time peak at 372-382 MB, and the import is no slower
 * (10.6-10.8 s against 10.7-11.4 s, alternated) for less CPU (8.2-8.5 s against 9.2-9.8 s).
 */
const BATCH_ROWS = 250;

/** The progress of an import a worker has taken up, before its first row; the sheet read is at READ_PERCENT. */
export const STARTED_PERCENT = 1;
const READ_PERCENT = 95;

/**
 * Imports one uploaded sheet, rows written as they are read under a campaign marked 'importing'. On
 * SQLite, which has one writer at a time, each batch is a short transaction of its own, its rows
 * hidden ('importing'); one short transaction at the end reveals them, marks the campaign ready and
 * the job done. On PostgreSQL the whole import is one transaction. Either way a failure or a crash at
 * any point leaves nothing visible, and the next attempt first removes whatever the last one wrote.
 */
export function importJob(db: Database, store: FileStore, limits: ImportLimits) {
  return async (context: JobContext, payload: ImportPayload): Promise<void> => {
    const { job } = context;
    const info = recordKinds[payload.kind];
    // Taken up: the bar moves at once. Opening the file comes before any row, and takes a few hundred
    // ms on an idle machine, seconds on a busy one; the web polls a young import every second.
    await context.progress(STARTED_PERCENT);
    await campaigns.deleteUnfinishedImport(db, job.id);
    await deleteProblems(db, job.id);

    // A server process died while it ran this import (its lease ran out and this worker took it over).
    // The file may be what killed it: it is not read the same way again. After one death it is read in
    // a child process of its own, where nothing the file does can end the server; after two, it stops.
    const fileName = payload.fileName ?? `${payload.campaignName}.xlsx`;
    if (job.lost_leases >= 2) {
      throw new PermanentJobError(
        `${fileName} was not imported: the server process running its import stopped ${job.lost_leases} times while it ran, so it was not started again. Check the file in Excel (or split it into smaller files) and import it again.`,
      );
    }
    // A bucket's file is read from a copy on this machine, removed when the import ends either way.
    let copy: LocalCopy;
    try {
      copy = await store.localCopy(payload.fileKey);
    } catch (err) {
      if (err instanceof StoredFileMissing)
        throw new PermanentJobError(
          `${fileName} was not imported: the uploaded file is no longer kept. Upload it again.`,
        );
      throw err;
    }
    let reader: SheetReader;
    try {
      reader = await openSheet(
        copy.path,
        fileName,
        {
          maxInflatedBytes: limits.maxUnpackedBytes,
          maxSharedStringsBytes: limits.maxSharedStringsBytes,
          locale: limits.locale,
          maxRows: limits.maxRows,
        },
        { in: job.lost_leases > 0 ? 'process' : 'thread' },
      );
    } catch (err) {
      await copy.release();
      throw asJobError(err);
    }
    const campaignId = newId();
    const handOverOf = (result: ImportResult): HandOver => ({
      kind: info.kind,
      campaignId,
      ownerId: job.owner_id,
      campaignName: payload.campaignName,
      imported: result.imported,
      skipped: result.skipped,
      noted: result.noted ?? 0,
      duplicates: result.duplicates ?? 0,
      updated: result.updated ?? 0,
      notServiceable: result.notServiceable ?? { email: 0, whatsapp: 0 },
      duplicateChoice: payload.duplicates ?? 'skip',
    });
    const read = (into: Database, state: RecordState) =>
      readIntoCampaign(into, context, info, reader, payload, campaignId, limits, state);
    let handOverThread: HandOverThread | undefined;
    let written = 0;
    try {
      if (isPostgres(db)) {
        // The whole import is one transaction, so its rows are written live: no one sees them before
        // the commit, and a failure or a crash rolls all of it back. Revealing 100,000 hidden rows at
        // the end rewrote every one of them (2.6-3.1 s after the last row).
        await db.transaction().execute(async (trx) => {
          const h = handOverOf(await read(trx, 'live'));
          reader.close();
          await finishImport(trx, h, (t) => context.complete(t, importResult(h)));
          written = h.imported + h.updated;
        });
      } else {
        handOverThread = await startHandOver(db, context);
        const h = handOverOf(await read(db, records.IMPORTING));
        reader.close(); // every row is in: the reader's thread goes
        await handOverThread.run(h);
        written = h.imported + h.updated;
      }
      importedRows.inc(written);
    } catch (err) {
      await campaigns.deleteUnfinishedImport(db, job.id).catch(() => undefined);
      throw asJobError(err, reader);
    } finally {
      reader.close();
      handOverThread?.stop();
      await copy.release();
    }
  };
}

/** The file's failure as the job's; naming the sheet that was read when the workbook has others. */
function asJobError(err: unknown, reader?: SheetReader): unknown {
  const failure = err instanceof XlsxError ? new PermanentJobError(err.message) : err;
  if (failure instanceof PermanentJobError && reader?.sheetName && (reader.sheetCount ?? 1) > 1) {
    failure.message = `Sheet '${reader.sheetName}': ${failure.message}`;
  }
  return failure;
}

async function readIntoCampaign(
  db: Database,
  context: JobContext,
  info: RecordKindInfo,
  reader: SheetReader,
  payload: ImportPayload,
  campaignId: string,
  limits: ImportLimits,
  /** LIVE on PostgreSQL, where `db` is the import's one transaction; IMPORTING (hidden) on SQLite. */
  state: RecordState,
): Promise<ImportResult> {
  const { job } = context;
  const rows = reader.rows;
  const header = await findHeaderRow(rows, info, payload.mapping?.headerRow);
  const map = columnMapFor(info, header.cells, payload.mapping?.columns);
  const incomplete = incompleteMapping(map);
  if (incomplete) throw new PermanentJobError(incomplete);
  const now = nowIso();
  await campaigns.insertImportCampaign(db, {
    id: campaignId,
    owner_id: job.owner_id,
    kind: info.kind,
    name: payload.campaignName,
    job_id: job.id,
    created_at: now,
  });
  await setCampaignMapping(db, campaignId, JSON.stringify(usedMapping(header, map, reader.sheetName)));

  const checker = new RowChecker(info, map, limits.countryCode ?? '91');
  const notServiceable = { email: 0, whatsapp: 0 };
  const choice = payload.duplicates ?? 'skip';
  const finder = new DuplicateFinder(db, info, job.owner_id, campaignId);
  let pending: { row: SheetRow; checked: CheckedRow }[] = [];
  let problems: ImportProblemRow[] = [];
  let imported = 0;
  let skippedRows = 0;
  let notedRows = 0;
  let dataRows = 0;
  let duplicateRows = 0;
  let updatedRows = 0;

  /** One existing record an 'update' import rewrites: the row's fields over the record's. */
  type Update = {
    id: string;
    campaign_id: string;
    fields: Record<string, string>;
    merged: Record<string, string>;
  };
  const write = async (toInsert: records.RecordRow[], toUpdate: Update[], toReport: ImportProblemRow[]) => {
    const writeIn = async (trx: Database) => {
      await records.insertRecords(trx, info, toInsert);
      // Found by search once the rows are live; gone with the campaign on failure.
      await indexRecords(trx, info.kind, job.owner_id, toInsert);
      const updated: records.RecordRow[] = [];
      for (const update of toUpdate) {
        if (
          await records.updateRecord(trx, info, job.owner_id, update.id, update.fields, now, {
            unservedOnly: true,
          })
        ) {
          updated.push({
            ...update.merged,
            id: update.id,
            campaign_id: update.campaign_id,
          } as records.RecordRow);
        }
      }
      // Their terms replaced a batch at a time, not a record at a time (three statements each).
      await deleteTermsOf(trx, updated);
      await indexRecords(trx, info.kind, job.owner_id, updated);
      await insertProblems(trx, toReport);
    };
    await (db.isTransaction ? writeIn(db) : db.transaction().execute(writeIn));
  };
  /** The rows read since the last flush, against the owner's records: inserted, updated or skipped. */
  const settle = async () => {
    const rowsNow = pending;
    pending = [];
    const existing = await finder.find(rowsNow.map((p) => p.checked.values));
    const batch: records.RecordRow[] = [];
    const updates: Update[] = [];
    for (const { row, checked } of rowsNow) {
      const matches = existing.get(identityKey(info.kind, checked.values));
      if (matches) {
        duplicateRows += 1;
        if (choice !== 'new') {
          const unserved = choice === 'update' ? matches.filter((m) => !m.served) : [];
          if (unserved.length === 0) {
            skippedRows += 1;
            const where = campaignNames(matches);
            const text =
              choice === 'skip'
                ? `Already imported in ${where}.`
                : `Already imported in ${where}, and served: not updated (a served record is never changed).`;
            problems.push(problem(job.id, row, { column: checker.identityLabels(), text }, 1));
            continue;
          }
          updatedRows += 1;
          // The row's fields, but its number as the record spells it (they differ in case or spaces at most).
          const fields = { ...checked.values };
          for (const key of identity[info.kind]) delete fields[key];
          for (const m of unserved) {
            updates.push({
              id: m.id,
              campaign_id: m.campaign_id,
              fields,
              merged: { ...m.fields, ...fields },
            });
          }
          continue;
        }
      }
      imported += 1;
      if (checked.notes.length > 0) notedRows += 1;
      for (const { channel } of checked.notServiceable ?? [])
        if (channel !== 'sms') notServiceable[channel] += 1;
      for (const p of checked.notes) problems.push(problem(job.id, row, p, 0));
      // The row as it will be stored, hidden until the whole file is in: as 'importing' on SQLite, by the
      // uncommitted transaction on PostgreSQL.
      const record: records.RecordRow = {
        id: newId(),
        owner_id: job.owner_id,
        record_state: state,
        campaign_id: campaignId,
        created_at: now,
        updated_at: now,
      };
      for (const field of info.fields) record[field.key] = checked.values[field.key] ?? '';
      batch.push(record);
    }
    return { batch, updates };
  };
  const flush = async () => {
    const { batch, updates } = await settle();
    const toReport = problems;
    problems = [];
    await write(batch, updates, toReport);
    const read = reader.progress();
    await context.progress(STARTED_PERCENT + read * (READ_PERCENT - STARTED_PERCENT));
    // Let the requests that arrived meanwhile in. Without this the import never gives the event loop
    // back while the reader keeps rows queued (every await above settles without waiting for I/O on
    // SQLite, whose driver is synchronous), and the API stalled for the whole import.
    await new Promise<void>((resolve) => setImmediate(resolve));
  };

  for await (const row of rows) {
    if (isBlank(row)) continue;
    dataRows += 1;
    if (dataRows > limits.maxRows) {
      throw new PermanentJobError(
        `The sheet has more than ${limits.maxRows.toLocaleString('en-US')} rows, the most one import takes; split it into smaller files.`,
      );
    }
    if (context.signal.aborted) throw new Error('The import was interrupted; it will be retried.');
    const checked = checker.check(row);
    if (checked.problems.length > 0) {
      skippedRows += 1;
      for (const p of checked.problems) problems.push(problem(job.id, row, p, 1));
    } else {
      pending.push({ row, checked });
    }
    if (pending.length >= BATCH_ROWS || problems.length >= BATCH_ROWS) await flush();
  }
  await flush();
  if (dataRows === 0) throw new PermanentJobError('The sheet has a header row but no data rows.');
  if (imported === 0 && updatedRows === 0) {
    throw new PermanentJobError(
      duplicateRows > 0 && duplicateRows + skippedRows >= dataRows && choice === 'skip'
        ? `All ${dataRows.toLocaleString('en-US')} rows are already imported or skipped (${duplicateRows.toLocaleString('en-US')} already imported): nothing new to import. Download the report to see where, or import again choosing to import them as new records.`
        : `None of the ${dataRows.toLocaleString('en-US')} rows could be imported: download the report to see why.`,
    );
  }
  return {
    campaignId,
    imported,
    skipped: skippedRows,
    noted: notedRows,
    duplicates: duplicateRows,
    updated: updatedRows,
    notServiceable,
  };
}

function problem(
  jobId: string,
  row: SheetRow,
  { column, text }: RowProblem,
  skipsRow: 0 | 1,
): ImportProblemRow {
  return {
    job_id: jobId,
    row_number: row.rowNumber,
    column_name: column,
    problem: text,
    skips_row: skipsRow,
  };
}

/** The mapping as the campaign keeps it: the sheet read, the header row, and every column's field or null. */
function usedMapping(header: SheetRow, map: ColumnMap, sheet?: string): ColumnMapping & { sheet?: string } {
  return {
    ...(sheet !== undefined && { sheet }),
    headerRow: header.rowNumber,
    columns: Object.fromEntries(
      header.cells.map((_, index) => [String(index), map.columns.get(index) ?? null]),
    ),
  };
}

/**
 * The header row: the one the user confirmed (by its row number), else the first of the top rows that
 * names at least three fields.
 */
async function findHeaderRow(
  rows: AsyncGenerator<SheetRow>,
  info: RecordKindInfo,
  headerRow?: number,
): Promise<SheetRow> {
  let looked = 0;
  let sawAny = false;
  // next() by hand: leaving a for-await loop early would close the generator the data rows come from.
  for (let next = await rows.next(); !next.done; next = await rows.next()) {
    const row = next.value;
    if (isBlank(row)) continue;
    sawAny = true;
    if (headerRow === undefined ? namesFields(info, row) : row.rowNumber === headerRow) return row;
    if (++looked >= HEADER_SEARCH) break;
  }
  if (!sawAny) throw new PermanentJobError('The workbook is empty: its first sheet has no rows.');
  if (headerRow !== undefined) {
    throw new PermanentJobError(
      `Row ${headerRow}, the header row chosen, is not one of the first ${HEADER_SEARCH} rows with text in them; choose the header row again.`,
    );
  }
  const examples = info.fields
    .slice(0, 3)
    .map((f) => f.label)
    .join(', ');
  throw new PermanentJobError(
    `No header row found in the first ${HEADER_SEARCH} rows: the sheet needs a row of column names such as ${examples}.`,
  );
}
