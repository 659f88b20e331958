import type { ArchivedCampaignList, ArchivedRecordList } from '@notice-desk/contract/archive';
import type { PageQuery } from '@notice-desk/contract/paging';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import type { EvidenceService } from '../evidence/evidence.service.ts';
import { recordKinds } from '../records/record-kinds.ts';
import * as archive from './archive.repository.ts';

/** The ADMIN's view of what deletes archived: every owner's served records and campaigns, and their evidence. */
export class ArchiveService {
  constructor(
    private readonly db: Database,
    private readonly evidence: EvidenceService,
  ) {}

  async records(kind: RecordKind, { page, limit }: PageQuery): Promise<ArchivedRecordList> {
    const { rows, total } = await archive.listArchivedRecords(
      this.db,
      recordKinds[kind],
      (page - 1) * limit,
      limit,
    );
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
    const { rows, total } = await archive.listArchivedCampaigns(this.db, (page - 1) * limit, limit);
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
