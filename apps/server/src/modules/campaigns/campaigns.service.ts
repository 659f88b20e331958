import type { DeleteAnswer, DeletePreview } from '@notice-desk/contract/archive';
import type { CampaignList, CampaignRow, SingleCampaign } from '@notice-desk/contract/campaigns';
import type { SearchablePageQuery } from '@notice-desk/contract/paging';
import {
  deliveryStatuses,
  type CampaignFilterStatus,
  type CampaignRecordIds,
  type DeliveryFilterQuery,
  type DeliveryStatus,
} from '@notice-desk/contract/sending';
import { serviceStatuses, type ServiceCounts, type ServiceStatus } from '@notice-desk/contract/service-dates';
import { recordAddress, recordChannels, unserviceableReason } from '@notice-desk/contract/serviceable';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { DeepPages, PAGE_STRIDE } from '../../lib/deep-pages.ts';
import { notFound } from '../../lib/errors.ts';
import { nowIso } from '../../lib/time.ts';
import { deleteRecords, describeCounts, previewDelete } from '../archive/delete-records.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import { recordKinds, type RecordKindInfo } from '../records/record-kinds.ts';
import * as records from '../records/records.repository.ts';
import { queryLookups } from '../search/search-terms.ts';
import * as deliveries from '../sending/deliveries.repository.ts';
import type { ServiceFilter } from '../service-dates/service-dates.repository.ts';
import { SERVICE_DEFAULTS, ServiceDatesService } from '../service-dates/service-dates.service.ts';
import * as campaigns from './campaigns.repository.ts';
import { KeptCounts, type CampaignTotals, type CountedAt } from './kept-counts.ts';

/** The respond-by statuses' filters, as ServiceDatesService.filterFor makes them at the time of asking. */
interface RespondByFilters {
  passed: ServiceFilter;
  soon: ServiceFilter;
}

/** Campaign history: imports and 'Manual entries', each with its records. Scoped to the owner. */
export class CampaignsService {
  /** A campaign's records' deep pages, valid while the owner's write version is unchanged. */
  private readonly deepPages: DeepPages<string>;
  /** The campaign page's whole-campaign counts, valid while the campaign's count version is unchanged. */
  private readonly keptCounts = new KeptCounts();

  constructor(
    private readonly db: Database,
    pageStride = PAGE_STRIDE,
    /** DEFAULT_COUNTRY_CODE: the mobile rule of the not-serviceable counts. */
    private readonly countryCode = '91',
    private readonly serviceDates = new ServiceDatesService(db, SERVICE_DEFAULTS),
  ) {
    this.deepPages = new DeepPages(pageStride);
  }

  /** The status filter in the repository's terms: delivery statuses, and the service statuses resolved. */
  private async statusFilter(
    kind: RecordKind,
    campaignId: string,
    statuses: readonly CampaignFilterStatus[],
    channel: DeliveryFilterQuery['channel'],
  ): Promise<campaigns.StatusFilter> {
    const delivery = statuses.filter((s): s is DeliveryStatus =>
      (deliveryStatuses as readonly string[]).includes(s),
    );
    const service = statuses.filter((s): s is ServiceStatus =>
      (serviceStatuses as readonly string[]).includes(s),
    );
    return {
      statuses: delivery,
      channel,
      ...(service.length > 0
        ? { service: await this.serviceDates.filterFor(kind, campaignId, service) }
        : {}),
    };
  }

  /**
   * How many of the campaign's records are in each service status (the campaign page's counts): the
   * notice page's from its events, both respond-by counts from one pass over the service facts; and
   * until when they hold with no write (a deemed date still to come that would enter a window).
   */
  private async serviceCounts(
    info: RecordKindInfo,
    ownerId: string,
    campaignId: string,
    { passed, soon }: RespondByFilters,
  ): Promise<{ counts: ServiceCounts; until: number }> {
    const count = async (status: ServiceStatus) =>
      campaigns.countFilteredRecords(
        this.db,
        info,
        ownerId,
        campaignId,
        await this.statusFilter(info.kind, campaignId, [status], undefined),
      );
    const windows = [...passed.servedWithin, ...soon.servedWithin];
    const [opened, acknowledged, disputed, served] = await Promise.all([
      count('opened'),
      count('acknowledged'),
      count('disputed'),
      campaigns.countServedWithin(this.db, { info, ownerId, campaignId }, passed, windows),
    ]);
    const lastBefore = windows.reduce((last, window) => (window.before > last ? window.before : last), '');
    return {
      // No legal basis: no windows, and no record has a respond-by date.
      counts: {
        opened,
        acknowledged,
        disputed,
        respond_by_passed: passed.servedWithin.length > 0 ? served.counts[0]! : 0,
        respond_by_within_7_days:
          soon.servedWithin.length > 0 ? served.counts[passed.servedWithin.length]! : 0,
      },
      until:
        served.nextDeemed !== null && Date.parse(served.nextDeemed) < Date.parse(lastBefore)
          ? Date.parse(served.nextDeemed)
          : Infinity,
    };
  }

