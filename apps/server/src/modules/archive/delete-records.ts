import type { DeleteCounts } from '@notice-desk/contract/archive';
import type { Database } from '../../db/database.ts';
import type { RecordKindInfo } from '../records/record-kinds.ts';
import { adjustRecordCount } from '../records/records.repository.ts';
import * as archive from './archive.repository.ts';

export type { DeleteScope } from './archive.repository.ts';

/** What a delete did: records archived and erased, and campaigns archived and removed with them. */
export interface DeleteOutcome extends DeleteCounts {
  campaignsArchived: number;
  campaignsDeleted: number;
}

/**
 * What every delete (a row's Delete, Delete All, a campaign's Delete) does to the records it takes,
 * inside the caller's transaction so it all commits or none of it does: served records are archived
 * (kept with their deliveries, events and PDFs, gone from lists, counts and search), the others are
 * erased. A campaign left with archived records only is archived; with none at all, a campaign or
 * Delete All removes it.
 */
export async function deleteRecords(
  trx: Database,
  info: RecordKindInfo,
  ownerId: string,
  scope: archive.DeleteScope,
  now: string,
): Promise<DeleteOutcome> {
  const target = { info, ownerId, scope };
  await archive.lockOutClaims(trx);
  await archive.unindexForDelete(trx, target);
  const archived = await archive.archiveServed(trx, target, now);
  const erased = await archive.eraseUnserved(trx, target);
  await adjustRecordCount(trx, ownerId, info.kind, -(archived + erased));
  const campaignsArchived = await archive.archiveEmptiedCampaigns(trx, target, now);
  // A row's Delete leaves its campaign in the list, as before, even when that was its last record.
  const campaignsDeleted = scope.recordId === undefined ? await archive.deleteEmptyCampaigns(trx, target) : 0;
  return { archived, erased, campaignsArchived, campaignsDeleted };
}

/** What deleteRecords would do to the scope now: how many it would archive and how many erase. */
export async function previewDelete(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  scope: archive.DeleteScope,
): Promise<{ archive: number; erase: number }> {
  return archive.countForDelete(db, { info, ownerId, scope });
}

/** 'archived 2 (served, kept as evidence), erased 3': how the audit log words a delete's counts. */
export function describeCounts({ archived, erased }: DeleteCounts): string {
  return `archived ${archived} (served, kept as evidence), erased ${erased}`;
}
