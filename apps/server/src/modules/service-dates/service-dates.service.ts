import {
  statutoryBases,
  type CampaignLegalBasis,
  type LegalBasis,
  type LegalBasisSettings,
  type ServiceDates,
  type ServiceStatus,
} from '@notice-desk/contract/service-dates';
import type { legalBasisBody } from '@notice-desk/contract/service-dates';
import type { z } from 'zod';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { nowIso, startOfDayIn } from '../../lib/time.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import * as campaigns from '../campaigns/campaigns.repository.ts';
import * as repository from './service-dates.repository.ts';
import type { ServiceFilter } from './service-dates.repository.ts';
import { dayIn, serviceDates } from './service-dates.ts';

type LegalBasisInput = z.infer<typeof legalBasisBody>;

/** The settings service is read with (DEEMED_SERVICE_DAYS, POST_DEEMED_SERVICE_DAYS, TIME_ZONE). */
export interface ServiceOptions {
  deemedServiceDays: number;
  postDeemedServiceDays: number;
  timeZone: string;
}

/** The settings as they are unset: for services built without the config (tests). */
export const SERVICE_DEFAULTS: ServiceOptions = {
  deemedServiceDays: 30,
  postDeemedServiceDays: 30,
  timeZone: 'Asia/Kolkata',
};

/** How many days ahead 'respond_by_within_7_days' looks, today included as day 0. */
const SOON_DAYS = 7;

/**
 * The legal basis of notices (per record kind, and per campaign over it) and the dates that follow from
 * service: served on, by what, respond by (service-dates.ts holds the rule; docs/sending.md says it).
 */
export class ServiceDatesService {
  constructor(
    private readonly db: Database,
    private readonly options: ServiceOptions,
  ) {}

  async settings(): Promise<LegalBasisSettings> {
    const rows = await repository.kindLegalBases(this.db);
    const of = (kind: RecordKind) => {
      const row = rows.find((r) => r.scope_id === kind);
      return row ? toLegalBasis(row) : null;
    };
    return {
      kinds: { notice: of('notice'), 'credit-card': of('credit-card') },
      deemedServiceDays: this.options.deemedServiceDays,
    };
  }

  /** An ADMIN sets a record kind's default. */
  async setKind(actorId: string, kind: RecordKind, body: LegalBasisInput): Promise<LegalBasis> {
    return this.save(actorId, 'kind', kind, body, `Legal basis of ${kind} records`);
  }

  async clearKind(actorId: string, kind: RecordKind): Promise<LegalBasisSettings> {
    await this.clear(actorId, 'kind', kind, `Legal basis of ${kind} records`);
    return this.settings();
  }

  /** An ADMIN sets one of their campaigns' own basis, over its kind's default. */
  async setCampaign(actorId: string, campaignId: string, body: LegalBasisInput): Promise<CampaignLegalBasis> {
    const campaign = await campaigns.findCampaign(this.db, actorId, campaignId);
    if (!campaign) throw notFound('Campaign');
    await this.save(actorId, 'campaign', campaignId, body, `Legal basis of campaign ${campaign.name}`);
    return this.forCampaign(campaign.kind, campaignId);
  }

  async clearCampaign(actorId: string, campaignId: string): Promise<CampaignLegalBasis> {
    const campaign = await campaigns.findCampaign(this.db, actorId, campaignId);
    if (!campaign) throw notFound('Campaign');
    await this.clear(actorId, 'campaign', campaignId, `Legal basis of campaign ${campaign.name}`);
    return this.forCampaign(campaign.kind, campaignId);
  }

  /** The basis a campaign's records follow: its own, else its kind's, else none. */
  async forCampaign(kind: RecordKind, campaignId: string): Promise<CampaignLegalBasis> {
    const row = await repository.legalBasisFor(this.db, kind, campaignId);
    return { campaignId, basis: row ? toLegalBasis(row) : null };
  }

  private async save(
    actorId: string,
    scope: 'kind' | 'campaign',
    scopeId: string,
    body: LegalBasisInput,
    subject: string,
  ): Promise<LegalBasis> {
    const statutory = body.basis === 'other' ? undefined : statutoryBases[body.basis];
    const row: repository.LegalBasisRow = {
      scope,
      scope_id: scopeId,
      basis: body.basis,
      label: statutory?.label ?? body.label ?? '',
      period_days: statutory?.periodDays ?? body.periodDays ?? 0,
      served_when: body.servedWhen,
      updated_at: nowIso(),
      updated_by: actorId,
    };
    await this.db.transaction().execute(async (trx) => {
      const before = await repository.findLegalBasis(trx, scope, scopeId);
      await repository.saveLegalBasis(trx, row);
      await appendAudit(trx, {
        actorId,
        action: 'legal-basis.set',
        subjectType: scope === 'kind' ? 'record-kind' : 'campaign',
        subjectId: scopeId,
        summary: `${subject}: ${row.label}, ${row.period_days} days from service`,
        before: before ? auditView(before) : null,
        after: auditView(row),
      });
    });
    return toLegalBasis(row);
  }

