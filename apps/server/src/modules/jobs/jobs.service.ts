import type { JobList, JobListQuery } from '@notice-desk/contract/jobs';
import type { Database } from '../../db/database.ts';
import { DeepPages, PAGE_STRIDE } from '../../lib/deep-pages.ts';
import * as jobs from './jobs.repository.ts';

/** The ADMIN's job list (GET /api/jobs): every owner's imports and sends, newest first. */
export class JobsService {
  /** Deep pages per filter. */
  private readonly deepPages: DeepPages<string>;

  constructor(
    private readonly db: Database,
    private readonly timeZone: string,
    /** The clock ages are read on; injected by tests. */
    private readonly now: () => number = Date.now,
    pageStride = PAGE_STRIDE,
  ) {
    this.deepPages = new DeepPages(pageStride);
  }

  async list({ page, limit, kind, state }: JobListQuery): Promise<JobList> {
    const filter: jobs.JobFilter = { kind, status: state };
    const { total, version } = await jobs.jobListState(this.db, filter);
    const offset = (page - 1) * limit;
    const rows =
      offset >= total
        ? []
        : await this.deepPages.page(JSON.stringify(filter), version, offset, limit, {
            fromTop: (skip, size) => jobs.listJobs(this.db, filter, { offset: skip, limit: size }),
            boundaries: (stride) => jobs.jobBoundaries(this.db, filter, stride),
            fromKey: (fromId, skip, size) =>
              jobs.listJobs(this.db, filter, { offset: skip, limit: size, fromId }),
          });
    const now = this.now();
    return {
      items: rows.map((row) => ({
        _id: row.id,
        kind: row.kind,
        state: row.status,
        attempts: row.attempts,
        maxAttempts: row.max_attempts,
        lastError: row.error,
        progress: row.progress,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        ageSeconds: Math.max(0, Math.floor((now - Date.parse(row.created_at)) / 1000)),
      })),
      total,
      timeZone: this.timeZone,
    };
  }
}
