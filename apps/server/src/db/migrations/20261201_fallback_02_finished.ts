import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here.

const isPostgres = async (db: Kysely<any>) =>
  (await sql<{ v: string }>`select version() as v`.execute(db).catch(() => undefined))?.rows[0]?.v.startsWith(
    'PostgreSQL',
  ) ?? false;

/**
 * The campaigns whose fallback ladder has nothing left to decide (issue 31): a row per campaign, kept
 * with the ladder it was found finished under, so the task's turns read it no more. A delivery of the
 * campaign, whoever writes it (a send of a record never sent before, a record added and sent), deletes
 * the row in the writing transaction: a new record's ladder starts with its first delivery. On
 * PostgreSQL the trigger first takes a KEY SHARE lock on the campaign's row, which the task's
 * FOR UPDATE waits on, so a campaign is never found finished while a delivery of it is uncommitted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('fallback_finished')
    .addColumn('campaign_id', 'text', (c) => c.primaryKey())
    .addColumn('ladder', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text', (c) => c.notNull())
    .execute();
  if (await isPostgres(db)) {
    await sql`create function fallback_finished_reopen() returns trigger language plpgsql
      set search_path from current as $$ begin
        perform 1 from campaigns where id in (select campaign_id from new_rows) for key share;
        delete from fallback_finished where campaign_id in (select campaign_id from new_rows);
        return null; end $$`.execute(db);
    await sql`create trigger deliveries_fallback_finished after insert on deliveries
      referencing new table as new_rows for each statement execute function fallback_finished_reopen()`.execute(
      db,
    );
    return;
  }
  await sql`create trigger deliveries_fallback_finished after insert on deliveries
    begin delete from fallback_finished where campaign_id = new.campaign_id; end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (await isPostgres(db)) {
    await sql`drop trigger deliveries_fallback_finished on deliveries`.execute(db);
    await sql`drop function fallback_finished_reopen()`.execute(db);
  } else await sql`drop trigger deliveries_fallback_finished`.execute(db);
  await db.schema.dropTable('fallback_finished').execute();
}
