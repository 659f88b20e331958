import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here. PostgreSQL only; on SQLite it changes nothing.

const isPostgres = async (db: Kysely<any>) =>
  (await sql<{ v: string }>`select version() as v`.execute(db).catch(() => undefined))?.rows[0]?.v.startsWith(
    'PostgreSQL',
  ) ?? false;

/**
 * An import writes about five search terms a row, and on PostgreSQL each term checked its campaign
 * through the foreign key as it was inserted (a query per term; about 1.5 s of a 100,000-row import).
 * Terms are only ever written with their record, in the record's transaction, and the record's own
 * key holds the campaign, so the terms' key goes; a trigger takes a deleted campaign's terms along,
 * as the key's cascade did. SQLite checks a key by one lookup in the campaigns index, cheaply enough
 * (measured: no difference) that its table, which would have to be rebuilt, keeps it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(await isPostgres(db))) return;
  await sql`alter table record_search drop constraint record_search_campaign_id_fkey`.execute(db);
  await sql`
    create function record_search_campaign_deleted() returns trigger language plpgsql
    set search_path from current as $$
    begin
      delete from record_search where campaign_id = old.id;
      return old;
    end $$`.execute(db);
  await sql`
    create trigger record_search_campaign_deleted after delete on campaigns
    for each row execute function record_search_campaign_deleted()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(await isPostgres(db))) return;
  await sql`drop trigger record_search_campaign_deleted on campaigns`.execute(db);
  await sql`drop function record_search_campaign_deleted()`.execute(db);
  await sql`delete from record_search where campaign_id not in (select id from campaigns)`.execute(db);
  await sql`
    alter table record_search add constraint record_search_campaign_id_fkey
    foreign key (campaign_id) references campaigns (id) on delete cascade`.execute(db);
}
