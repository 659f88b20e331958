import type { DeleteAllAnswer, DeleteAnswer, DeletePreview } from '@notice-desk/contract/archive';
import type { PageQuery, SearchablePageQuery } from '@notice-desk/contract/paging';
import { messages } from '@notice-desk/contract/messages';
import { noticePagePath, type RecordNoticeLink } from '@notice-desk/contract/notice-page';
import type { ServiceDates } from '@notice-desk/contract/service-dates';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { PDF_URL, type PdfLinks } from '../../lib/pdf/links.ts';
import { DeepPages, PAGE_STRIDE } from '../../lib/deep-pages.ts';
import { nowIso } from '../../lib/time.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import { changedFields } from '../audit/audit.service.ts';
import { deleteRecords, describeCounts, previewDelete } from '../archive/delete-records.ts';
import { campaignNamesOf, ensureManualCampaign } from '../campaigns/campaigns.repository.ts';
import { findLinkOfRecord } from '../notice-pages/notice-pages.repository.ts';
import { indexRecords, reindexRecord } from '../search/search-index.ts';
import { queryLookups } from '../search/search-terms.ts';
import type { RecordKindInfo } from './record-kinds.ts';
import * as records from './records.repository.ts';
import { SERVICE_DEFAULTS, ServiceDatesService } from '../service-dates/service-dates.service.ts';

/** A record as the API answers it: `_id`, its campaign, times, every field, and its PDF link. */
export type RecordResponse = Record<string, string>;
/** A record as its view shows it: its fields (and _id, pdf link…), its service dates and its notice page. */
export type RecordView = {
  [field: string]: string | ServiceDates | RecordNoticeLink | null;
  service: ServiceDates | null;
  noticeLink: RecordNoticeLink | null;
};

export interface RecordPage {
  items: RecordResponse[];
  total: number;
  pdfUrl: string;
}

export function toRecordResponse(
  info: RecordKindInfo,
  row: records.RecordRow,
  links: PdfLinks,
): RecordResponse {
  const out: RecordResponse = {
    _id: row.id,
    campaignId: row.campaign_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    pdfLink: links.linkFor(info.kind, row.id),
  };
  for (const field of info.fields) out[field.key] = row[field.key] ?? '';
  return out;
}

/** Credit cards and notices: every read and write is scoped to the signed-in owner. */
export class RecordsService {
  /** Per owner and kind, valid while the owner's write version is unchanged (any process may write). */
  private readonly deepPages: DeepPages<string>;

  constructor(
    private readonly db: Database,
    private readonly links: PdfLinks,
    pageStride = PAGE_STRIDE,
    private readonly serviceDates = new ServiceDatesService(db, SERVICE_DEFAULTS),
  ) {
    this.deepPages = new DeepPages(pageStride);
  }

  async list(
    info: RecordKindInfo,
    ownerId: string,
    { page, limit, search }: SearchablePageQuery,
  ): Promise<RecordPage> {
    if (search) return this.listFound(info, ownerId, search, { page, limit });
    const { total, version } = await records.getRecordCount(this.db, ownerId, info.kind);
    const offset = (page - 1) * limit;
    const rows = offset < total ? await this.page(info, ownerId, version, offset, limit) : [];
    return { items: await this.listed(info, ownerId, rows), total, pdfUrl: PDF_URL };
  }

  /** The list's Search... box: the records the search index finds by name or identifier, paged and counted. */
  private async listFound(
    info: RecordKindInfo,
    ownerId: string,
    search: string,
    { page, limit }: PageQuery,
  ): Promise<RecordPage> {
    const lookups = queryLookups(search);
    // Text without a letter or digit ('%%', '!!') is in no term, so it finds nothing.
    if (lookups.length === 0) return { items: [], total: 0, pdfUrl: PDF_URL };
    const offset = (page - 1) * limit;
    const [rows, total] = await Promise.all([
      records.listFoundRecords(this.db, info, ownerId, lookups, offset, limit),
      records.countFoundRecords(this.db, info, ownerId, lookups),
    ]);
    return { items: await this.listed(info, ownerId, rows), total, pdfUrl: PDF_URL };
  }

  /** A list page's records as the API answers them, each with its campaign's name (campaignName). */
  private async listed(
    info: RecordKindInfo,
    ownerId: string,
    rows: records.RecordRow[],
  ): Promise<RecordResponse[]> {
    const names = await campaignNamesOf(
      this.db,
      ownerId,
      rows.map((row) => row.campaign_id),
    );
    return rows.map((row) => ({
      ...toRecordResponse(info, row, this.links),
      campaignName: names.get(row.campaign_id) ?? '',
    }));
  }

  private async page(
    info: RecordKindInfo,
    ownerId: string,
    version: number,
    offset: number,
    limit: number,
  ): Promise<records.RecordRow[]> {
    return this.deepPages.page(`${info.kind}:${ownerId}`, String(version), offset, limit, {
      fromTop: (skip, size) => records.listRecords(this.db, info, ownerId, skip, size),
      boundaries: (stride) => records.listBoundaries(this.db, info, ownerId, stride),
      fromKey: (fromId, skip, size) => records.listRecordsFrom(this.db, info, ownerId, fromId, skip, size),
    });
  }

