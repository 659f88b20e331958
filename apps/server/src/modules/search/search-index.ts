import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { recordTerms } from './search-terms.ts';
import * as search from './search.repository.ts';

/** The columns of a stored record the index needs: which record, whose, in which campaign, and its fields. */
type IndexedRecord = { id: string; campaign_id: string } & Record<string, string>;

/**
 * Keeps the search terms in step with the records. Call these in the transaction that writes the
 * records, so both commit or neither does. Deleting a campaign (a failed import, Delete All, a
 * campaign's Delete) takes its terms along by foreign key, with no call here.
 */

/** Terms of new records. `ownerId` is the owner-to-be while an import still holds the rows hidden. */
export async function indexRecords(
  db: Database,
  kind: RecordKind,
  ownerId: string,
  records: IndexedRecord[],
): Promise<void> {
  // By campaign (an import's records are all of one), so what the terms of one campaign share is said once.
  const byCampaign = new Map<string, IndexedRecord[]>();
  for (const record of records) {
    const group = byCampaign.get(record.campaign_id);
    if (group) group.push(record);
    else byCampaign.set(record.campaign_id, [record]);
  }
  for (const [campaignId, group] of byCampaign) {
    await search.insertSearchTerms(
      db,
      { owner_id: ownerId, kind, campaign_id: campaignId },
      termsOf(kind, group),
    );
  }
}

/** Made as they are inserted: an import's batch never holds all its terms at once. */
function* termsOf(kind: RecordKind, records: IndexedRecord[]): Generator<search.RecordTerm> {
  for (const record of records) {
    for (const [term, field] of recordTerms(kind, record)) yield [term, record.id, field];
  }
}

/** Replaces an edited record's terms with those of its new values. */
export async function reindexRecord(
  db: Database,
  kind: RecordKind,
  ownerId: string,
  record: IndexedRecord,
): Promise<void> {
  await search.deleteRecordTerms(db, record.campaign_id, record.id);
  await indexRecords(db, kind, ownerId, [record]);
}

export async function unindexRecord(db: Database, record: IndexedRecord): Promise<void> {
  await search.deleteRecordTerms(db, record.campaign_id, record.id);
}
