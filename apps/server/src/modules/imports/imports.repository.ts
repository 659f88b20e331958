import { sql, type RawBuilder } from 'kysely';
import type { DuplicateChoice } from '@notice-desk/contract/imports';
import { textArray } from '../../db/bulk-insert.ts';
import { isPostgres, type Database } from '../../db/database.ts';
import type { ImportProblemsTable, RecordKind } from '../../db/schema.ts';
import { served } from '../archive/archive.repository.ts';
import type { RecordKindInfo } from '../records/record-kinds.ts';

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

/** Records what an import did with rows already imported, on the campaign it made. */
export async function setCampaignDuplicates(
  db: Database,
  campaignId: string,
  choice: DuplicateChoice,
  rows: number,
): Promise<void> {
  await db
    .updateTable('campaigns')
    .set({ duplicate_choice: choice, duplicate_rows: rows })
    .where('id', '=', campaignId)
    .execute();
}

/** One of the owner's records a search term of an imported row finds, with its campaign and service. */
export interface TermMatch {
  id: string;
  campaign_id: string;
  campaign_name: string;
  served: boolean;
  /** The record's fields, by key. */
  fields: Record<string, string>;
}

/**
 * The owner's records of the kind with one of `terms` in `field` of the search index (record_search,
 * by its (owner, term) index: one range per term, a batch of rows in one statement), that are live,
 * not archived, in a ready campaign other than `exceptCampaignId`. The caller compares the fields
 * themselves: a term keeps letters and digits only, so it finds a few more records than match.
 */
export async function findRecordsByTerms(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  field: string,
  terms: readonly string[],
  exceptCampaignId: string | null,
): Promise<TermMatch[]> {
  if (terms.length === 0) return [];
  const among = (column: RawBuilder<unknown>, values: readonly string[]) =>
    isPostgres(db)
      ? sql`${column} = any(${textArray(values)}::text[])`
      : sql`${column} in (select value from json_each(${JSON.stringify(values)}))`;
  // Two statements, not one join: the terms alone first, through the (owner, term) index, which is
  // all an import of new loans ever reads; then the records found, by id (joined in one statement,
  // SQLite started from the owner's every record).
  // On PostgreSQL one index probe per term, said so (LATERAL, fenced by OFFSET 0 so it is not
  // flattened): inside an import's transaction the statistics know nothing of the terms it wrote, and
  // the planner read all of the owner's terms per batch (hash join), 26-50 ms a batch and growing,
  // minutes for 100,000 rows; probed, under 1 ms a batch.
  const found = isPostgres(db)
    ? (
        await sql<{ record_id: string }>`
          select distinct x.record_id from unnest(${textArray(terms)}::text[]) as t(term)
          cross join lateral (
            select s.record_id from record_search s
            where s.owner_id = ${ownerId} and s.term = (t.term collate "C")
              and s.kind = ${info.kind} and s.field = ${field}
            offset 0
          ) x`.execute(db)
      ).rows
    : await db
        .selectFrom('record_search')
        .select('record_id')
        .distinct()
        .where('owner_id', '=', ownerId)
        .where('kind', '=', info.kind)
        .where('field', '=', field)
        .where('term', 'in', [...terms])
        .execute();
  if (found.length === 0) return [];
  const table = info.table;
  const column = (name: string) => sql.ref(`${table}.${name}`);
  const keys = info.fields.map((f) => f.key);
  const ids = found.map((row) => row.record_id);
  const { rows } = await sql<Record<string, string | number | boolean>>`
    select ${column('id')} as id, ${column('campaign_id')} as campaign_id, c.name as campaign_name,
      case when ${served(table)} then 1 else 0 end as served,
      ${sql.join(keys.map((key) => sql`${column(key)} as ${sql.ref(key)}`))}
    from ${
      isPostgres(db)
        ? // By id, one probe each, for the same reason as the terms above.
          sql`unnest(${textArray(ids)}::text[]) as u(id)
            cross join lateral (select * from ${sql.table(table)} r where r.id = u.id offset 0) as ${sql.table(table)}`
        : sql`${sql.table(table)}`
    }
    join campaigns c on c.id = ${column('campaign_id')}
    where ${isPostgres(db) ? sql`true` : among(column('id'), ids)}
      and ${column('owner_id')} = ${ownerId} and ${column('record_state')} = 'live'
      and ${column('archived_at')} is null
      and c.status = 'ready' and c.archived_at is null
      and ${column('campaign_id')} <> ${exceptCampaignId ?? ''}`.execute(db);
  return rows.map((row) => ({
    id: String(row.id),
    campaign_id: String(row.campaign_id),
    campaign_name: String(row.campaign_name),
    served: Number(row.served) === 1,
    fields: Object.fromEntries(keys.map((key) => [key, String(row[key] ?? '')])),
  }));
}

/** Removes the search terms of these records (an update import writes them afresh), by campaign. */
export async function deleteTermsOf(
  db: Database,
  records: readonly { id: string; campaign_id: string }[],
): Promise<void> {
  const byCampaign = new Map<string, string[]>();
  for (const { id, campaign_id } of records) {
    const ids = byCampaign.get(campaign_id);
    if (ids) ids.push(id);
    else byCampaign.set(campaign_id, [id]);
  }
  for (const [campaignId, ids] of byCampaign) {
    await db
      .deleteFrom('record_search')
      .where('campaign_id', '=', campaignId)
      .where('record_id', 'in', ids)
      .execute();
  }
}
