import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here.

const isPostgres = async (db: Kysely<any>) =>
  (await sql<{ v: string }>`select version() as v`.execute(db).catch(() => undefined))?.rows[0]?.v.startsWith(
    'PostgreSQL',
  ) ?? false;

/** An event that is a fact of service: not refused, or refused only for arriving after a later status. */
const counted = (e: string) =>
  `(${e}.refused is null or ${e}.refused like 'not applied: the delivery was already%')`;

/** The first event of these statuses on the record's deliveries in the campaign that pass `where`. */
const first = (statuses: string, where: string) => `
    (select min(e.at) from deliveries d2 join delivery_events e on e.delivery_id = d2.id
      where d2.record_id = d.record_id and d2.campaign_id = d.campaign_id
        and e.status in (${statuses}) and ${counted('e')} ${where})`;

/**
 * A record's facts of service, as of 30 Nov 2026 (POST_DEEMED_SERVICE_DAYS, issue 31): the first
 * electronic dispatch (sent, delivered or read on any channel but post), the first receipt on any
 * channel, and the first booking of a letter by post that was not returned (no counted bounced event
 * on that post delivery): post is deemed served after a period of its own.
 */
const deliveryFacts = (where: string) => `
  select d.campaign_id, d.record_id,
    ${first(`'sent', 'delivered', 'read'`, `and d2.channel <> 'post'`)},
    ${first(`'delivered', 'read'`, '')},
    ${first(
      `'sent', 'delivered', 'read'`,
      `and d2.channel = 'post' and not exists (select 1 from delivery_events b
         where b.delivery_id = d2.id and b.status = 'bounced' and ${counted('b')})`,
    )}
  from deliveries d where ${where}
  on conflict (campaign_id, record_id) do update
    set dispatch_at = excluded.dispatch_at, receipt_at = excluded.receipt_at,
      post_dispatch_at = excluded.post_dispatch_at`;

/** The rule of 20261130_service_01, for down: the first dispatch on any channel, post included. */
const COUNTED_BEFORE = `(e.refused is null or e.refused like 'not applied: the delivery was already%')`;
const deliveryFactsBefore = (where: string) => `
  select d.campaign_id, d.record_id,
    (select min(e.at) from deliveries d2 join delivery_events e on e.delivery_id = d2.id
      where d2.record_id = d.record_id and d2.campaign_id = d.campaign_id
        and e.status in ('sent', 'delivered', 'read') and ${COUNTED_BEFORE}),
    (select min(e.at) from deliveries d2 join delivery_events e on e.delivery_id = d2.id
      where d2.record_id = d.record_id and d2.campaign_id = d.campaign_id
        and e.status in ('delivered', 'read') and ${COUNTED_BEFORE})
  from deliveries d where ${where}
  on conflict (campaign_id, record_id) do update
    set dispatch_at = excluded.dispatch_at, receipt_at = excluded.receipt_at`;

const EVERY_RECORD = `d.id in (select min(id) from deliveries group by campaign_id, record_id)`;

async function replaceDeliveryTrigger(db: Kysely<any>, upsert: string): Promise<void> {
  if (await isPostgres(db)) {
    // The trigger stays; its function is replaced.
    await sql
      .raw(
        `create or replace function record_service_facts_delivery() returns trigger language plpgsql
         set search_path from current as $$ begin ${upsert} return null; end $$`,
      )
      .execute(db);
    return;
  }
  await sql`drop trigger record_service_facts_delivery_insert`.execute(db);
  await sql`drop trigger record_service_facts_delivery_update`.execute(db);
  await sql
    .raw(
      `create trigger record_service_facts_delivery_insert after insert on delivery_events
       begin ${upsert} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger record_service_facts_delivery_update after update of status, at, refused
       on delivery_events begin ${upsert} end`,
    )
    .execute(db);
}

/**
 * Letters by post are deemed served after POST_DEEMED_SERVICE_DAYS from their booking, unless
 * returned; other channels after DEEMED_SERVICE_DAYS from their dispatch. `dispatch_at` now counts the
 * electronic channels only, `post_dispatch_at` the first booking of a letter not returned; the
 * trigger keeps both, and every record's row is computed again from its events.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('record_service_facts').addColumn('post_dispatch_at', 'text').execute();
  await replaceDeliveryTrigger(
    db,
    `insert into record_service_facts (campaign_id, record_id, dispatch_at, receipt_at, post_dispatch_at)
     ${deliveryFacts('d.id = new.delivery_id')};`,
  );
  await sql
    .raw(
      `insert into record_service_facts (campaign_id, record_id, dispatch_at, receipt_at, post_dispatch_at)
       ${deliveryFacts(EVERY_RECORD)}`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await replaceDeliveryTrigger(
    db,
    `insert into record_service_facts (campaign_id, record_id, dispatch_at, receipt_at)
     ${deliveryFactsBefore('d.id = new.delivery_id')};`,
  );
  await db.schema.alterTable('record_service_facts').dropColumn('post_dispatch_at').execute();
  await sql
    .raw(
      `insert into record_service_facts (campaign_id, record_id, dispatch_at, receipt_at)
       ${deliveryFactsBefore(EVERY_RECORD)}`,
    )
    .execute(db);
}
