import type { DashboardInfo, MailDetails, MailDetailsQuery, MailInfo } from '@notice-desk/contract/dashboard';
import type { Database } from '../../db/database.ts';
import { getRecordCount } from '../records/records.repository.ts';
import type { DeliveriesTable } from '../../db/schema.ts';
import { DeepPages, PAGE_STRIDE } from '../../lib/deep-pages.ts';
import {
  countCampaignsByKind,
  liveDeliveriesState,
  liveDeliveryBoundaries,
  recentLiveDeliveries,
} from './dashboard.repository.ts';

const MAIL_DETAILS = 100;

/** The caller's totals and latest deliveries; records and campaigns a delete archived count in none. */
export class DashboardService {
  /** Mails Details' deep pages, per owner and status filter. */
  private readonly deepPages: DeepPages<string>;

  constructor(
    private readonly db: Database,
    pageStride = PAGE_STRIDE,
  ) {
    this.deepPages = new DeepPages(pageStride);
  }

  async info(ownerId: string): Promise<DashboardInfo> {
    const [cards, notices, campaigns, recent] = await Promise.all([
      getRecordCount(this.db, ownerId, 'credit-card'),
      getRecordCount(this.db, ownerId, 'notice'),
      countCampaignsByKind(this.db, ownerId),
      recentLiveDeliveries(this.db, ownerId, MAIL_DETAILS),
    ]);
    const campaignsOf = (kind: string) => Number(campaigns.find((c) => c.kind === kind)?.n ?? 0);
    return {
      totalCreditCards: cards.total,
      totalNotices: notices.total,
      totalCreditCardCampaigns: campaignsOf('credit-card'),
      totalNoticeCampaigns: campaignsOf('notice'),
      mailInfo: recent.map(mailInfoOf),
    };
  }

  /** Mails Details a page at a time, newest first, of one status or all. */
  async mails(ownerId: string, { page, limit, status }: MailDetailsQuery): Promise<MailDetails> {
    const { total, version } = await liveDeliveriesState(this.db, ownerId, status);
    const offset = (page - 1) * limit;
    if (offset >= total) return { items: [], total };
    const rows = await this.deepPages.page(`${ownerId}:${status ?? ''}`, version, offset, limit, {
      fromTop: (skip, size) => recentLiveDeliveries(this.db, ownerId, size, { offset: skip, status }),
      boundaries: (stride) => liveDeliveryBoundaries(this.db, ownerId, stride, status),
      fromKey: (fromId, skip, size) =>
        recentLiveDeliveries(this.db, ownerId, size, { offset: skip, status, fromId }),
    });
    return { items: rows.map(mailInfoOf), total };
  }
}

const mailInfoOf = (d: DeliveriesTable): MailInfo => ({
  _id: d.id,
  name: d.recipient_name,
  date: d.status_at,
  status: d.status,
  channel: d.channel,
  error: d.error,
});
