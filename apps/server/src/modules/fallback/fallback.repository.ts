import { isPostgres, type Database } from '../../db/database.ts';
import type {
  DeliveryStatus,
  FallbackLaddersTable,
  FallbackStepsTable,
  RecordKind,
} from '../../db/schema.ts';
import { nowIso } from '../../lib/time.ts';

export type LadderRow = FallbackLaddersTable;
export type StepRow = FallbackStepsTable;
export type StepKey = Pick<StepRow, 'record_kind' | 'record_id' | 'channel'>;

export function findLadder(
  db: Database,
  scope: LadderRow['scope'],
  scopeId: string,
): Promise<LadderRow | undefined> {
  return db
    .selectFrom('fallback_ladders')
    .selectAll()
    .where('scope', '=', scope)
    .where('scope_id', '=', scopeId)
    .executeTakeFirst();
}

export async function saveLadder(db: Database, row: LadderRow): Promise<void> {
  await db
    .insertInto('fallback_ladders')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['scope', 'scope_id']).doUpdateSet({
        ladder: row.ladder,
        updated_at: row.updated_at,
        updated_by: row.updated_by,
      }),
    )
    .execute();
}

/** A live campaign that has sent something and has a ladder: its own, else its kind's. */
export interface LadderCampaign {
  id: string;
  owner_id: string;
  kind: RecordKind;
  own: string | null;
  fallback: string | null;
}

/**
 * The campaigns a turn of the task looks at, in id order: those not finished under the ladder they
 * follow now (fallback_finished: a changed ladder, its own or its kind's, makes a campaign read again).
 */
export function campaignsWithLadders(db: Database): Promise<LadderCampaign[]> {
  return db
    .selectFrom('campaigns as c')
    .leftJoin('fallback_ladders as own', (join) =>
      join.on('own.scope', '=', 'campaign').onRef('own.scope_id', '=', 'c.id'),
    )
    .leftJoin('fallback_ladders as dflt', (join) =>
      join.on('dflt.scope', '=', 'kind').onRef('dflt.scope_id', '=', 'c.kind'),
    )
    .leftJoin('fallback_finished as done', 'done.campaign_id', 'c.id')
    .select(['c.id', 'c.owner_id', 'c.kind', 'own.ladder as own', 'dflt.ladder as fallback'])
    .where((eb) =>
      eb.or([
        eb('done.campaign_id', 'is', null),
        eb('done.ladder', '<>', eb.fn.coalesce('own.ladder', 'dflt.ladder')),
      ]),
    )
    .where('c.archived_at', 'is', null)
    .where('c.status', '=', 'ready')
    .where((eb) => eb.or([eb('own.ladder', 'is not', null), eb('dflt.ladder', 'is not', null)]))
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('deliveries as d').select('d.id').whereRef('d.campaign_id', '=', 'c.id')),
    )
    .orderBy('c.id')
    .execute();
}

/** The campaign's deliveries (as d) of records that have no row for the step on `channel` yet. */
function undecidedDeliveries(
  db: Database,
  campaignId: string,
  kind: RecordKind,
  channel: StepRow['channel'],
) {
  return db
    .selectFrom('deliveries as d')
    .where('d.campaign_id', '=', campaignId)
    .where('d.record_kind', '=', kind)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('fallback_steps as s')
            .select('s.record_id')
            .where('s.record_kind', '=', kind)
            .whereRef('s.record_id', '=', 'd.record_id')
            .where('s.channel', '=', channel),
        ),
      ),
    );
}

/**
 * The campaign's records whose step on `channel` is due (first sent at or before `startedBy`) and not
 * yet claimed, with when each was first sent, oldest first.
 */
