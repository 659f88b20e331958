import type { Readable } from 'node:stream';
import type {
  ColumnMapping,
  DuplicateChoice,
  ImportPreview,
  ImportProgress,
  StartImportResponse,
} from '@notice-desk/contract/imports';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { enqueue } from '../../jobs/job-definition.ts';
import * as jobs from '../../jobs/jobs.repository.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { openSheet } from '../../lib/sheet-source.ts';
import type { FileStore } from '../../lib/storage.ts';
import { nowIso } from '../../lib/time.ts';
import type { SheetReader } from '../../lib/xlsx/read-sheet.ts';
import { XlsxError } from '../../lib/xlsx/xlsx-error.ts';
import { xlsxStream } from '../../lib/xlsx/write-sheet.ts';
import { recordKinds, type RecordKindInfo } from '../records/record-kinds.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { DuplicateFinder } from './duplicates.ts';
import { mappingError, sampleHeaders, type ChosenColumns } from './header-mapping.ts';
import {
  HeaderRowError,
  headerKey,
  previewSheet,
  readTopRows,
  type ChosenMapping,
} from './import-preview.ts';
import { IMPORT_JOB, type ImportLimits, type ImportPayload, type ImportResult } from './import.job.ts';
import * as importsRepository from './imports.repository.ts';

const IMPORT_ATTEMPTS = 3;
/** Problems the report reads from the database at a time. */
const REPORT_PAGE = 5000;

/** Starts imports as jobs and reports on them; the job itself is import.job.ts. */
export class ImportsService {
  constructor(
    private readonly db: Database,
    private readonly uploads: UploadsService,
    private readonly store: FileStore,
    private readonly limits: ImportLimits,
    /** Tells an in-process worker there is work, so it need not wait for its next poll. */
    private readonly onEnqueued: () => void,
  ) {}

  /**
   * Queues an import of the caller's upload. An owner's imports of a kind run one after another, in
   * order. A mapping is checked against the file's header row first (400 naming what is wrong), then
   * remembered for the next sheet with the same headers.
   */
  async start(
    ownerId: string,
    kind: RecordKind,
    storedName: string,
    name?: string,
    mapping?: ColumnMapping,
    duplicates: DuplicateChoice = 'skip',
  ): Promise<StartImportResponse> {
    const upload = await this.uploads.find(ownerId, storedName);
    const campaignName = name?.trim() || upload.originalName.replace(/\.(xlsx|csv|tsv|txt)$/i, '');
    if (mapping) await this.checkMapping(ownerId, kind, upload, mapping);
    const payload: ImportPayload = {
      kind,
      fileKey: upload.key,
      fileName: upload.originalName,
      campaignName,
      ...(mapping && { mapping }),
      duplicates,
    };
    const jobId = await enqueue(this.db, IMPORT_JOB, {
      ownerId,
      subject: kind,
      payload,
      maxAttempts: IMPORT_ATTEMPTS,
    });
    this.onEnqueued();
    return { message: `The import of ${campaignName} is in process.`, jobId };
  }

  /** What the Review mapping step shows about an upload (see previewSheet). */
  async preview(
    ownerId: string,
    kind: RecordKind,
    storedName: string,
    options: { headerRow?: number; columns?: ChosenColumns; scan: boolean },
  ): Promise<ImportPreview> {
    const upload = await this.uploads.find(ownerId, storedName);
    const info = recordKinds[kind];
    const { columns, ...rest } = options;
    return this.reading(upload, async (reader) => {
      try {
        return await previewSheet(reader, info, upload.originalName, {
          ...rest,
          maxRows: this.limits.maxRows,
          countryCode: this.limits.countryCode,
          duplicates: new DuplicateFinder(this.db, info, ownerId, null),
          mappingFor: async (cells) => {
            if (!columns) return this.remembered(ownerId, info, cells);
            const problem = mappingError(info.fields, cells.length, columns);
            if (problem) throw badRequest(`columns: ${problem}`, { columns: problem });
            return { columns, source: 'chosen' };
          },
        });
      } catch (err) {
        if (err instanceof HeaderRowError) throw badRequest(err.message, { headerRow: err.message });
        throw err;
      }
    });
  }

