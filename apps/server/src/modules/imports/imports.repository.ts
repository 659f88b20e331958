import type { Database } from '../../db/database.ts';
import type { ImportProblemsTable, RecordKind } from '../../db/schema.ts';

export type ImportProblemRow = ImportProblemsTable;

/** Keeps the mapping an import used with the campaign it made. */
export async function setCampaignMapping(db: Database, campaignId: string, mapping: string): Promise<void> {
  await db.updateTable('campaigns').set({ column_mapping: mapping }).where('id', '=', campaignId).execute();
}

/** The mapping the user last confirmed for this header row of the kind, as stored (JSON). */
export async function findRememberedMapping(
  db: Database,
  ownerId: string,
  kind: RecordKind,
  headerKey: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('import_mappings')
    .select('mapping')
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .where('header_key', '=', headerKey)
    .executeTakeFirst();
  return row?.mapping;
}

export async function rememberMapping(
  db: Database,
  row: { owner_id: string; kind: RecordKind; header_key: string; mapping: string; updated_at: string },
): Promise<void> {
  await db
    .insertInto('import_mappings')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['owner_id', 'kind', 'header_key'])
        .doUpdateSet({ mapping: row.mapping, updated_at: row.updated_at }),
    )
    .execute();
}

/** Forgets what an earlier attempt of the job reported, before the next attempt reads the file again. */
export async function deleteProblems(db: Database, jobId: string): Promise<void> {
  await db.deleteFrom('import_problems').where('job_id', '=', jobId).execute();
}

export async function insertProblems(db: Database, problems: ImportProblemRow[]): Promise<void> {
  if (problems.length) await db.insertInto('import_problems').values(problems).execute();
}

/**
 * The job's problems of whole rows after row `afterRow`, in row order, about `limit` at a time: a
 * page ends at the end of a row (never inside one, so no problem is skipped or read twice), and the
 * next page starts from its last row number through the (job, row) index instead of an offset.
 */
export async function listProblemsAfter(
  db: Database,
  jobId: string,
  afterRow: number,
  limit: number,
): Promise<{ problems: ImportProblemRow[]; lastRow: number | null }> {
  const page = await problemsOf(db, jobId)
    .where('row_number', '>', afterRow)
    .orderBy('row_number')
    .orderBy('column_name')
    .orderBy('problem')
    .limit(limit + 1)
    .execute();
  if (page.length <= limit) return { problems: page, lastRow: null };
  // The row cut off by the limit is read again whole on the next page.
  const cut = page[limit]!.row_number;
  const whole = page.filter((p) => p.row_number < cut);
  // One row with more problems than a page (a sheet has at most 16,384 columns) is read on its own.
  if (whole.length === 0) return listRow(db, jobId, cut);
  return { problems: whole, lastRow: whole.at(-1)!.row_number };
}

const problemsOf = (db: Database, jobId: string) =>
  db.selectFrom('import_problems').selectAll().where('job_id', '=', jobId);

async function listRow(db: Database, jobId: string, row: number) {
  const problems = await problemsOf(db, jobId)
    .where('row_number', '=', row)
    .orderBy('column_name')
    .orderBy('problem')
    .execute();
  return { problems, lastRow: row };
}

/** How many rows the job has skipped so far (a row with several problems counts once; a note on an imported row does not count). */
export async function countProblemRows(db: Database, jobId: string): Promise<number> {
  const row = await db
    .selectFrom('import_problems')
    .select((eb) => eb.fn.count<number>('row_number').distinct().as('rows'))
    .where('job_id', '=', jobId)
    .where('skips_row', '=', 1)
    .executeTakeFirst();
  return Number(row?.rows ?? 0);
}
