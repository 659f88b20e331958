import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/app.ts';
import { enqueueJob, findJob } from '../../jobs/jobs.repository.ts';
import type { JobContext } from '../../jobs/job-runner.ts';
import { FolderStore } from '../../lib/storage.ts';
import { insertUser } from '../auth/auth.repository.ts';
import { importJob, STARTED_PERCENT } from './import.job.ts';

/**
 * The import progress bar moves from the first second (issue 28): opening the file comes before any
 * row and takes seconds on a busy machine, so an import says it was taken up before it opens the file.
 */
describe('an import’s first progress', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('is reported when a worker takes the import up, before the file is opened', async () => {
    database = await createTestDatabase();
    const { db } = database;
    const ownerId = 'owner-1';
    await insertUser(db, {
      id: ownerId,
      name: 'A',
      username: 'a',
      password_hash: 'x',
      created_at: new Date().toISOString(),
    });
    const payload = { kind: 'notice' as const, fileKey: 'gone.xlsx', campaignName: 'March' };
    const jobId = await enqueueJob(db, {
      kind: 'import',
      ownerId,
      subject: 'notice',
      payload,
      maxAttempts: 1,
    });
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'import-start-'));
    // The upload is gone: opening it fails, which shows what was said before the file was opened.
    const said: number[] = [];
    const context: JobContext = {
      job: (await findJob(db, jobId, ownerId))!,
      workerId: 'worker-1',
      signal: new AbortController().signal,
      progress: async (percent) => void said.push(percent),
      complete: async () => {},
    };
    const limits = { maxRows: 1000, maxUnpackedBytes: 1e8, maxSharedStringsBytes: 1e8, locale: 'en-IN' };

    await expect(importJob(db, new FolderStore(folder), limits)(context, payload)).rejects.toThrow();
    expect(STARTED_PERCENT).toBeGreaterThan(0);
    expect(said).toEqual([STARTED_PERCENT]);
  });
});
