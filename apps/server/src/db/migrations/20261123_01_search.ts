import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share, except the
// term column's collation, which PostgreSQL needs said and SQLite has by default.
export async function up(db: Kysely<any>): Promise<void> {
  // What each record is found by: a row per normalised term (a name from each of its words on, an
  // identifier, a mobile number's digits). A prefix search is a range of one btree index,
  // `term >= q and term < q || U+10FFFF`, which only holds when terms compare byte by byte:
  // SQLite's default (BINARY) does; PostgreSQL's database collation may not, so the column says "C".
  const postgres = (
    await sql<{ v: string }>`select version() as v`.execute(db).catch(() => undefined)
  )?.rows[0]?.v.startsWith('PostgreSQL');
  await db.schema
    .createTable('record_search')
    // The record's owner, also while an import writes it hidden: searches join the record and see
    // only rows whose own owner_id matches, so hidden rows stay unfound until the import reveals them.
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('term', postgres ? sql`text collate "C"` : 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    // Deleting a campaign (Delete All, a campaign's Delete, a failed import) takes its terms along.
    .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .execute();
  // In the order results are shown (term, then newest first), and covering what the search reads.
  await db.schema
    .createIndex('record_search_term_idx')
    .on('record_search')
    .columns(['owner_id', 'term', 'record_id desc', 'kind', 'field'])
    .execute();
  // A record's terms, for replacing them on edit and removing them on delete; also serves the cascade.
  await db.schema
    .createIndex('record_search_record_idx')
    .on('record_search')
    .columns(['campaign_id', 'record_id'])
    .execute();

  // Records typed in or imported before this migration become findable.
  for (const [table, kind, fields] of [
    ['notices', 'notice', ['custName', 'loanNo', 'custMobileNo']],
    ['credit_cards', 'credit-card', ['custName', 'maskNo', 'custMobileNo', 'referenceNo']],
  ] as const) {
    await backfill(db, table, kind, fields);
  }
}

/**
 * Terms of existing records, computed here (not by app code, which may change later) the way the
 * app computes them on 2026-11-23: lower-case letters and digits; names from each word on, words one space apart;
 * mobile numbers as national digits; mask numbers also by the digits after the masking.
 */
async function backfill(
  db: Kysely<any>,
  table: string,
  kind: string,
  fields: readonly string[],
): Promise<void> {
  let after = '';
  for (;;) {
    const rows: Record<string, string>[] = await db
      .selectFrom(table)
      .select(['id', 'owner_id', 'campaign_id', ...fields])
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute();
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.id!;
    const terms = rows.flatMap((row) =>
      [...termsOf(row, fields)].map(([term, field]) => ({
        owner_id: row.owner_id,
        term,
        record_id: row.id,
        kind,
        field,
        campaign_id: row.campaign_id,
      })),
    );
    for (let i = 0; i < terms.length; i += 100)
      await db
        .insertInto('record_search')
        .values(terms.slice(i, i + 100))
        .execute();
  }
}

function termsOf(row: Record<string, string>, fields: readonly string[]): Map<string, string> {
  const terms = new Map<string, string>();
  const add = (term: string, field: string) => {
    if (term && !terms.has(term.slice(0, 100))) terms.set(term.slice(0, 100), field);
  };
  for (const field of fields) {
    const value = (row[field] ?? '').normalize('NFKC').toLowerCase();
    const words = value.split(/[^\p{L}\p{M}\p{N}]+/u).filter(Boolean);
    if (field === 'custName') {
      for (let i = 0; i < Math.min(words.length, 8); i++) add(words.slice(i).join(' '), field);
    } else if (field === 'custMobileNo') {
      const digits = value.replace(/\D/g, '');
      add(
        digits.length === 12 && digits.startsWith('91')
          ? digits.slice(2)
          : digits.length === 11 && digits.startsWith('0')
            ? digits.slice(1)
            : digits.length === 14 && digits.startsWith('0091')
              ? digits.slice(4)
              : digits,
        field,
      );
    } else {
      add(words.join(''), field);
      if (field === 'maskNo') add(/(\d+)\D*$/.exec(value)?.[1] ?? '', field);
    }
  }
  return terms;
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('record_search').execute();
}
