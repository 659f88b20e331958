import type { ArchivedCampaignList, ArchivedRecordList } from '@notice-desk/contract/archive';
import type { PageQuery } from '@notice-desk/contract/paging';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { DeepPages, PAGE_STRIDE } from '../../lib/deep-pages.ts';
import { notFound } from '../../lib/errors.ts';
import type { EvidenceService } from '../evidence/evidence.service.ts';
import { recordKinds } from '../records/record-kinds.ts';
import * as archive from './archive.repository.ts';

/** The ADMIN's view of what deletes archived: every owner's served records and campaigns, and their evidence. */
export class ArchiveService {
  /** Deep pages of the archived records (per kind) and campaigns. */
  private readonly deepPages: DeepPages<archive.ArchiveKey>;

  constructor(
    private readonly db: Database,
    private readonly evidence: EvidenceService,
    pageStride = PAGE_STRIDE,
  ) {
    this.deepPages = new DeepPages(pageStride);
  }

  async records(kind: RecordKind, { page, limit }: PageQuery): Promise<ArchivedRecordList> {
    const info = recordKinds[kind];
    const { total, version } = await archive.archivedRecordsState(this.db, info);
    const offset = (page - 1) * limit;
    const rows =
      offset >= total
        ? []
        : await this.deepPages.page(kind, version, offset, limit, {
            fromTop: (skip, size) => archive.listArchivedRecords(this.db, info, skip, size),
            boundaries: (stride) => archive.archivedRecordBoundaries(this.db, info, stride),
            fromKey: (from, skip, size) => archive.listArchivedRecords(this.db, info, skip, size, from),
          });
    return {
      items: rows.map((row) => ({
        _id: row.id,
        kind,
        custName: row.cust_name,
        reference: row.reference,
        campaignId: row.campaign_id,
        campaignName: row.campaign_name,
        owner: { _id: row.owner_id, username: row.owner_username },
        createdAt: row.created_at,
        archivedAt: row.archived_at,
      })),
      total,
    };
  }

  async campaigns({ page, limit }: PageQuery): Promise<ArchivedCampaignList> {
    const { total, version } = await archive.archivedCampaignsState(this.db);
    const offset = (page - 1) * limit;
    const rows =
      offset >= total
        ? []
        : await this.deepPages.page('campaigns', version, offset, limit, {
            fromTop: (skip, size) => archive.listArchivedCampaigns(this.db, skip, size),
            boundaries: (stride) => archive.archivedCampaignBoundaries(this.db, stride),
            fromKey: (from, skip, size) => archive.listArchivedCampaigns(this.db, skip, size, from),
          });
    return {
      items: rows.map((row) => ({
        _id: row.id,
        type: row.kind,
        name: row.name,
        owner: { _id: row.owner_id, username: row.owner_username },
        date: row.created_at,
        archivedAt: row.archived_at,
        records: Number(row.records),
      })),
      total,
    };
  }

  /** An archived record's evidence bundle, whoever owns it; a live record's id answers 404 here. */
  async recordEvidence(adminId: string, kind: RecordKind, id: string) {
    const info = recordKinds[kind];
    const ownerId = await archive.findArchivedRecordOwner(this.db, info, id);
    if (!ownerId) throw notFound(`Archived ${info.label.toLowerCase()}`);
    return this.evidence.forRecord(ownerId, kind, id, adminId);
  }

  /** An archived campaign's evidence bundle, whoever owns it. */
  async campaignEvidence(adminId: string, id: string) {
    const ownerId = await archive.findArchivedCampaignOwner(this.db, id);
    if (!ownerId) throw notFound('Archived campaign');
    return this.evidence.forCampaign(ownerId, id, adminId);
  }
}