  /**
   * The campaign page's counts over the whole campaign, kept while nothing they read has changed: the
   * count version is read first, so counts computed after it are never older than it.
   */
  private async campaignCounts(
    info: RecordKindInfo,
    ownerId: string,
    campaignId: string,
  ): Promise<CampaignTotals> {
    const [version, passed, soon] = await Promise.all([
      campaigns.countsVersion(this.db, campaignId),
      this.serviceDates.filterFor(info.kind, campaignId, ['respond_by_passed']),
      this.serviceDates.filterFor(info.kind, campaignId, ['respond_by_within_7_days']),
    ]);
    const key = {
      campaign: `${ownerId}:${campaignId}`,
      version,
      windows: JSON.stringify([passed.servedWithin, soon.servedWithin]),
    };
    return this.keptCounts.get(key, () => this.countCampaign(info, ownerId, campaignId, { passed, soon }));
  }

  /** Every count of the campaign page, from the database. */
  private async countCampaign(
    info: RecordKindInfo,
    ownerId: string,
    campaignId: string,
    respondBy: RespondByFilters,
  ): Promise<CountedAt> {
    const campaign = { info, ownerId, campaignId };
    const [total, completedCounts, statusCounts, addresses, service] = await Promise.all([
      records.countCampaignRecords(this.db, info, ownerId, campaignId),
      campaigns.countSentLiveRecords(this.db, info.table, campaignId),
      campaigns.countLatestStatuses(this.db, campaignId),
      campaigns.listCampaignAddresses(this.db, campaign),
      this.serviceCounts(info, ownerId, campaignId, respondBy),
    ]);
    const notServiceable = { email: 0, whatsapp: 0 };
    for (const record of addresses) {
      if (this.unservable(info.kind, record, 'email') !== null) notServiceable.email += 1;
      if (this.unservable(info.kind, record, 'whatsapp') !== null) notServiceable.whatsapp += 1;
    }
    return {
      counts: {
        completedCounts,
        notServiceable,
        statusCounts: statusCounts.map((row) => ({
          channel: row.channel,
          status: row.status,
          count: Number(row.n),
        })),
        serviceCounts: service.counts,
      },
      records: total,
      until: service.until,
    };
  }

  /** Why a record's address on a channel it goes on cannot be served (lib/serviceable.ts), or null. */
  private unservable(
    kind: RecordKind,
    record: Record<string, string | undefined>,
    channel: 'email' | 'whatsapp',
  ): string | null {
    return recordChannels(kind, record).includes(channel)
      ? unserviceableReason(channel, recordAddress(record, channel), this.countryCode)
      : null;
  }

  async list(
    ownerId: string,
    kind: RecordKind,
    { page, limit, search }: SearchablePageQuery,
  ): Promise<CampaignList> {
    const { rows, total } = await campaigns.listCampaigns(
      this.db,
      ownerId,
      kind,
      (page - 1) * limit,
      limit,
      search,
    );
    return {
      items: rows.map((row) => ({
        _id: row.id,
        name: row.name,
        date: row.created_at,
        imported: row.imported_count,
        skipped: row.skipped_count,
      })),
      total,
    };
  }

  /** A page of the campaign's records, deep ones from the nearest boundary. */
  private async campaignPage(
    info: RecordKindInfo,
    ownerId: string,
    campaignId: string,
    offset: number,
    limit: number,
  ): Promise<records.RecordRow[]> {
    // Any write to the owner's records of the kind moves the version: a record joining or leaving.
    const { version } = await records.getRecordCount(this.db, ownerId, info.kind);
    return this.deepPages.page(`${campaignId}:${ownerId}`, String(version), offset, limit, {
      fromTop: (skip, size) => records.listCampaignRecords(this.db, info, ownerId, campaignId, skip, size),
      boundaries: (stride) =>
        campaigns.campaignRecordBoundaries(this.db, { info, ownerId, campaignId }, stride),
      fromKey: (fromId, skip, size) =>
        campaigns.listCampaignRecordsFrom(this.db, { info, ownerId, campaignId }, fromId, skip, size),
    });
  }

