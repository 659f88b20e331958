import type { JobList, JobListQuery } from '@notice-desk/contract/jobs';
import type { Database } from '../../db/database.ts';
import * as jobs from '../../jobs/jobs.repository.ts';

/** The ADMIN's job list (GET /api/jobs): every owner's imports and sends, newest first. */
export class JobsService {
  constructor(
    private readonly db: Database,
    private readonly timeZone: string,
    /** The clock ages are read on; injected by tests. */
    private readonly now: () => number = Date.now,
  ) {}

  async list({ page, limit, kind, state }: JobListQuery): Promise<JobList> {
    const filter = { kind, status: state };
    const offset = (page - 1) * limit;
    const total = await jobs.countJobs(this.db, filter);
    const rows = offset >= total ? [] : await jobs.listJobs(this.db, filter, { offset, limit });
    const now = this.now();
    return {
      items: rows.map((row) => ({
        id: row.id,
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
