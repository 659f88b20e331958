import type { Database } from '../../db/database.ts';
import type { JobStatus } from '../../db/schema.ts';
import type { JobHandler } from '../../jobs/job-definition.ts';
import { pruneJobs } from '../../jobs/jobs.repository.ts';
import { PeriodicTask } from '../../jobs/periodic-task.ts';
import type { FileStore, StoredFile } from '../../lib/storage.ts';
import { IMPORT_JOB, importJobPayload, type ImportPayload } from '../imports/import.job.ts';
import { uploadKey } from '../uploads/uploads.service.ts';
import * as retention from './retention.repository.ts';

export const RETENTION_SWEEP = 'retention-sweep';
const DAY_MS = 24 * 3600 * 1000;
/** How often each process asks whether the day's sweep is due (one of them claims it). */
const CHECK_EVERY_MS = 3600 * 1000;
/** The first check waits a little after start: a process that restarts in a loop does not sweep in a loop. */
const FIRST_CHECK_MS = 60 * 1000;
/** Jobs removed per statement: an import's row report goes with its job, so a batch may be many rows. */
const PRUNE_BATCH = 200;

/** The little of a logger the sweep uses (pino's shape). */
export interface RetentionLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface RetentionSettings {
  /** An upload whose import did not finish successfully is kept this long (to retry or look into). */
  uploadRetentionMs: number;
  /** Files written to the outbox (no SMTP or WhatsApp configured) are kept this long. */
  outboxRetentionMs: number;
  /** Finished and failed jobs (an import's row report with its job) are kept this long. */
  jobRetentionMs: number;
}

/** What a sweep removed: counts and bytes only, never a name or an address. */
export interface SweepResult {
  uploads: { files: number; bytes: number };
  outbox: { files: number; bytes: number };
  /** Finished or failed jobs pruned. */
  jobs: number;
}

/**
 * Personal data in files does not stay for ever. An uploaded sheet goes as soon as its import
 * succeeds (what it held is now in the records); one whose import failed, or that was never
 * imported, goes after UPLOAD_RETENTION. Outbox files go after OUTBOX_RETENTION: the evidence of
 * what was served is the delivery rows and the PDFs kept by hash, not these copies.
 * Finished and failed jobs go after JOB_RETENTION.
 * A daily sweep does all three, once across every process that runs jobs (a claim in scheduled_runs).
 */
export class RetentionService {
  /** Checks hourly (first a minute after start) whether the day's sweep is due, and runs it if this process claims it. */
  private readonly task: PeriodicTask;

