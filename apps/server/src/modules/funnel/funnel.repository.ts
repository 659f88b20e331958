import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';

/**
 * Whose records a funnel counts: one campaign's (with the table its records are in), an owner's live
 * campaigns', or every live campaign's.
 */
export type FunnelScope =
  { campaignId: string; recordTable: 'notices' | 'credit_cards' } | { ownerId: string } | { everyone: true };

/** The channels a funnel has rows for; `any` is added: each record once, whatever its channel. */
const CHANNELS = ['email', 'whatsapp', 'sms'] as const;
type Column = `${(typeof CHANNELS)[number] | 'any'}_${string}`;

/** How many records reached each step, by `<channel>_<step>` (`any_sent`, `email_opened`, …). */
export type StepCounts = Record<Column, number | string | null>;

/**
 * Counts records per step in one statement: the inner query reads the scope's rows record by record
 * (in the order of the funnel indexes, so it never sorts) and says of each record how far it got
 * (`perRecord`); the outer one adds those up (`totals`), leaving out records a delete archived.
 */
async function countPerRecord(
  db: Database,
  table: 'deliveries' | 'notice_page_events',
  perRecord: RawBuilder<unknown>[],
  totals: RawBuilder<unknown>[],
  only: RawBuilder<boolean>,
  scope: FunnelScope,
): Promise<StepCounts> {
  const campaigns =
    'campaignId' in scope
      ? sql`t.campaign_id = ${scope.campaignId}`
      : sql`t.campaign_id in (select c.id from campaigns c where c.status = 'ready' and c.archived_at is null
          ${'ownerId' in scope ? sql`and c.owner_id = ${scope.ownerId}` : sql``})`;
  const archivedIn = (records: 'notices' | 'credit_cards') =>
    sql`not exists (select 1 from ${sql.table(records)} a where a.id = r.record_id and a.archived_at is not null)`;
  const live =
    'recordTable' in scope
      ? archivedIn(scope.recordTable)
      : sql`${archivedIn('notices')} and ${archivedIn('credit_cards')}`;
  const { rows } = await sql<StepCounts>`
    select ${sql.join(totals)} from (
      select t.record_id, ${sql.join(perRecord)}
      from ${sql.table(table)} t
      where ${campaigns} and ${only}
      group by t.campaign_id, t.record_id
    ) r
    where ${live}`.execute(db);
  return rows[0]!;
}

const onChannel = (channel: (typeof CHANNELS)[number] | 'any') =>
  channel === 'any' ? sql`` : sql`t.channel = ${sql.lit(channel)} and `;

/**
 * Records sent (an attempt went to a provider, bounced ones included, or to the outbox), delivered
 * (or read) and read, per channel and on any. The steps nest, so each record's furthest step per
 * channel (1 sent, 2 delivered, 3 read) says them all: one expression a row instead of one a step.
 */
export function countDeliverySteps(db: Database, scope: FunnelScope): Promise<StepCounts> {
  const went = sql`case t.status when 'read' then 3 when 'delivered' then 2 else 1 end`;
  const perRecord = [
    ...CHANNELS.map(
      (channel) =>
        sql`max(case when t.channel = ${sql.lit(channel)} then ${went} end) as ${sql.ref(`${channel}_went`)}`,
    ),
    sql`max(${went}) as any_went`,
  ];
  const totals = [...CHANNELS, 'any' as const].flatMap((channel) =>
    (['sent', 'delivered', 'read'] as const).map(
      (step, i) =>
        sql`count(case when r.${sql.ref(`${channel}_went`)} >= ${sql.lit(i + 1)} then 1 end) as ${sql.ref(`${channel}_${step}`)}`,
    ),
  );
  return countPerRecord(
    db,
    'deliveries',
    perRecord,
    totals,
    sql`t.status in ('outbox', 'sent', 'delivered', 'read', 'bounced')`,
    scope,
  );
}

/**
 * Records whose notice page was opened, verified, acknowledged, disputed and asked to settle, per
 * channel of the link the visitor came by and on any (events by a link of unknown channel included).
 */
export function countPageSteps(db: Database, scope: FunnelScope): Promise<StepCounts> {
  const events = {
    opened: 'link_opened',
    verified: 'verified',
    acknowledged: 'acknowledged',
    disputed: 'disputed',
    settle_requested: 'settle_requested',
  };
  const perRecord: RawBuilder<unknown>[] = [];
  const totals: RawBuilder<unknown>[] = [];
  for (const channel of [...CHANNELS, 'any'] as const)
    for (const [step, event] of Object.entries(events)) {
      const column = sql.ref(`${channel}_${step}`);
      perRecord.push(
        sql`max(case when ${onChannel(channel)}t.event = ${sql.lit(event)} then 1 else 0 end) as ${column}`,
      );
      totals.push(sql`sum(r.${column}) as ${column}`);
    }
  return countPerRecord(
    db,
    'notice_page_events',
    perRecord,
    totals,
    sql`t.event in (${sql.join(Object.values(events).map((event) => sql.lit(event)))})`,
    scope,
  );
}
