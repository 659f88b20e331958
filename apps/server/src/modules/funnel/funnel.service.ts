import { messageChannels, type MessageChannel } from '@notice-desk/contract/sending';
import type { Funnel, FunnelRow } from '@notice-desk/contract/funnel';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../lib/errors.ts';
import { findCampaign } from '../campaigns/campaigns.repository.ts';
import { recordKinds } from '../records/record-kinds.ts';
import {
  countDeliverySteps,
  countPageSteps,
  type FunnelScope,
  type StepCounts,
} from './funnel.repository.ts';

/** The signed-in caller, as the funnel needs them. */
export interface FunnelCaller {
  _id: string;
  role: 'ADMIN' | 'USER';
}

/** Sent → delivered → read → opened → verified → acknowledged / disputed / settle asked, per channel. */
export class FunnelService {
  constructor(private readonly db: Database) {}

  /** One of the caller's live campaigns (another's answers 404, an ADMIN's call too). */
  async campaign(ownerId: string, campaignId: string): Promise<Funnel> {
    const campaign = await findCampaign(this.db, ownerId, campaignId);
    if (!campaign) throw notFound('Campaign');
    return this.count({ campaignId, recordTable: recordKinds[campaign.kind].table });
  }

  /** The caller's live campaigns; an ADMIN's dashboard counts everyone's. */
  dashboard(caller: FunnelCaller): Promise<Funnel> {
    return this.count(caller.role === 'ADMIN' ? { everyone: true } : { ownerId: caller._id });
  }

  private async count(scope: FunnelScope): Promise<Funnel> {
    const [sent, page] = await Promise.all([
      countDeliverySteps(this.db, scope),
      countPageSteps(this.db, scope),
    ]);
    const rowOf = (channel: MessageChannel | 'any'): FunnelRow => {
      const count = (counts: StepCounts, step: string) => Number(counts[`${channel}_${step}`] ?? 0);
      return {
        channel,
        sent: count(sent, 'sent'),
        delivered: count(sent, 'delivered'),
        read: count(sent, 'read'),
        opened: count(page, 'opened'),
        verified: count(page, 'verified'),
        acknowledged: count(page, 'acknowledged'),
        disputed: count(page, 'disputed'),
        settleRequested: count(page, 'settle_requested'),
      };
    };
    return { rows: [...messageChannels.map(rowOf), rowOf('any')] };
  }
}
