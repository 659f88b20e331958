import { CompiledQuery, sql } from 'kysely';
import { textArray } from '../../db/bulk-insert.ts';
import { isPostgres, type Database } from '../../db/database.ts';
import type { RecordKind, RecordSearchTable } from '../../db/schema.ts';
import type { Lookup } from './search-terms.ts';

/** A term that matched, with what the result shows of its record. */
export interface MatchRow {
  term: string;
  field: string;
  kind: RecordKind;
  record_id: string;
  cust_name: string;
  campaign_id: string;
  campaign_name: string;
  mobile: string;
  loanNo: string | null;
  maskNo: string | null;
  referenceNo: string | null;
}

/** The shared part of a set of terms: one owner's, one kind's, one campaign's. */
export type TermScope = Pick<RecordSearchTable, 'owner_id' | 'kind' | 'campaign_id'>;
/** One term of a record: [term, record_id, field]. */
export type RecordTerm = [term: string, recordId: string, field: string];

/** The highest code point: every text that starts with a prefix sorts below prefix + this, byte by byte. */
const AFTER_EVERY_TEXT = '\u{10FFFF}';
/** Terms per statement: an import's batch of rows (about five terms a row) in one. */
const TERMS_PER_STATEMENT = 5000;

const INSERT_SQLITE = `insert into record_search (owner_id, term, record_id, kind, field, campaign_id)
  select ?, value ->> 0, value ->> 1, ?, value ->> 2, ? from json_each(?)`;
const INSERT_POSTGRES = `insert into record_search (owner_id, term, record_id, kind, field, campaign_id)
  select $1, term, record_id, $2, field, $3 from unnest($4::text[], $5::text[], $6::text[]) as t(term, record_id, field)`;

/**
 * Inserts terms that share an owner, a kind and a campaign; `terms` is read as it goes (an import
 * writes hundreds of thousands). What the terms share is bound once, and the rest goes as one value per
 * statement: a JSON array that SQLite spreads with json_each, or one array per column for PostgreSQL.
 * Binding six values a term made the terms over half of a SQLite import's time; this takes a third
 * off that (docs/benchmarks.md, where an import's time goes).
 */
export async function insertSearchTerms(
  db: Database,
  scope: TermScope,
  terms: Iterable<RecordTerm>,
): Promise<void> {
  const postgres = isPostgres(db);
  let chunk: RecordTerm[] = [];
  const write = async () => {
    const parameters = postgres
      ? [0, 1, 2].map((column) => textArray(chunk.map((term) => term[column]!)))
      : [JSON.stringify(chunk)];
    await db.executeQuery(
      CompiledQuery.raw(postgres ? INSERT_POSTGRES : INSERT_SQLITE, [
        scope.owner_id,
        scope.kind,
        scope.campaign_id,
        ...parameters,
      ]),
    );
    chunk = [];
  };
  for (const term of terms) {
    chunk.push(term);
    if (chunk.length === TERMS_PER_STATEMENT) await write();
  }
  if (chunk.length) await write();
}

export async function deleteRecordTerms(db: Database, campaignId: string, recordId: string): Promise<void> {
  await db
    .deleteFrom('record_search')
    .where('campaign_id', '=', campaignId)
    .where('record_id', '=', recordId)
    .execute();
}

/**
 * The ids of the owner's records of a kind with a term starting with one of the lookups' prefixes (in
 * the lookup's field, when it names one), and of one campaign when given: a range of the term index
 * per prefix, for a list's Search... box to page and count through.
 */
export function recordsFoundBy(
  db: Database,
  ownerId: string,
  kind: RecordKind,
  lookups: readonly Lookup[],
  campaignId?: string,
) {
  let query = db
    .selectFrom('record_search')
    .select('record_id')
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .where((eb) =>
      eb.or(
        lookups.map(({ prefix, field }) =>
          eb.and([
            eb('term', '>=', prefix),
            eb('term', '<', prefix + AFTER_EVERY_TEXT),
            ...(field ? [eb('field', '=', field)] : []),
          ]),
        ),
      ),
    );
  if (campaignId !== undefined) query = query.where('campaign_id', '=', campaignId);
  return query;
}

// Stand-ins for the values of a search, so its SQL can be compiled once and its values put in after.
const OWNER = '\u0000owner';
const FROM = '\u0000from';
const TO = '\u0000to';
const FIELD = '\u0000field';
const LIMIT = -1;
const matchSql = new Map<string, CompiledQuery>();
const LIVE = sql.lit('live' as const);

/**
 * The owner's terms starting with `prefix` (of one field, when given), in index order: the prefix
 * itself first, then by term, newest record first within a term. Each joins its record on id and
 * owner, and only a live one matches: records an import still holds hidden never do.
 */
export async function findMatches(
  db: Database,
  ownerId: string,
  prefix: string,
  limit: number,
  field?: string,
): Promise<MatchRow[]> {
  // Building the Kysely query costs twice what running it does; its SQL is compiled once per dialect and shape.
  const key = `${isPostgres(db) ? 'postgres' : 'sqlite'}:${field ? 'field' : 'any'}`;
  let compiled = matchSql.get(key);
  if (!compiled) {
    compiled = matchQuery(db, field !== undefined).compile();
    matchSql.set(key, compiled);
  }
  const values = new Map<unknown, unknown>([
    [OWNER, ownerId],
    [FROM, prefix],
    [TO, prefix + AFTER_EVERY_TEXT],
    [FIELD, field],
    [LIMIT, limit],
  ]);
  const parameters = compiled.parameters.map((value) => (values.has(value) ? values.get(value) : value));
  const result = await db.executeQuery<MatchRow>(CompiledQuery.raw(compiled.sql, parameters));
  return result.rows;
}

function matchQuery(db: Database, byField: boolean) {
  let query = db
    .selectFrom('record_search as s')
    .leftJoin('notices as n', (join) =>
      join
        .on('s.kind', '=', 'notice')
        .onRef('n.id', '=', 's.record_id')
        .onRef('n.owner_id', '=', 's.owner_id'),
    )
    .leftJoin('credit_cards as c', (join) =>
      join
        .on('s.kind', '=', 'credit-card')
        .onRef('c.id', '=', 's.record_id')
        .onRef('c.owner_id', '=', 's.owner_id'),
    )
    // The terms' campaign is the record's (a record moves campaign never; its terms go with it).
    .innerJoin('campaigns as k', 'k.id', 's.campaign_id')
    .select(['s.term', 's.field', 's.kind', 's.record_id', 'n.loanNo', 'c.maskNo', 'c.referenceNo'])
    .select('k.name as campaign_name')
    .select((eb) => [
      eb.fn.coalesce('n.custName', 'c.custName').$notNull().as('cust_name'),
      eb.fn.coalesce('n.campaign_id', 'c.campaign_id').$notNull().as('campaign_id'),
      eb.fn.coalesce('n.custMobileNo', 'c.custMobileNo').$notNull().as('mobile'),
    ])
    .where('s.owner_id', '=', OWNER)
    .where('s.term', '>=', FROM)
    .where('s.term', '<', TO)
    // A record an import still holds hidden is joined too, and left out here.
    .where((eb) => eb.or([eb('n.record_state', '=', LIVE), eb('c.record_state', '=', LIVE)]));
  if (byField) query = query.where('s.field', '=', FIELD);
  return query.orderBy('s.term').orderBy('s.record_id', 'desc').limit(LIMIT);
}
