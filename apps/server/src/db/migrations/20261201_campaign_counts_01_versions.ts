import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here.

const isPostgres = async (db: Kysely<any>) =>
  (await sql<{ v: string }>`select version() as v`.execute(db).catch(() => undefined))?.rows[0]?.v.startsWith(
    'PostgreSQL',
  ) ?? false;

/** The tables whose rows the campaign page's counts read, each with a campaign_id column. */
const COUNTED_TABLES = [
  'notices',
  'credit_cards',
  'deliveries',
  'notice_page_events',
  'record_service_facts',
] as const;

const EVENTS = ['insert', 'update', 'delete'] as const;

/**
 * The campaign page counts its whole campaign (statuses per channel, sent, not serviceable, opened,
 * acknowledged, disputed, respond-by): 1-2 s for 100,000 records (docs/benchmarks.md). The API keeps
 * the counts in memory and reuses them while the campaign's version here is unchanged; triggers move
 * the version with every write to a table the counts read, whatever writes it (an import, an edit, a
 * delete, a send, a webhook, the notice page, the service facts that delivery events keep), so every
 * process sees a change at once. The version is the sum of the rows of a campaign, one row per
 * writer: on PostgreSQL a server process (pg_backend_pid), which runs one transaction at a time, so
 * two transactions never wait on one row, nor deadlock over two campaigns; on SQLite, with one
 * writer at a time, one row (writer 0). On PostgreSQL a trigger fires once per statement (a batch of
 * an import's rows moves its campaign once), on SQLite once per row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('campaign_count_versions')
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('writer', 'integer', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('campaign_count_versions_pk', ['campaign_id', 'writer'])
    .execute();
  /** Moves the version of each campaign that `campaigns` (rows of campaign_id, writer, 1) names. */
  const bump = (campaigns: string) => `
    insert into campaign_count_versions (campaign_id, writer, version) ${campaigns}
    on conflict (campaign_id, writer) do update set version = campaign_count_versions.version + 1;`;

  if (await isPostgres(db)) {
    // A row may move campaign on update: both its old and its new campaign move.
    const changed = {
      insert: 'select campaign_id from new_rows',
      update: 'select campaign_id from new_rows union select campaign_id from old_rows',
      delete: 'select campaign_id from old_rows',
    } as const;
    const referencing = {
      insert: 'new table as new_rows',
      update: 'old table as old_rows new table as new_rows',
      delete: 'old table as old_rows',
    } as const;
    for (const event of EVENTS)
      await sql
        .raw(
          `create function campaign_count_versions_${event}() returns trigger language plpgsql
           set search_path from current as $$ begin
             ${bump(`select distinct campaign_id, pg_backend_pid(), 1 from (${changed[event]}) c`)}
             return null; end $$`,
        )
        .execute(db);
    for (const table of COUNTED_TABLES)
      for (const event of EVENTS)
        await sql
          .raw(
            `create trigger ${table}_campaign_counts_${event} after ${event} on ${table}
             referencing ${referencing[event]} for each statement
             execute function campaign_count_versions_${event}()`,
          )
          .execute(db);
    return;
  }
  const sqliteBumps = {
    insert: bump('values (new.campaign_id, 0, 1)'),
    // `where` also keeps SQLite from reading the upsert's ON as a join's (its documented ambiguity).
    update: `${bump('values (new.campaign_id, 0, 1)')}
      ${bump('select old.campaign_id, 0, 1 where old.campaign_id <> new.campaign_id')}`,
    delete: bump('values (old.campaign_id, 0, 1)'),
  } as const;
  for (const table of COUNTED_TABLES)
    for (const event of EVENTS) {
      // An import's rows are written hidden, one trigger each, and counted from the one update that
      // shows them: a hidden row is in no count, so writing one moves nothing.
      const when =
        event === 'insert' && (table === 'notices' || table === 'credit_cards')
          ? `when new.record_state = 'live'`
          : '';
      await sql
        .raw(
          `create trigger ${table}_campaign_counts_${event} after ${event} on ${table} ${when}
           begin ${sqliteBumps[event]} end`,
        )
        .execute(db);
    }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = await isPostgres(db);
  for (const table of COUNTED_TABLES)
    for (const event of EVENTS)
      await sql
        .raw(`drop trigger ${table}_campaign_counts_${event}${postgres ? ` on ${table}` : ''}`)
        .execute(db);
  if (postgres)
    for (const event of EVENTS) await sql.raw(`drop function campaign_count_versions_${event}()`).execute(db);
  await db.schema.dropTable('campaign_count_versions').execute();
}