  /** One record as its view shows it: its fields, and when it was served and is to be answered by. */
  async get(info: RecordKindInfo, ownerId: string, id: string): Promise<RecordView> {
    const row = await records.findRecord(this.db, info, ownerId, id);
    if (!row) throw notFound(info.label);
    const [dates, link] = await Promise.all([
      this.serviceDates.datesFor(info.kind, [row]),
      findLinkOfRecord(this.db, info.kind, row.id),
    ]);
    return {
      ...toRecordResponse(info, row, this.links),
      service: dates.get(row.id) ?? null,
      noticeLink: link
        ? { code: link.code, path: noticePagePath(link.code), revokedAt: link.revoked_at }
        : null,
    };
  }

  /** A record typed in by hand joins the owner's 'Manual entries' campaign of its kind. */
  async create(
    info: RecordKindInfo,
    ownerId: string,
    fields: Record<string, string>,
  ): Promise<RecordResponse> {
    const now = nowIso();
    const row = await this.db.transaction().execute(async (trx) => {
      const campaignId = await ensureManualCampaign(trx, ownerId, info.kind, now);
      const row: records.RecordRow = {
        ...pickFields(info, fields),
        id: newId(),
        owner_id: ownerId,
        campaign_id: campaignId,
        created_at: now,
        updated_at: now,
      };
      await records.insertRecords(trx, info, [row]);
      await indexRecords(trx, info.kind, ownerId, [row]);
      await records.adjustRecordCount(trx, ownerId, info.kind, 1);
      await appendAudit(trx, {
        actorId: ownerId,
        action: 'record.create',
        subjectType: info.kind,
        subjectId: row.id,
        summary: describe(info, row),
        after: pickFields(info, row),
      });
      return row;
    });
    return toRecordResponse(info, row, this.links);
  }

  async update(
    info: RecordKindInfo,
    ownerId: string,
    id: string,
    fields: Record<string, string>,
  ): Promise<RecordView> {
    const after = pickFields(info, fields);
    await this.db.transaction().execute(async (trx) => {
      const row = await records.findRecord(trx, info, ownerId, id);
      if (!row) throw notFound(info.label);
      await records.updateRecord(trx, info, ownerId, id, after, nowIso());
      await reindexRecord(trx, info.kind, ownerId, { ...row, ...after });
      await appendAudit(trx, {
        actorId: ownerId,
        action: 'record.update',
        subjectType: info.kind,
        subjectId: id,
        summary: describe(info, { ...row, ...after }),
        ...changedFields(pickFields(info, row), after),
      });
    });
    return this.get(info, ownerId, id);
  }

  /** What deleting one record would do: archive it (served) or erase it (never sent). */
  async previewRemove(info: RecordKindInfo, ownerId: string, id: string): Promise<DeletePreview> {
    const row = await records.findRecord(this.db, info, ownerId, id);
    if (!row) throw notFound(info.label);
    return previewDelete(this.db, info, ownerId, { recordId: id, campaignId: row.campaign_id });
  }

  /** Deletes one record: a served one is archived as evidence, one never sent is erased. */
  async remove(info: RecordKindInfo, ownerId: string, id: string): Promise<DeleteAnswer> {
    const counts = await this.db.transaction().execute(async (trx) => {
      const row = await records.findRecord(trx, info, ownerId, id);
      if (!row) throw notFound(info.label);
      const { archived, erased } = await deleteRecords(
        trx,
        info,
        ownerId,
        { recordId: id, campaignId: row.campaign_id },
        nowIso(),
      );
      const counts = { archived, erased };
      if (counts.archived + counts.erased === 0) throw notFound(info.label);
      await appendAudit(trx, {
        actorId: ownerId,
        action: 'record.delete',
        subjectType: info.kind,
        subjectId: id,
        summary: `${describe(info, row)}: ${describeCounts(counts)}`,
        before: pickFields(info, row),
        after: { ...counts },
      });
      return counts;
    });
    return { message: info.deletedMessage, ...counts };
  }

  /** What Delete All would do: how many records it would archive (served) and erase (never sent). */
  previewRemoveAll(info: RecordKindInfo, ownerId: string): Promise<DeletePreview> {
    return previewDelete(this.db, info, ownerId, { all: true });
  }

  /**
   * Delete All: every live record of the kind the owner has goes, served ones archived and the others
   * erased; campaigns left with archived records only are archived, empty ones removed.
   */
  async removeAll(info: RecordKindInfo, ownerId: string): Promise<DeleteAllAnswer> {
    const counts = await this.db.transaction().execute(async (trx) => {
      const { archived, erased, campaignsArchived, campaignsDeleted } = await deleteRecords(
        trx,
        info,
        ownerId,
        { all: true },
        nowIso(),
      );
      const counts = { archived, erased };
      await appendAudit(trx, {
        actorId: ownerId,
        action: 'record.delete-all',
        subjectType: info.kind,
        summary: `${counts.archived + counts.erased} ${info.label.toLowerCase()} record(s): ${describeCounts(counts)}`,
        after: { deleted: archived + erased, ...counts, campaignsArchived, campaignsDeleted },
      });
      return counts;
    });
    return { message: messages.allDeleted, deleted: counts.archived + counts.erased, ...counts };
  }
}

/** 'Notice for Ravi Kumar (loan 123)': how the audit log names a record. */
function describe(info: RecordKindInfo, row: Record<string, string | undefined>): string {
  const reference = info.kind === 'notice' ? row.loanNo : row.maskNo;
  const label = info.kind === 'notice' ? 'loan' : 'card';
  return `${info.label} for ${row.custName || 'an unnamed customer'}${reference ? ` (${label} ${reference})` : ''}`;
}

/** Only the kind's own fields reach the database, whatever else a body carried. */
function pickFields(info: RecordKindInfo, fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(info.fields.map((field) => [field.key, fields[field.key] ?? '']));
}
