import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here.

const isPostgres = async (db: Kysely<any>) =>
  (await sql<{ v: string }>`select version() as v`.execute(db).catch(() => undefined))?.rows[0]?.v.startsWith(
    'PostgreSQL',
  ) ?? false;

/** An event that is a fact of service: not refused, or refused only for arriving after a later status. */
const COUNTED = `(e.refused is null or e.refused like 'not applied: the delivery was already%')`;

/**
 * A record's first dispatch (sent, delivered or read) and first receipt (delivered or read) on any of
 * its deliveries in one campaign, from the events: the rule of service-dates.ts, as of 29 Nov 2026.
 */
const deliveryFacts = (where: string) => `
  select d.campaign_id, d.record_id,
    (select min(e.at) from deliveries d2 join delivery_events e on e.delivery_id = d2.id
      where d2.record_id = d.record_id and d2.campaign_id = d.campaign_id
        and e.status in ('sent', 'delivered', 'read') and ${COUNTED}),
    (select min(e.at) from deliveries d2 join delivery_events e on e.delivery_id = d2.id
      where d2.record_id = d.record_id and d2.campaign_id = d.campaign_id
        and e.status in ('delivered', 'read') and ${COUNTED})
  from deliveries d where ${where}
  on conflict (campaign_id, record_id) do update
    set dispatch_at = excluded.dispatch_at, receipt_at = excluded.receipt_at`;

const PAGE_RECEIPT = `
  on conflict (campaign_id, record_id) do update
    set page_receipt_at = case
      when record_service_facts.page_receipt_at is null
        or excluded.page_receipt_at < record_service_facts.page_receipt_at then excluded.page_receipt_at
      else record_service_facts.page_receipt_at end`;

/**
 * The service filters (served on, respond by) read a campaign's records' first dispatch and first
 * receipt. Computed from every delivery event and notice page event of the campaign at each ask, they
 * took 1-5 s for 100,000 records (docs/benchmarks.md, "Service status filters"). This table keeps them,
 * one row per record and campaign, and triggers keep it as events are written, whatever writes them
 * (any channel's sending, webhooks, the mailbox, the notice page): a delivery event recomputes its
 * record's two from the record's events (a refusal written after its event is seen too), and a notice
 * page's verified or acknowledged keeps the earliest.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('record_service_facts')
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('dispatch_at', 'text')
    .addColumn('receipt_at', 'text')
    .addColumn('page_receipt_at', 'text')
    .addPrimaryKeyConstraint('record_service_facts_pk', ['campaign_id', 'record_id'])
    .execute();
  const upsertDelivery = `insert into record_service_facts (campaign_id, record_id, dispatch_at, receipt_at)
    ${deliveryFacts('d.id = new.delivery_id')};`;
  const upsertPage = `insert into record_service_facts (campaign_id, record_id, page_receipt_at)
    values (new.campaign_id, new.record_id, new.at) ${PAGE_RECEIPT};`;
  const receiptEvent = `new.event in ('verified', 'acknowledged')`;

  if (await isPostgres(db)) {
    await sql
      .raw(
        `create function record_service_facts_delivery() returns trigger language plpgsql
         set search_path from current as $$ begin ${upsertDelivery} return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger record_service_facts_delivery after insert or update of status, at, refused
         on delivery_events for each row execute function record_service_facts_delivery()`,
      )
      .execute(db);
    await sql
      .raw(
        `create function record_service_facts_page() returns trigger language plpgsql
         set search_path from current as $$ begin
           if ${receiptEvent} then ${upsertPage} end if; return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger record_service_facts_page after insert on notice_page_events
         for each row execute function record_service_facts_page()`,
      )
      .execute(db);
  } else {
    await sql
      .raw(
        `create trigger record_service_facts_delivery_insert after insert on delivery_events
         begin ${upsertDelivery} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger record_service_facts_delivery_update after update of status, at, refused
         on delivery_events begin ${upsertDelivery} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger record_service_facts_page after insert on notice_page_events
         when ${receiptEvent} begin ${upsertPage} end`,
      )
      .execute(db);
  }

  // What was written before: one row per record and campaign with a delivery, then the page's receipts.
  await sql
    .raw(
      `insert into record_service_facts (campaign_id, record_id, dispatch_at, receipt_at)
       ${deliveryFacts(`d.id in (select min(id) from deliveries group by campaign_id, record_id)`)}`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into record_service_facts (campaign_id, record_id, page_receipt_at)
       select campaign_id, record_id, min(at) from notice_page_events
       where event in ('verified', 'acknowledged') group by campaign_id, record_id ${PAGE_RECEIPT}`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (await isPostgres(db)) {
    await sql`drop trigger record_service_facts_delivery on delivery_events`.execute(db);
    await sql`drop trigger record_service_facts_page on notice_page_events`.execute(db);
    await sql`drop function record_service_facts_delivery()`.execute(db);
    await sql`drop function record_service_facts_page()`.execute(db);
  } else {
    await sql`drop trigger record_service_facts_delivery_insert`.execute(db);
    await sql`drop trigger record_service_facts_delivery_update`.execute(db);
    await sql`drop trigger record_service_facts_page`.execute(db);
  }
  await db.schema.dropTable('record_service_facts').execute();
}