  constructor(
    private readonly db: Database,
    private readonly store: FileStore,
    private readonly settings: RetentionSettings,
    private readonly log: RetentionLog,
  ) {
    this.task = new PeriodicTask(() => this.runIfDue(), {
      everyMs: CHECK_EVERY_MS,
      firstAfterMs: FIRST_CHECK_MS,
      failure: 'retention sweep failed; it will be tried again',
      log: this.log,
    });
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** Sweeps when no process has in the last day; answers what it removed, or undefined when not due. */
  async runIfDue(now = new Date()): Promise<SweepResult | undefined> {
    const claimed = await retention.claimScheduledRun(
      this.db,
      RETENTION_SWEEP,
      now.toISOString(),
      new Date(now.getTime() - DAY_MS).toISOString(),
    );
    return claimed ? this.sweep(now) : undefined;
  }

  /** Removes every upload and outbox file past its retention, and logs how many and how large. */
  async sweep(now = new Date()): Promise<SweepResult> {
    const uploads = await this.sweepUploads(now);
    const outbox = await this.removeOlderThan(
      await this.store.list('outbox'),
      now.getTime() - this.settings.outboxRetentionMs,
    );
    const jobs = await this.removeOldJobs(now);
    const result = { uploads, outbox, jobs };
    this.log.info(result, 'retention sweep removed expired files');
    return result;
  }

  /**
   * The import job, followed by removing its upload once it succeeded: a failed import keeps its
   * file for UPLOAD_RETENTION. Were this process to stop between the two, the next sweep removes it.
   */
  removeUploadAfterImport(importJob: JobHandler<ImportPayload>): JobHandler<ImportPayload> {
    return async (context, payload) => {
      await importJob(context, payload);
      await this.removeUpload(context.job.owner_id, payload.fileKey);
    };
  }

  private async removeUpload(ownerId: string, key: string): Promise<void> {
    const storedName = key.split('/').pop() ?? '';
    // Only the owner's own upload key, never a path a payload could point elsewhere.
    if (key !== uploadKey(ownerId, storedName)) return;
    await this.store.remove(key);
    await retention.deleteUploadRow(this.db, ownerId, storedName);
  }

  private async sweepUploads(now: Date): Promise<{ files: number; bytes: number }> {
    const before = now.getTime() - this.settings.uploadRetentionMs;
    const expired = new Set(
      (await retention.uploadsOlderThan(this.db, new Date(before).toISOString())).map((u) =>
        uploadKey(u.owner_id, u.stored_name),
      ),
    );
    const known = new Set(
      (await retention.allUploads(this.db)).map((u) => uploadKey(u.owner_id, u.stored_name)),
    );
    const fileKeys = async (statuses: JobStatus[]) => {
      const keys = new Set<string>();
      for (const job of await retention.importPayloads(this.db, IMPORT_JOB.name, statuses)) {
        const fileKey = this.fileKeyOf(job.payload);
        // One unreadable row (JSON null, a cut-off write) must not stop the sweep of every other file.
        if (fileKey === undefined)
          this.log.warn(
            { jobId: job.id },
            'retention sweep skipped an import job whose payload is not readable',
          );
        else keys.add(fileKey);
      }
      return keys;
    };
    const imported = await fileKeys(['done']);
    // An import still waiting to run, or to retry after a failure, keeps its file whatever its age.
    const pending = await fileKeys(['queued', 'running']);
    for (const key of pending) expired.delete(key);
    const removed = { files: 0, bytes: 0 };
    for (const file of await this.store.list('uploads')) {
      // Expired on record, imported successfully, or a stray file (no row: a write cut short) past retention.
      const due =
        expired.has(file.key) ||
        imported.has(file.key) ||
        (!known.has(file.key) && !pending.has(file.key) && file.modifiedAt.getTime() < before);
      if (due) await this.removeFile(file, removed);
    }
    // Their rows go too (also those whose file was already gone), so nothing can start an import of them.
    for (const key of [...expired, ...[...imported].filter((k) => known.has(k))]) {
      const [, ownerId = '', storedName = ''] = key.split('/');
      await retention.deleteUploadRow(this.db, ownerId, storedName);
    }
    return removed;
  }

  private fileKeyOf(payload: string): string | undefined {
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      return undefined;
    }
    const parsed = importJobPayload.pick({ fileKey: true }).safeParse(value);
    return parsed.success ? parsed.data.fileKey : undefined;
  }

  /** Removes jobs finished or failed before JOB_RETENTION, a batch per transaction. */
  private async removeOldJobs(now: Date): Promise<number> {
    const before = new Date(now.getTime() - this.settings.jobRetentionMs).toISOString();
    let pruned = 0;
    for (;;) {
      const batch = await pruneJobs(this.db, before, PRUNE_BATCH);
      pruned += batch;
      if (batch < PRUNE_BATCH) return pruned;
      // Requests waiting meanwhile go first (SQLite's statements run on the main thread).
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private async removeOlderThan(
    files: StoredFile[],
    before: number,
  ): Promise<{ files: number; bytes: number }> {
    const removed = { files: 0, bytes: 0 };
    for (const file of files) if (file.modifiedAt.getTime() < before) await this.removeFile(file, removed);
    return removed;
  }

  private async removeFile(file: StoredFile, removed: { files: number; bytes: number }): Promise<void> {
    await this.store.remove(file.key);
    removed.files += 1;
    removed.bytes += file.size;
  }
}