export async function dueRecords(
  db: Database,
  campaignId: string,
  kind: RecordKind,
  channel: StepRow['channel'],
  startedBy: string,
  limit: number,
): Promise<{ record_id: string; started: string }[]> {
  const rows = await undecidedDeliveries(db, campaignId, kind, channel)
    .select(['d.record_id'])
    .select((eb) => eb.fn.min('d.created_at').as('started'))
    .groupBy('d.record_id')
    .having((eb) => eb(eb.fn.min('d.created_at'), '<=', startedBy))
    .orderBy('d.record_id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ record_id: row.record_id, started: String(row.started) }));
}

/**
 * Whether the campaign has anything left to decide on these channels: a claim open, or a record sent
 * in the campaign with no row on one of them (due or not).
 */
async function anythingToDecide(
  db: Database,
  campaign: { id: string; kind: RecordKind },
  channels: readonly StepRow['channel'][],
): Promise<boolean> {
  const open = await db
    .selectFrom('fallback_steps')
    .select('record_id')
    .where('campaign_id', '=', campaign.id)
    .where('outcome', '=', 'claimed')
    .limit(1)
    .executeTakeFirst();
  if (open) return true;
  for (const channel of channels) {
    const undecided = await undecidedDeliveries(db, campaign.id, campaign.kind, channel)
      .select('d.record_id')
      .limit(1)
      .executeTakeFirst();
    if (undecided) return true;
  }
  return false;
}

/**
 * Keeps the campaign finished under `ladder` when nothing is left to decide on its ladder's channels;
 * answers whether it did. Looked at first with no lock (a campaign still waiting on a step answers
 * at once), then again in one transaction that locks before it looks, so that no delivery of the
 * campaign commits unseen in between: on SQLite the row's write comes first and takes the one write
 * lock; on PostgreSQL FOR UPDATE on the campaign waits for every transaction that wrote a delivery of
 * it (the trigger of migration 20261201_fallback_02 holds KEY SHARE until it commits) and holds new
 * ones off. A delivery written after deletes the row again.
 */
export async function finishIfDecided(
  db: Database,
  campaign: { id: string; kind: RecordKind },
  ladder: { text: string; channels: readonly StepRow['channel'][] },
  at: string,
): Promise<boolean> {
  if (await anythingToDecide(db, campaign, ladder.channels)) return false;
  return db.transaction().execute(async (trx) => {
    // The campaign's lock before the row's, in the order the trigger takes them: a send's trigger
    // waiting on the row while this waits on the send would be a deadlock.
    if (isPostgres(db))
      await trx.selectFrom('campaigns').select('id').where('id', '=', campaign.id).forUpdate().execute();
    await trx
      .insertInto('fallback_finished')
      .values({ campaign_id: campaign.id, ladder: ladder.text, finished_at: at })
      .onConflict((oc) => oc.column('campaign_id').doUpdateSet({ ladder: ladder.text, finished_at: at }))
      .execute();
    if (!(await anythingToDecide(trx, campaign, ladder.channels))) return true;
    await trx.deleteFrom('fallback_finished').where('campaign_id', '=', campaign.id).execute();
    return false;
  });
}

/**
 * Claims a record's step: inserts its row, keyed by record and channel. However many workers ask at
 * once, on SQLite or PostgreSQL, one insert wins; answers whether this one did.
 */
export async function claimStep(db: Database, row: StepRow): Promise<boolean> {
  const inserted = await db
    .insertInto('fallback_steps')
    .values(row)
    .onConflict((oc) => oc.columns(['record_kind', 'record_id', 'channel']).doNothing())
    .returning('record_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Claims left 'claimed' since before `before` (their worker died mid-step), oldest first. */
export function staleClaims(db: Database, before: string, limit: number): Promise<StepRow[]> {
  return db
    .selectFrom('fallback_steps')
    .selectAll()
    .where('outcome', '=', 'claimed')
    .where('claimed_at', '<', before)
    .orderBy('claimed_at')
    .orderBy('record_id')
    .limit(limit)
    .execute();
}

/** Takes over a stale claim: one worker's guarded update wins it. */
export async function reclaimStep(db: Database, stale: StepRow, now: string): Promise<boolean> {
  const result = await db
    .updateTable('fallback_steps')
    .set({ claimed_at: now })
    .where('record_kind', '=', stale.record_kind)
    .where('record_id', '=', stale.record_id)
    .where('channel', '=', stale.channel)
    .where('outcome', '=', 'claimed')
    .where('claimed_at', '=', stale.claimed_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives the claims back (the send could not start: tried again at the next turn). */
export async function releaseClaims(db: Database, keys: readonly StepKey[]): Promise<void> {
  for (const key of keys)
    await db
      .deleteFrom('fallback_steps')
      .where('record_kind', '=', key.record_kind)
      .where('record_id', '=', key.record_id)
      .where('channel', '=', key.channel)
      .where('outcome', '=', 'claimed')
      .execute();
}

/**
 * Keeps a step's decision: on its row, and in words in the trail of the delivery it concerns, as a
 * note (the delivery's own status, no move): what the evidence bundle reads.
 */
export async function decideStep(
  db: Database,
  key: StepKey,
  decision: {
    outcome: Exclude<StepRow['outcome'], 'claimed'>;
    words: string;
    at: string;
    delivery: { id: string; status: DeliveryStatus } | undefined;
  },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('fallback_steps')
      .set({
        outcome: decision.outcome,
        decision: decision.words,
        decided_at: decision.at,
        delivery_id: decision.delivery?.id ?? null,
      })
      .where('record_kind', '=', key.record_kind)
      .where('record_id', '=', key.record_id)
      .where('channel', '=', key.channel)
      .execute();
    if (decision.delivery)
      await trx
        .insertInto('delivery_events')
        .values({
          delivery_id: decision.delivery.id,
          status: decision.delivery.status,
          at: decision.at,
          detail: decision.words,
          recorded_at: nowIso(),
          refused: null,
        })
        .execute();
  });
}

/** The steps taken or decided for these records, in record and channel order. */
export async function stepsForRecords(
  db: Database,
  kind: RecordKind,
  recordIds: readonly string[],
): Promise<StepRow[]> {
  const rows: StepRow[] = [];
  for (let i = 0; i < recordIds.length; i += 500)
    rows.push(
      ...(await db
        .selectFrom('fallback_steps')
        .selectAll()
        .where('record_kind', '=', kind)
        .where('record_id', 'in', recordIds.slice(i, i + 500))
        .orderBy('record_id')
        .orderBy('channel')
        .execute()),
    );
  return rows;
}

/** The notice page events of these records that a condition reads (opened, acknowledged), oldest first. */
export async function pageReceipts(
  db: Database,
  kind: RecordKind,
  recordIds: readonly string[],
): Promise<{ record_id: string; event: string; at: string }[]> {
  if (recordIds.length === 0) return [];
  return db
    .selectFrom('notice_page_events')
    .select(['record_id', 'event', 'at'])
    .where('record_kind', '=', kind)
    .where('record_id', 'in', recordIds)
    .where('event', 'in', ['verified', 'acknowledged'])
    .orderBy('at')
    .orderBy('id')
    .execute();
}
