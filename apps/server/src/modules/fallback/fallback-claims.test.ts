import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { isPostgres, openDatabase, type Database } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { createTestDatabase } from '../../test/app.ts';
import { seedDelivery } from '../../test/deliveries.ts';
import { until } from '../../test/until.ts';
import { insertUser } from '../auth/auth.repository.ts';
import { ensureManualCampaign } from '../campaigns/campaigns.repository.ts';
import * as fallback from './fallback.repository.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
/** A second connection pool on the same database: another worker. */
let other: Database;

beforeEach(async () => {
  database = await createTestDatabase();
  other = (await openDatabase(database.config)).db;
});
afterEach(async () => {
  await other.destroy();
  await database.close();
});

const claim = (recordId: string, campaignId: string, at: string): fallback.StepRow => ({
  record_kind: 'notice',
  record_id: recordId,
  channel: 'sms',
  owner_id: 'owner',
  campaign_id: campaignId,
  step_after: 24,
  step_unless: 'delivered',
  outcome: 'claimed',
  decision: null,
  claimed_at: at,
  decided_at: null,
  delivery_id: null,
});

describe('a fallback step is claimed once per record, however many workers ask', () => {
  it('lets one of many claims at once win each (record, step), on two connections', async () => {
    const records = [newId(), newId(), newId()];
    const at = new Date().toISOString();
    const wins = await Promise.all(
      records.flatMap((id) =>
        [database.db, other, database.db, other].map((db) => fallback.claimStep(db, claim(id, 'c1', at))),
      ),
    );
    for (let i = 0; i < records.length; i++)
      expect(wins.slice(i * 4, i * 4 + 4).filter(Boolean)).toHaveLength(1);
    const rows = await fallback.stepsForRecords(database.db, 'notice', records);
    expect(rows).toHaveLength(3);
  });

  it('finds the records whose step is due and not claimed, and lets one worker take over a stale claim', async () => {
    const campaignId = newId();
    const [due, late, taken] = [newId(), newId(), newId()];
    const now = Date.now();
    for (const recordId of [due, taken])
      await seedDelivery(database.db, { owner_id: 'owner', record_id: recordId, campaign_id: campaignId });
    // 'late' was first sent after the cutoff: its step is not due yet.
    await seedDelivery(database.db, {
      owner_id: 'owner',
      record_id: late,
      campaign_id: campaignId,
      created_at: new Date(now + 2 * 3_600_000).toISOString(),
    });
    const cutoff = new Date(now + 60_000).toISOString();
    await fallback.claimStep(database.db, claim(taken, campaignId, new Date(now - 3_600_000).toISOString()));
    const found = await fallback.dueRecords(database.db, campaignId, 'notice', 'sms', cutoff, 10);
    expect(found.map((r) => r.record_id)).toEqual([due]);
    expect(
      await fallback.dueRecords(database.db, campaignId, 'notice', 'sms', new Date(0).toISOString(), 10),
    ).toEqual([]);
    const [stale] = await fallback.staleClaims(database.db, new Date(now - 60_000).toISOString(), 10);
    expect(stale?.record_id).toBe(taken);
    const retakes = await Promise.all([
      fallback.reclaimStep(database.db, stale!, new Date(now).toISOString()),
      fallback.reclaimStep(other, stale!, new Date(now + 1).toISOString()),
    ]);
    expect(retakes.filter(Boolean)).toHaveLength(1);
  });

  it('finds a campaign finished once every record sent has its steps decided, never while a delivery of it is being written', async () => {
    const now = new Date().toISOString();
    await insertUser(database.db, {
      id: 'owner',
      name: 'O',
      username: 'owner',
      password_hash: 'x',
      created_at: now,
    });
    const campaign = {
      id: await ensureManualCampaign(database.db, 'owner', 'notice', now),
      kind: 'notice' as const,
    };
    const ladder = { text: '{"channels":["sms"],"steps":[]}', channels: ['sms' as const] };
    const finished = async () =>
      (await database.db.selectFrom('fallback_finished').select('campaign_id').execute()).map(
        (r) => r.campaign_id,
      );
    // Nothing sent yet: nothing to decide.
    expect(await fallback.finishIfDecided(database.db, campaign, ladder, now)).toBe(true);
    expect(await finished()).toEqual([campaign.id]);
    // A first send in the campaign deletes the row: the record's ladder starts.
    const first = newId();
    await seedDelivery(database.db, { owner_id: 'owner', campaign_id: campaign.id, record_id: first });
    expect(await finished()).toEqual([]);
    expect(await fallback.finishIfDecided(database.db, campaign, ladder, now)).toBe(false);
    // Claimed is not decided; taken is.
    await fallback.claimStep(database.db, claim(first, campaign.id, now));
    expect(await fallback.finishIfDecided(database.db, campaign, ladder, now)).toBe(false);
    await database.db
      .updateTable('fallback_steps')
      .set({ outcome: 'taken' })
      .where('record_id', '=', first)
      .execute();
    expect(await fallback.finishIfDecided(database.db, campaign, ladder, now)).toBe(true);
    if (!isPostgres(database.db)) return; // SQLite: one writer at a time (and one process here).
    // A send on another connection, not yet committed when the task checks (on a campaign it had not
    // found finished yet): the check waits for it.
    await database.db.deleteFrom('fallback_finished').execute();
    let finishing: Promise<boolean> | undefined;
    await other.transaction().execute(async (trx) => {
      await seedDelivery(trx, { owner_id: 'owner', campaign_id: campaign.id, record_id: newId() });
      finishing = fallback.finishIfDecided(database.db, campaign, ladder, now);
      await until(
        'the check waits on the send',
        async () => {
          const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and datname = current_database()`.execute(database.db);
          return waiting.rows[0]!.n > 0 ? true : undefined;
        },
        30_000,
      );
    });
    expect(await finishing).toBe(false);
    expect(await finished()).toEqual([]);
  });
});
