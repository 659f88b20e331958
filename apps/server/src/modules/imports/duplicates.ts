import type { DuplicateMatch } from '@notice-desk/contract/imports';
import type { Database } from '../../db/database.ts';
import type { RecordKindInfo } from '../records/record-kinds.ts';
import { compact, TERM_MAX } from '../search/search-terms.ts';
import { identity, identityKey, listLabels } from './import-rows.ts';
import { findRecordsByTerms, type TermMatch } from './imports.repository.ts';

/** Terms looked up per statement. */
const TERMS_PER_LOOKUP = 500;

/**
 * Finds the owner's records that rows of a sheet repeat: the same loan number (notices), or the same
 * mask number and AAN (credit cards), trimmed and in any case, as the import compares rows of one file.
 * Records are looked up by the first identifying field's search term (the search index's (owner, term)
 * range, a batch of rows per statement), then compared whole. Archived records, deleted ones, rows of
 * an import still running and the records of `exceptCampaignId` (the import's own) are not duplicates.
 */
export class DuplicateFinder {
  private readonly field: string;

  constructor(
    private readonly db: Database,
    private readonly info: RecordKindInfo,
    private readonly ownerId: string,
    private readonly exceptCampaignId: string | null,
  ) {
    this.field = identity[info.kind][0]!;
  }

  /** The records each row repeats, by the row's identityKey; rows that repeat none are absent. */
  async find(rows: readonly Record<string, string>[]): Promise<Map<string, TermMatch[]>> {
    const wanted = new Set<string>();
    const terms = new Set<string>();
    for (const values of rows) {
      // A number with no letter or digit has no search term: it is never found as a duplicate.
      const term = compact(values[this.field] ?? '').slice(0, TERM_MAX);
      if (!term) continue;
      terms.add(term);
      wanted.add(identityKey(this.info.kind, values));
    }
    const found = new Map<string, TermMatch[]>();
    const list = [...terms];
    for (let start = 0; start < list.length; start += TERMS_PER_LOOKUP) {
      const matches = await findRecordsByTerms(
        this.db,
        this.info,
        this.ownerId,
        this.field,
        list.slice(start, start + TERMS_PER_LOOKUP),
        this.exceptCampaignId,
      );
      for (const match of matches) {
        const key = identityKey(this.info.kind, match.fields);
        if (!wanted.has(key)) continue;
        const same = found.get(key);
        if (!same) found.set(key, [match]);
        else if (!same.some((m) => m.id === match.id)) same.push(match);
      }
    }
    return found;
  }
}

/** The records as the Review mapping lists them: their campaign and whether each was served. */
export const describeMatches = (matches: readonly TermMatch[]): DuplicateMatch[] =>
  matches.map((m) => ({ campaignId: m.campaign_id, campaignName: m.campaign_name, served: m.served }));

/** 'Jan file and Feb file': the campaigns the records are in, each named once. */
export function campaignNames(matches: readonly TermMatch[]): string {
  return listLabels([...new Set(matches.map((m) => `‘${m.campaign_name}’`))]);
}