  async single(
    ownerId: string,
    id: string,
    { page, limit, search, status, channel }: SearchablePageQuery & DeliveryFilterQuery,
  ): Promise<SingleCampaign> {
    const campaign = await campaigns.findCampaign(this.db, ownerId, id);
    if (!campaign) throw notFound('Campaign');
    const info = recordKinds[campaign.kind];
    const offset = (page - 1) * limit;
    // The Search... box finds records through the search index; text with no letter or digit finds none.
    const lookups = search ? queryLookups(search) : undefined;
    const filter = status ? await this.statusFilter(campaign.kind, id, status, channel) : undefined;
    const totals = this.campaignCounts(info, ownerId, id);
    const found = filter
      ? campaigns.listFilteredRecords(
          this.db,
          { info, ownerId, campaignId: id },
          filter,
          lookups,
          offset,
          limit,
        )
      : Promise.all([
          lookups
            ? records.listFoundRecords(this.db, info, ownerId, lookups, offset, limit, id)
            : this.campaignPage(info, ownerId, id, offset, limit),
          lookups
            ? records.countFoundRecords(this.db, info, ownerId, lookups, id)
            : totals.then((kept) => kept.records),
        ]).then(([rows, total]) => ({ rows, total }));
    const [{ rows, total }, { counts }, legalBasis] = await Promise.all([
      found,
      totals,
      this.serviceDates.forCampaign(campaign.kind, id),
    ]);
    const dates = await this.serviceDates.datesFor(campaign.kind, rows);
    // The latest attempt per record and channel is what the table shows.
    const latest = new Map<string, deliveries.DeliveryRow>();
    for (const delivery of await deliveries.deliveriesForRecords(
      this.db,
      rows.map((row) => row.id),
    )) {
      latest.set(`${delivery.record_id}:${delivery.channel}`, delivery);
    }
    const referenceKey = campaign.kind === 'notice' ? 'loanNo' : 'maskNo';
    const items: CampaignRow[] = rows.map((row) => {
      const email = latest.get(`${row.id}:email`);
      const whatsapp = latest.get(`${row.id}:whatsapp`);
      const sms = latest.get(`${row.id}:sms`);
      const bySms = sms !== undefined || recordChannels(campaign.kind, row).includes('sms');
      return {
        _id: row.id,
        custName: row.custName ?? '',
        reference: row[referenceKey] ?? '',
        date: row.created_at,
        emailResponse: email?.status ?? '-',
        whatsappResponse: whatsapp?.status ?? '-',
        emailError: email && failedOrBounced(email.status) ? email.error : null,
        whatsappError: whatsapp && failedOrBounced(whatsapp.status) ? whatsapp.error : null,
        emailNotServiceable: this.unservable(campaign.kind, row, 'email'),
        whatsappNotServiceable: this.unservable(campaign.kind, row, 'whatsapp'),
        ...(bySms && {
          smsResponse: sms?.status ?? '-',
          smsError: sms && failedOrBounced(sms.status) ? sms.error : null,
        }),
        service: dates.get(row.id) ?? null,
      };
    });
    return {
      _id: campaign.id,
      name: campaign.name,
      type: campaign.kind,
      date: campaign.created_at,
      total,
      imported: campaign.imported_count,
      skipped: campaign.skipped_count,
      duplicates: campaign.duplicate_choice
        ? { choice: campaign.duplicate_choice, rows: Number(campaign.duplicate_rows ?? 0) }
        : null,
      ...counts,
      legalBasis: legalBasis.basis,
      ...(campaign.kind === 'notice' ? { notices: items } : { creditCards: items }),
    };
  }

  /**
   * Every id of the campaign's records the filter keeps (all of them without a status), in campaign
   * order: what 'Resend failed' confirms with and sends, over the whole campaign, not one page.
   */
  async recordIds(
    ownerId: string,
    id: string,
    { status, channel, search }: DeliveryFilterQuery & { search?: string | undefined },
  ): Promise<CampaignRecordIds> {
    const campaign = await campaigns.findCampaign(this.db, ownerId, id);
    if (!campaign) throw notFound('Campaign');
    const lookups = search ? queryLookups(search) : undefined;
    const ids = await campaigns.filteredRecordIds(
      this.db,
      { info: recordKinds[campaign.kind], ownerId, campaignId: id },
      await this.statusFilter(campaign.kind, id, status ?? [], channel),
      lookups,
    );
    return { ids, total: ids.length };
  }

  /** What deleting the campaign would do: how many of its records it would archive (served) and erase. */
  async previewRemove(ownerId: string, id: string): Promise<DeletePreview> {
    const campaign = await campaigns.findCampaign(this.db, ownerId, id);
    if (!campaign) throw notFound('Campaign');
    return previewDelete(this.db, recordKinds[campaign.kind], ownerId, { campaignId: id });
  }

  /**
   * Deletes a campaign with every record in it: served records are archived, and the campaign with
   * them (kept, out of the lists); records never sent are erased, and a campaign left empty with them.
   */
  async remove(ownerId: string, id: string): Promise<DeleteAnswer> {
    const counts = await this.db.transaction().execute(async (trx) => {
      const campaign = await campaigns.findCampaign(trx, ownerId, id);
      if (!campaign) throw notFound('Campaign');
      const info = recordKinds[campaign.kind];
      const { archived, erased, campaignsArchived } = await deleteRecords(
        trx,
        info,
        ownerId,
        { campaignId: id },
        nowIso(),
      );
      const counts = { archived, erased };
      await appendAudit(trx, {
        actorId: ownerId,
        action: 'campaign.delete',
        subjectType: 'campaign',
        subjectId: id,
        summary: `${campaign.name}: ${counts.archived + counts.erased} ${info.label.toLowerCase()} record(s), ${describeCounts(counts)}`,
        before: { name: campaign.name, kind: campaign.kind, records: counts.archived + counts.erased },
        after: { ...counts, campaign: campaignsArchived > 0 ? 'archived' : 'deleted' },
      });
      return counts;
    });
    return { message: 'Campaign deleted successfully.', ...counts };
  }
}

/** A failed or bounced attempt carries the reason the badge shows. */
const failedOrBounced = (status: string) =>
  status === 'failed' || status === 'bounced' || status === 'not_serviceable';
