import type { DeliveriesTable, FallbackStepsTable } from '../src/db/schema.ts';
import { newId } from '../src/lib/ids.ts';
import { ensureManualCampaign } from '../src/modules/campaigns/campaigns.repository.ts';
import * as fallback from '../src/modules/fallback/fallback.repository.ts';
import { benchTarget, migratedWithOwner, type BenchTarget } from './support.ts';

export const FALLBACK_RECORDS = 20_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const CHANNELS = ['whatsapp', 'sms', 'post'] as const;

export interface FallbackFigures {
  database: BenchTarget['label'];
  'finding it finished once ms': number;
  'a turn reading it ms (anchor: before)': number;
  'a turn once finished ms': number;
}

const median = (values: number[]) => Number(values.sort((a, b) => a - b)[values.length >> 1]!.toFixed(1));

/**
 * A campaign of 20,000 notices whose 3 ladder steps are all decided: what a turn of the fallback task
 * spends on it while it is read (the campaign listed, then each step asked for its due records, as
 * every turn did before fallback_finished) and once it is kept finished (the list leaves it out).
 */
export async function benchFallbackFinished(label: BenchTarget['label']): Promise<FallbackFigures> {
  const target = await benchTarget(label, 'fallback');
  const { db, ownerId } = await migratedWithOwner(target);
  try {
    const now = new Date().toISOString();
    const campaign = { id: await ensureManualCampaign(db, ownerId, 'notice', now), kind: 'notice' as const };
    const ladder = JSON.stringify({
      channels: CHANNELS,
      steps: [
        { channel: 'whatsapp', after: 0, unless: null },
        { channel: 'sms', after: 24, unless: 'delivered' },
        { channel: 'post', after: 168, unless: 'opened' },
      ],
    });
    await fallback.saveLadder(db, {
      scope: 'campaign',
      scope_id: campaign.id,
      ladder,
      updated_at: now,
      updated_by: ownerId,
    });
    for (let from = 0; from < FALLBACK_RECORDS; from += 500) {
      const sent: DeliveriesTable[] = [];
      const decided: FallbackStepsTable[] = [];
      for (let i = from; i < Math.min(FALLBACK_RECORDS, from + 500); i++) {
        const recordId = newId();
        sent.push({
          id: newId(),
          record_kind: 'notice',
          record_id: recordId,
          campaign_id: campaign.id,
          owner_id: ownerId,
          channel: 'whatsapp',
          active_key: null,
          recipient: '919876500001',
          recipient_name: 'Customer',
          status: 'delivered',
          status_at: now,
          provider_message_id: null,
          error: null,
          pdf_sha256: null,
          pdf_key: null,
          created_at: now,
          attempted_at: null,
          record_address_at_send: null,
          media_id: null,
        });
        for (const channel of CHANNELS)
          decided.push({
            record_kind: 'notice',
            record_id: recordId,
            channel,
            owner_id: ownerId,
            campaign_id: campaign.id,
            step_after: 0,
            step_unless: null,
            outcome: 'skipped',
            decision: 'skipped',
            claimed_at: now,
            decided_at: now,
            delivery_id: null,
          });
      }
      await db.insertInto('deliveries').values(sent).execute();
      await db.insertInto('fallback_steps').values(decided).execute();
    }
    const finish = () =>
      fallback.finishIfDecided(db, campaign, { text: ladder, channels: [...CHANNELS] }, now);
    const timed = async (read: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const start = performance.now();
        await read();
        times.push(performance.now() - start);
      }
      return median(times);
    };
    const far = new Date(Date.now() + 400 * 86_400_000).toISOString();
    const before = await timed(async () => {
      if ((await fallback.campaignsWithLadders(db)).length !== 1)
        throw new Error('the campaign is not listed');
      for (const channel of CHANNELS) await fallback.dueRecords(db, campaign.id, 'notice', channel, far, 200);
    });
    const start = performance.now();
    if (!(await finish())) throw new Error('the campaign is not finished');
    const once = Number((performance.now() - start).toFixed(1));
    const after = await timed(async () => {
      if ((await fallback.campaignsWithLadders(db)).length !== 0) throw new Error('the campaign is listed');
    });
    return {
      database: label,
      'finding it finished once ms': once,
      'a turn reading it ms (anchor: before)': before,
      'a turn once finished ms': after,
    };
  } finally {
    await db.destroy();
    await target.cleanup();
  }
}
