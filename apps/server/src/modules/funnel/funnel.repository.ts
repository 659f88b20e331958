import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';

/** Whose campaigns a funnel counts: one campaign, an owner's live campaigns, or every live campaign. */
export type FunnelScope = { campaignId: string } | { ownerId: string } | { everyone: true };

/** Per channel, and once more as `any`: each record once, whatever its channel. */
export interface DeliveryCountRow {
  channel: string;
  sent: number | string;
  delivered: number | string;
  read: number | string;
}

/** Per link channel (null: not known), and once more as `any`. */
export interface PageEventCountRow {
  channel: string | null;
  opened: number | string;
  verified: number | string;
  acknowledged: number | string;
  disputed: number | string;
  settle_requested: number | string;
}

/**
 * The rows of table alias `t` the scope takes: its campaign, or the owner's (everyone's) live
 * campaigns; leaving out records a delete archived, which left every list.
 */
function inScope(t: 'd' | 'e', scope: FunnelScope): RawBuilder<unknown> {
  const campaign = sql.ref(`${t}.campaign_id`);
  const record = sql.ref(`${t}.record_id`);
  const campaigns =
    'campaignId' in scope
      ? sql`${campaign} = ${scope.campaignId}`
      : sql`${campaign} in (select c.id from campaigns c where c.status = 'ready' and c.archived_at is null
          ${'ownerId' in scope ? sql`and c.owner_id = ${scope.ownerId}` : sql``})`;
  return sql`${campaigns}
    and not exists (select 1 from notices n where n.id = ${record} and n.archived_at is not null)
    and not exists (select 1 from credit_cards k where k.id = ${record} and k.archived_at is not null)`;
}

/**
 * How many records went out, were delivered and were read, per channel and on any, in one statement:
 * a record counts once per step however many attempts it had (`sent`: outbox and bounced included).
 */
export async function countDeliverySteps(db: Database, scope: FunnelScope): Promise<DeliveryCountRow[]> {
  const counts = sql`
    count(distinct case when d.status in ('outbox', 'sent', 'delivered', 'read', 'bounced') then d.record_id end) as sent,
    count(distinct case when d.status in ('delivered', 'read') then d.record_id end) as delivered,
    count(distinct case when d.status = 'read' then d.record_id end) as ${sql.ref('read')}`;
  const where = sql`d.status in ('outbox', 'sent', 'delivered', 'read', 'bounced') and ${inScope('d', scope)}`;
  const { rows } = await sql<DeliveryCountRow>`
    select d.channel as channel, ${counts} from deliveries d where ${where} group by d.channel
    union all
    select 'any' as channel, ${counts} from deliveries d where ${where}`.execute(db);
  return rows;
}

/**
 * How many records' notice pages were opened, verified, acknowledged, disputed and asked to settle, per
 * channel of the link the visitor came by (null: not known) and on any, in one statement.
 */
export async function countPageSteps(db: Database, scope: FunnelScope): Promise<PageEventCountRow[]> {
  const step = (event: string, as: string) =>
    sql`count(distinct case when e.event = ${sql.lit(event)} then e.record_id end) as ${sql.ref(as)}`;
  const counts = sql.join([
    step('link_opened', 'opened'),
    step('verified', 'verified'),
    step('acknowledged', 'acknowledged'),
    step('disputed', 'disputed'),
    step('settle_requested', 'settle_requested'),
  ]);
  const where = sql`e.event in ('link_opened', 'verified', 'acknowledged', 'disputed', 'settle_requested')
    and ${inScope('e', scope)}`;
  const { rows } = await sql<PageEventCountRow>`
    select e.channel as channel, ${counts} from notice_page_events e where ${where} group by e.channel
    union all
    select 'any' as channel, ${counts} from notice_page_events e where ${where}`.execute(db);
  return rows;
}
