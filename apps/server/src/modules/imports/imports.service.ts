import type { Readable } from 'node:stream';
import type { ImportProgress, StartImportResponse } from '@notice-desk/contract/imports';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import * as jobs from '../../jobs/jobs.repository.ts';
import { notFound } from '../../lib/errors.ts';
import { xlsxStream } from '../../lib/xlsx/write-sheet.ts';
import { recordKinds } from '../records/record-kinds.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { sampleHeaders } from './header-mapping.ts';
import { IMPORT_JOB, type ImportPayload, type ImportResult } from './import.job.ts';

const IMPORT_ATTEMPTS = 3;

/** Starts imports as jobs and reports on them; the job itself is import.job.ts. */
export class ImportsService {
  constructor(
    private readonly db: Database,
    private readonly uploads: UploadsService,
    /** Tells an in-process worker there is work, so it need not wait for its next poll. */
    private readonly onEnqueued: () => void,
  ) {}

  /** Queues an import of the caller's upload. An owner's imports of a kind run one after another, in order. */
  async start(
    ownerId: string,
    kind: RecordKind,
    storedName: string,
    name?: string,
  ): Promise<StartImportResponse> {
    const upload = await this.uploads.find(ownerId, storedName);
    const campaignName = name?.trim() || upload.originalName.replace(/\.(xlsx|csv|tsv)$/i, '');
    const payload: ImportPayload = { kind, fileKey: upload.key, fileName: upload.originalName, campaignName };
    const jobId = await jobs.enqueueJob(this.db, {
      kind: IMPORT_JOB,
      ownerId,
      subject: kind,
      payload,
      maxAttempts: IMPORT_ATTEMPTS,
    });
    this.onEnqueued();
    return { message: `The import of ${campaignName} is in process.`, jobId };
  }

  async progress(ownerId: string, kind: RecordKind): Promise<ImportProgress> {
    const job = await jobs.findLatestJob(this.db, ownerId, IMPORT_JOB, kind);
    if (!job) return { progressPercentage: null };
    const result = job.result ? (JSON.parse(job.result) as ImportResult) : undefined;
    const skipped = result?.skipped ?? (await this.problemRows(job.id));
    return {
      progressPercentage: job.status === 'done' ? 100 : job.status === 'failed' ? null : job.progress,
      jobId: job.id,
      status: job.status,
      error: job.status === 'failed' ? job.error : null,
      imported: result?.imported ?? 0,
      skipped,
      campaignId: result?.campaignId ?? null,
    };
  }

  /** The rows an import skipped, and why, as an .xlsx. */
  async report(ownerId: string, jobId: string): Promise<Readable> {
    const job = await jobs.findJob(this.db, jobId, ownerId);
    if (!job || job.kind !== IMPORT_JOB) throw notFound('Import');
    const db = this.db;
    async function* rows() {
      const pageSize = 5000;
      for (let offset = 0; ; offset += pageSize) {
        const page = await db
          .selectFrom('import_problems')
          .select(['row_number', 'column_name', 'problem'])
          .where('job_id', '=', jobId)
          .orderBy('row_number')
          .orderBy('column_name')
          .limit(pageSize)
          .offset(offset)
          .execute();
        for (const p of page) yield [String(p.row_number), p.column_name, p.problem];
        if (page.length < pageSize) return;
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

  private async problemRows(jobId: string): Promise<number> {
    const row = await this.db
      .selectFrom('import_problems')
      .select((eb) => eb.fn.count<number>('row_number').distinct().as('rows'))
      .where('job_id', '=', jobId)
      .executeTakeFirst();
    return Number(row?.rows ?? 0);
  }
}
