import type { DuplicateChoice } from '@notice-desk/contract/imports';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import * as campaigns from '../campaigns/campaigns.repository.ts';
import { recordKinds } from '../records/record-kinds.ts';
import * as records from '../records/records.repository.ts';
import type { ImportResult } from './import.job.ts';
import { setCampaignDuplicates } from './imports.repository.ts';

/** What the end of an import needs to hand its hidden rows to their owner. */
export interface HandOver {
  kind: RecordKind;
  campaignId: string;
  ownerId: string;
  campaignName: string;
  imported: number;
  skipped: number;
  /** Rows imported with a note in the report (a language no template knows). */
  noted: number;
  /** Rows whose number the owner already had, what the import did with them, and the records it updated. */
  duplicates: number;
  duplicateChoice: DuplicateChoice;
  updated: number;
  /** Rows imported whose e-mail / mobile cannot be served by its form (absent in hand-overs from before). */
  notServiceable?: { email: number; whatsapp: number };
}

/** What the finished job keeps as its result, which the progress route answers. */
export function importResult(h: HandOver): ImportResult {
  return {
    campaignId: h.campaignId,
    imported: h.imported,
    skipped: h.skipped,
    noted: h.noted,
    duplicates: h.duplicates,
    updated: h.updated,
    notServiceable: h.notServiceable ?? { email: 0, whatsapp: 0 },
  };
}

/**
 * The one transaction that ends an import on SQLite: its rows appear in their owner's lists, then
 * finishImport. (On PostgreSQL the whole import is one transaction, and its rows are written live.)
 */
export async function handOver(
  db: Database,
  h: HandOver,
  complete: (trx: Database) => Promise<void>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await records.revealCampaignRecords(trx, recordKinds[h.kind], h.campaignId, h.ownerId);
    await finishImport(trx, h, complete);
  });
}

/**
 * The end of an import, in the transaction that makes its rows visible: the campaign is ready, the
 * counts move, the job is done (`complete`, which throws when another worker took the job over, rolling
 * all of it back) and the audit log says so.
 */
export async function finishImport(
  trx: Database,
  h: HandOver,
  complete: (trx: Database) => Promise<void>,
): Promise<void> {
  const info = recordKinds[h.kind];
  await campaigns.markCampaignReady(trx, h.campaignId, importResult(h));
  await setCampaignDuplicates(trx, h.campaignId, h.duplicateChoice, h.duplicates);
  await records.adjustRecordCount(trx, h.ownerId, info.kind, h.imported);
  await complete(trx);
  await appendAudit(trx, {
    actorId: h.ownerId,
    action: 'campaign.import',
    subjectType: 'campaign',
    subjectId: h.campaignId,
    summary:
      `${h.campaignName}: ${h.imported} ${info.label.toLowerCase()} record(s) imported, ${h.skipped} skipped` +
      (h.duplicates ? `; ${h.duplicates} already imported (${h.duplicateChoice}, ${h.updated} updated)` : ''),
    after: {
      file: h.campaignName,
      kind: info.kind,
      imported: h.imported,
      skipped: h.skipped,
      duplicates: h.duplicates,
      duplicateChoice: h.duplicateChoice,
      updated: h.updated,
    },
  });
}