  private async clear(actorId: string, scope: 'kind' | 'campaign', scopeId: string, subject: string) {
    await this.db.transaction().execute(async (trx) => {
      const before = await repository.findLegalBasis(trx, scope, scopeId);
      if (!before) return;
      await repository.deleteLegalBasis(trx, scope, scopeId);
      await appendAudit(trx, {
        actorId,
        action: 'legal-basis.clear',
        subjectType: scope === 'kind' ? 'record-kind' : 'campaign',
        subjectId: scopeId,
        summary: `${subject}: cleared`,
        before: auditView(before),
        after: null,
      });
    });
  }

  /**
   * Each record's service dates, its campaign's basis giving the period. `records` may span campaigns
   * (a list page); one basis is read per campaign.
   */
  async datesFor(
    kind: RecordKind,
    records: readonly { id: string; campaign_id: string }[],
  ): Promise<Map<string, ServiceDates>> {
    const ids = records.map((r) => r.id);
    const [facts, pageEvents, periods] = await Promise.all([
      repository.deliveryFactsForRecords(this.db, ids),
      repository.pageEventsForRecords(this.db, ids),
      this.periodsOf(
        kind,
        records.map((r) => r.campaign_id),
      ),
    ]);
    const now = nowIso();
    // Grouped once: a campaign page holds up to 10,000 records.
    const factsOf = groupBy(facts);
    const pageOf = groupBy(pageEvents);
    const dates = new Map<string, ServiceDates>();
    for (const record of records)
      dates.set(
        record.id,
        serviceDates(
          { deliveries: factsOf.get(record.id) ?? [], page: pageOf.get(record.id) ?? [] },
          { ...this.options, periodDays: periods.get(record.campaign_id) ?? null, now },
        ),
      );
    return dates;
  }

  private async periodsOf(
    kind: RecordKind,
    campaignIds: readonly string[],
  ): Promise<Map<string, number | null>> {
    const periods = new Map<string, number | null>();
    for (const id of new Set(campaignIds))
      periods.set(id, (await repository.legalBasisFor(this.db, kind, id))?.period_days ?? null);
    return periods;
  }

  /**
   * What the service statuses of a campaign filter keep, as the SQL takes it: respond-by windows turned
   * into served-on windows (respondBy = served day + period, so respondBy < today is served before the
   * start of today − period in TIME_ZONE). Without a basis no record has a respond-by date.
   */
  async filterFor(
    kind: RecordKind,
    campaignId: string,
    statuses: readonly ServiceStatus[],
  ): Promise<ServiceFilter> {
    const now = nowIso();
    const filter: ServiceFilter = {
      pageEvents: [],
      servedWithin: [],
      asked: statuses.length > 0,
      deemedServiceDays: this.options.deemedServiceDays,
      postDeemedServiceDays: this.options.postDeemedServiceDays,
      now,
    };
    if (statuses.includes('opened')) filter.pageEvents.push('link_opened');
    if (statuses.includes('acknowledged')) filter.pageEvents.push('acknowledged');
    if (statuses.includes('disputed')) filter.pageEvents.push('disputed');
    const wantsRespondBy = statuses.some((s) => s.startsWith('respond_by_'));
    const period = wantsRespondBy
      ? (await repository.legalBasisFor(this.db, kind, campaignId))?.period_days
      : undefined;
    if (period !== undefined) {
      const today = dayIn(now, this.options.timeZone);
      const startOf = (days: number) => startOfDayIn(today, this.options.timeZone, days);
      const passedBefore = startOf(-period);
      const soonBefore = startOf(SOON_DAYS + 1 - period);
      if (statuses.includes('respond_by_passed') && passedBefore)
        filter.servedWithin.push({ before: passedBefore });
      if (statuses.includes('respond_by_within_7_days') && passedBefore && soonBefore)
        filter.servedWithin.push({ from: passedBefore, before: soonBefore });
    }
    return filter;
  }
}

/** Rows by their record id. */
function groupBy<T extends { record_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const byRecord = new Map<string, T[]>();
  for (const row of rows) {
    const list = byRecord.get(row.record_id);
    if (list) list.push(row);
    else byRecord.set(row.record_id, [row]);
  }
  return byRecord;
}

function toLegalBasis(row: repository.LegalBasisRow): LegalBasis {
  return {
    basis: row.basis,
    label: row.label,
    periodDays: Number(row.period_days),
    servedWhen: row.served_when,
    source: row.scope,
    updatedAt: row.updated_at,
  };
}

const auditView = (row: repository.LegalBasisRow) => ({
  basis: row.basis,
  label: row.label,
  periodDays: Number(row.period_days),
  servedWhen: row.served_when,
});
