import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/app.ts';
import { enqueueJob } from '../../jobs/jobs.repository.ts';
import { insertUser } from '../auth/auth.repository.ts';
import { countProblemRows, insertProblems } from './imports.repository.ts';

/**
 * A running import's progress says how many rows it skipped so far: a note on a row that was imported
 * (an unknown language) is in the import's report but does not make its row a skipped one.
 */
describe('a running import’s skipped count', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('counts the rows skipped, each once, and not the rows imported with a note', async () => {
    database = await createTestDatabase();
    const ownerId = 'owner-1';
    await insertUser(database.db, {
      id: ownerId,
      name: 'A',
      username: 'a',
      password_hash: 'x',
      created_at: new Date().toISOString(),
    });
    const jobId = await enqueueJob(database.db, {
      kind: 'import',
      ownerId,
      subject: 'notice',
      payload: {},
      maxAttempts: 1,
    });
    const line = (row: number, problem: string, skipsRow: 0 | 1) => ({
      job_id: jobId,
      row_number: row,
      column_name: 'LANGUAGE',
      problem,
      skips_row: skipsRow,
    });
    await insertProblems(database.db, [
      line(2, 'Language ‘Klingon’ is not one the templates have: the notice is in English.', 0),
      line(3, 'Language ‘Klingon’ is not one the templates have: the notice is in English.', 0),
      line(4, 'Mail Id is required.', 1),
      line(4, 'Mobile No is required.', 1),
      line(5, 'Loan No is required.', 1),
      line(6, 'Language ‘Elvish’ is not one the templates have: the notice is in English.', 0),
      line(6, 'Loan No is required.', 1),
    ]);
    expect(await countProblemRows(database.db, jobId)).toBe(3);
  });
});
