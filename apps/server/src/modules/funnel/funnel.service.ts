import { deliveryChannels } from '@notice-desk/contract/sending';
import type { Funnel, FunnelRow } from '@notice-desk/contract/funnel';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../lib/errors.ts';
import { findCampaign } from '../campaigns/campaigns.repository.ts';
import { countDeliverySteps, countPageSteps, type FunnelScope } from './funnel.repository.ts';

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
    if (!(await findCampaign(this.db, ownerId, campaignId))) throw notFound('Campaign');
    return this.count({ campaignId });
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
    const rowOf = (channel: FunnelRow['channel']): FunnelRow => {
      const d = sent.find((r) => r.channel === channel);
      const e = page.find((r) => r.channel === channel);
      return {
        channel,
        sent: Number(d?.sent ?? 0),
        delivered: Number(d?.delivered ?? 0),
        read: Number(d?.read ?? 0),
        opened: Number(e?.opened ?? 0),
        verified: Number(e?.verified ?? 0),
        acknowledged: Number(e?.acknowledged ?? 0),
        disputed: Number(e?.disputed ?? 0),
        settleRequested: Number(e?.settle_requested ?? 0),
      };
    };
    return { rows: [...deliveryChannels.map(rowOf), rowOf('any')] };
  }
}