  async progress(ownerId: string, kind: RecordKind): Promise<ImportProgress> {
    const job = await jobs.findLatestJob(this.db, ownerId, IMPORT_JOB.name, kind);
    if (!job) return { progressPercentage: null };
    const result = job.result ? (JSON.parse(job.result) as ImportResult) : undefined;
    const skipped = result?.skipped ?? (await importsRepository.countProblemRows(this.db, job.id));
    return {
      progressPercentage: job.status === 'done' ? 100 : job.status === 'failed' ? null : job.progress,
      jobId: job.id,
      status: job.status,
      error: job.status === 'failed' ? job.error : null,
      imported: result?.imported ?? 0,
      skipped,
      noted: result?.noted ?? 0,
      duplicates: result?.duplicates ?? 0,
      updated: result?.updated ?? 0,
      notServiceable: result?.notServiceable ?? { email: 0, whatsapp: 0 },
      campaignId: result?.campaignId ?? null,
    };
  }

  /** The rows an import skipped, and why, as an .xlsx. */
  async report(ownerId: string, jobId: string): Promise<Readable> {
    const job = await jobs.findJob(this.db, jobId, ownerId);
    if (!job || job.kind !== IMPORT_JOB.name) throw notFound('Import');
    const db = this.db;
    async function* rows() {
      for (let after = 0; ;) {
        const page = await importsRepository.listProblemsAfter(db, jobId, after, REPORT_PAGE);
        for (const p of page.problems) yield [String(p.row_number), p.column_name, p.problem];
        if (page.lastRow === null) return;
        after = page.lastRow;
      }
    }
    return xlsxStream('Skipped rows', ['Row', 'Column', 'Problem'], rows());
  }

  /** A sheet with every header an import of the kind expects, and one example row. */
  sample(kind: RecordKind): Readable {
    const info = recordKinds[kind];
    const headers = sampleHeaders(kind, info.fields);
    const example = headers.map((header, i) =>
      i === 0 && kind === 'credit-card' ? '1' : `Example ${header}`,
    );
    return xlsxStream('Sample', headers, [example]);
  }

  /** A mapping is one for this file: its header row exists, and its columns and fields do. */
  private async checkMapping(
    ownerId: string,
    kind: RecordKind,
    upload: { key: string; originalName: string },
    mapping: ColumnMapping,
  ): Promise<void> {
    const info = recordKinds[kind];
    const header = await this.reading(upload, async (reader) => {
      try {
        return (await readTopRows(reader, info, mapping.headerRow)).header!;
      } catch (err) {
        if (err instanceof HeaderRowError) {
          throw badRequest(`mapping.headerRow: ${err.message}`, { mapping: err.message });
        }
        throw err;
      }
    });
    const problem = mappingError(info.fields, header.cells.length, mapping.columns);
    if (problem) throw badRequest(`mapping: ${problem}`, { mapping: problem });
    await importsRepository.rememberMapping(this.db, {
      owner_id: ownerId,
      kind,
      header_key: headerKey(header.cells),
      mapping: JSON.stringify(mapping),
      updated_at: nowIso(),
    });
  }

  /** The mapping the caller confirmed before for this header row, while it still fits the kind's fields. */
  private async remembered(
    ownerId: string,
    info: RecordKindInfo,
    cells: string[],
  ): Promise<ChosenMapping | undefined> {
    const stored = await importsRepository.findRememberedMapping(
      this.db,
      ownerId,
      info.kind,
      headerKey(cells),
    );
    if (!stored) return undefined;
    const { columns } = JSON.parse(stored) as ColumnMapping;
    return mappingError(info.fields, cells.length, columns) ? undefined : { columns, source: 'remembered' };
  }

  /** Reads an upload (.xlsx or CSV) on a worker thread; a file the reader refuses is a 400 saying why. */
  private async reading<T>(
    upload: { key: string; originalName: string },
    read: (reader: SheetReader) => Promise<T>,
  ): Promise<T> {
    let reader: SheetReader | undefined;
    // Read from a copy on this machine when the store is a bucket; removed when the reading ends.
    const copy = await this.store.localCopy(upload.key);
    try {
      reader = await openSheet(
        copy.path,
        upload.originalName,
        {
          maxInflatedBytes: this.limits.maxUnpackedBytes,
          maxSharedStringsBytes: this.limits.maxSharedStringsBytes,
          locale: this.limits.locale,
          maxRows: this.limits.maxRows,
        },
        { in: 'thread' },
      );
      return await read(reader);
    } catch (err) {
      if (err instanceof XlsxError) throw badRequest(err.message, { file: err.message });
      throw err;
    } finally {
      reader?.close();
      await copy.release();
    }
  }
}
