import { FIELD_MAX } from '@notice-desk/contract/record-fields';
import { isPostgres, type Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { PermanentJobError, type JobContext } from '../../jobs/job-runner.ts';
import { newId } from '../../lib/ids.ts';
import { openSheet } from '../../lib/sheet-source.ts';
import type { FileStore } from '../../lib/storage.ts';
import { nowIso } from '../../lib/time.ts';
import type { SheetReader, SheetRow } from '../../lib/xlsx/read-sheet.ts';
import { XlsxError } from '../../lib/xlsx/xlsx-error.ts';
import * as campaigns from '../campaigns/campaigns.repository.ts';
import { recordKinds, type RecordKindInfo } from '../records/record-kinds.ts';
import * as records from '../records/records.repository.ts';
import { indexRecords } from '../search/search-index.ts';
import { prepareHandOver } from './hand-over-in-worker.ts';
import { mapHeaders, type ColumnMap } from './header-mapping.ts';

export const IMPORT_JOB = 'import';

export interface ImportPayload {
  kind: RecordKind;
  /** Storage key of the uploaded file. */
  fileKey: string;
  /** The file's name as uploaded (absent in jobs queued before it was recorded). */
  fileName?: string;
  campaignName: string;
}

export interface ImportResult {
  campaignId: string;
  imported: number;
  skipped: number;
}

export interface ImportLimits {
  maxRows: number;
  maxUnpackedBytes: number;
  maxSharedStringsBytes: number;
  /** LOCALE: the order Excel's locale-dependent date formats print in. */
  locale: string;
}

interface Problem {
  job_id: string;
  row_number: number;
  column_name: string;
  problem: string;
}

/**
 * Rows written per transaction: small enough to keep the database free for others between them, and
 * one sheet-reader message's worth (read-sheet-in-worker.ts): at 1,000, rows and their search terms
 * wait long enough to be promoted to the old heap, and a 100,000-row import peaked about 80 MB higher
 * for no gain in speed. On SQLite a transaction runs on the main thread from start to end (its driver
 * is synchronous), so every request that comes in meanwhile waits for it: half as many rows halve that wait.
 */
const BATCH = { postgres: 500, sqlite: 250 };
/** Rows searched for the header row. */
const HEADER_SEARCH = 20;

/** The fields that identify a row within one file: a repeat of them is reported, not imported twice. */
const identity: Record<RecordKind, string[]> = { notice: ['loanNo'], 'credit-card': ['maskNo', 'aanNo'] };

/**
 * Imports one uploaded sheet. Rows are written as they are read, hidden (no owner) under a campaign
 * marked 'importing'; one short transaction at the end hands them to their owner, marks the campaign
 * ready and the job done. A failure or a crash at any point before leaves nothing visible, and the
 * next attempt first removes what the last one wrote.
 */
export function importJob(db: Database, store: FileStore, limits: ImportLimits) {
  return async (context: JobContext): Promise<void> => {
    const { job } = context;
    const payload = JSON.parse(job.payload) as ImportPayload;
    const info = recordKinds[payload.kind];
    await campaigns.deleteUnfinishedImport(db, job.id);
    await db.deleteFrom('import_problems').where('job_id', '=', job.id).execute();

    // A server process died while it ran this import (its lease ran out and this worker took it over).
    // The file may be what killed it: it is not read the same way again. After one death it is read in
    // a child process of its own, where nothing the file does can end the server; after two, it stops.
    const fileName = payload.fileName ?? `${payload.campaignName}.xlsx`;
    if (job.lost_leases >= 2) {
      throw new PermanentJobError(
        `${fileName} was not imported: the server process running its import stopped ${job.lost_leases} times while it ran, so it was not started again. Check the file in Excel (or split it into smaller files) and import it again.`,
      );
    }
    let reader: SheetReader;
    try {
      reader = await openSheet(
        store.localPath(payload.fileKey),
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
      throw asJobError(err);
    }
    const campaignId = newId();
    const handOver = prepareHandOver(db);
    try {
      const result = await readIntoCampaign(db, context, info, reader, payload, campaignId, limits);
      reader.close(); // every row is in: its thread's memory goes before the hand-over's comes
      await handOver.run(context, {
        kind: info.kind,
        campaignId,
        ownerId: job.owner_id,
        campaignName: payload.campaignName,
        imported: result.imported,
        skipped: result.skipped,
      });
    } catch (err) {
      await campaigns.deleteUnfinishedImport(db, job.id).catch(() => undefined);
      throw asJobError(err);
    } finally {
      reader.close();
    }
  };
}

function asJobError(err: unknown): unknown {
  return err instanceof XlsxError ? new PermanentJobError(err.message) : err;
}

async function readIntoCampaign(
  db: Database,
  context: JobContext,
  info: RecordKindInfo,
  reader: SheetReader,
  payload: ImportPayload,
  campaignId: string,
  limits: ImportLimits,
): Promise<ImportResult> {
  const { job } = context;
  const rows = reader.rows;
  const map = await findHeaderRow(rows, info);
  const missingRequired = map.missing.filter((field) => field.required);
  if (missingRequired.length > 0) {
    throw new PermanentJobError(
      `The sheet has no column for ${missingRequired.map((f) => f.label).join(', ')}. ` +
        'Add these columns (the sample file has every header) and import again.',
    );
  }
  const now = nowIso();
  await campaigns.insertImportCampaign(db, {
    id: campaignId,
    owner_id: job.owner_id,
    kind: info.kind,
    name: payload.campaignName,
    job_id: job.id,
    created_at: now,
  });

  const columns = [...map.columns];
  const columnOf = new Map(columns.map(([index, key]) => [key, index]));
  const headerOf = (key: string) => map.headers.get(columnOf.get(key)!) ?? key;
  const seen = new Map<string, number>();
  const batchSize = isPostgres(db) ? BATCH.postgres : BATCH.sqlite;
  let batch: records.RecordRow[] = [];
  let problems: Problem[] = [];
  let imported = 0;
  let skippedRows = 0;
  let dataRows = 0;

  const flush = async () => {
    const [toInsert, toReport] = [batch, problems];
    batch = [];
    problems = [];
    await db.transaction().execute(async (trx) => {
      await records.insertRecords(trx, info, toInsert);
      // Found by search once the reveal hands the rows to their owner; gone with the campaign on failure.
      await indexRecords(trx, info.kind, job.owner_id, toInsert);
      if (toReport.length) await trx.insertInto('import_problems').values(toReport).execute();
    });
    await context.progress(reader.progress() * 95);
    // Let the requests that arrived meanwhile in. Without this the import never gives the event loop
    // back while the reader keeps rows queued (every await above settles without waiting for I/O on
    // SQLite, whose driver is synchronous), and the API stalled for the whole import.
    await new Promise<void>((resolve) => setImmediate(resolve));
  };

  for await (const row of rows) {
    if (row.cells.every((cell) => cell.trim() === '')) continue;
    dataRows += 1;
    if (dataRows > limits.maxRows) {
      throw new PermanentJobError(
        `The sheet has more than ${limits.maxRows.toLocaleString('en-US')} rows, the most one import takes; split it into smaller files.`,
      );
    }
    if (context.signal.aborted) throw new Error('The import was interrupted; it will be retried.');
    // The row as it will be stored; hidden (no owner) until the whole file is in.
    const record: records.RecordRow = {
      id: '',
      owner_id: '',
      campaign_id: campaignId,
      created_at: now,
      updated_at: now,
    };
    for (const [index, key] of columns) record[key] = (row.cells[index] ?? '').trim();
    const rowProblems: Problem[] = [];
    // Cells the reader could not take as Excel shows them: reported as what they are, not as empty.
    const unreadable = new Set<string>();
    for (const cell of row.problems ?? []) {
      const key = map.columns.get(cell.column);
      if (key === undefined) continue; // an ignored column: nothing of it is stored
      unreadable.add(key);
      rowProblems.push(problem(job.id, row, headerOf(key), cell.message));
    }
    for (const field of info.fields) {
      const value = record[field.key] ?? '';
      if (unreadable.has(field.key)) continue;
      if (field.required && value === '') {
        rowProblems.push(problem(job.id, row, headerOf(field.key), field.required));
      } else if (value.length > FIELD_MAX) {
        rowProblems.push(problem(job.id, row, headerOf(field.key), `Longer than ${FIELD_MAX} characters.`));
      }
    }
    if (rowProblems.length === 0) {
      const key = identity[info.kind].map((k) => record[k]!.toLowerCase()).join('|');
      const first = seen.get(key);
      if (first !== undefined) {
        const labels = identity[info.kind].map(headerOf).join(' and ');
        rowProblems.push(problem(job.id, row, labels, `Repeats row ${first} (same ${labels}).`));
      } else {
        seen.set(key, row.rowNumber);
      }
    }
    if (rowProblems.length > 0) {
      skippedRows += 1;
      problems.push(...rowProblems);
    } else {
      imported += 1;
      for (const field of info.fields) record[field.key] ??= '';
      record.id = newId();
      batch.push(record);
    }
    if (batch.length >= batchSize || problems.length >= batchSize) await flush();
  }
  await flush();
  if (dataRows === 0) throw new PermanentJobError('The sheet has a header row but no data rows.');
  if (imported === 0) {
    throw new PermanentJobError(
      `None of the ${dataRows.toLocaleString('en-US')} rows could be imported: download the report to see why.`,
    );
  }
  return { campaignId, imported, skipped: skippedRows };
}

function problem(jobId: string, row: SheetRow, column: string, text: string): Problem {
  return { job_id: jobId, row_number: row.rowNumber, column_name: column, problem: text };
}

/** The first of the top rows that names at least three fields is the header row. */
async function findHeaderRow(rows: AsyncGenerator<SheetRow>, info: RecordKindInfo): Promise<ColumnMap> {
  let looked = 0;
  let sawAny = false;
  // next() by hand: leaving a for-await loop early would close the generator the data rows come from.
  for (let next = await rows.next(); !next.done; next = await rows.next()) {
    const row = next.value;
    if (row.cells.every((cell) => cell.trim() === '')) continue;
    sawAny = true;
    const map = mapHeaders(info.kind, info.fields, row.cells);
    if (map.columns.size >= 3) return map;
    if (++looked >= HEADER_SEARCH) break;
  }
  if (!sawAny) throw new PermanentJobError('The workbook is empty: its first sheet has no rows.');
  const examples = info.fields
    .slice(0, 3)
    .map((f) => f.label)
    .join(', ');
  throw new PermanentJobError(
    `No header row found in the first ${HEADER_SEARCH} rows: the sheet needs a row of column names such as ${examples}.`,
  );
}
