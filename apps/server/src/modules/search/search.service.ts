import type { SearchField, SearchQuery, SearchResponse, SearchResult } from '@notice-desk/contract/search';
import type { Database } from '../../db/database.ts';
import { queryLookups } from './search-terms.ts';
import * as search from './search.repository.ts';

/** A found term, and whether it is the whole of what was typed. */
interface Candidate {
  match: search.MatchRow;
  exact: boolean;
}

/**
 * A record found by several of its terms shows once, so each lookup first reads twice the limit; in
 * the rare case repeats leave the list short of what a lookup still holds, it reads further.
 */
const READ_AHEAD = 2;

/** The header search: the signed-in owner's notices and credit cards, by name and identifiers. */
export class SearchService {
  constructor(private readonly db: Database) {}

  async search(ownerId: string, { q, limit }: SearchQuery): Promise<SearchResponse> {
    const lookups = queryLookups(q);
    for (let reads = limit * READ_AHEAD; ; reads *= 4) {
      const found = await Promise.all(
        lookups.map(async ({ prefix, field }) =>
          (await search.findMatches(this.db, ownerId, prefix, reads, field)).map((match): Candidate => ({
            match,
            exact: match.term === prefix,
          })),
        ),
      );
      const results: SearchResult[] = [];
      const seen = new Set<string>();
      let last: Candidate | undefined;
      for (const candidate of found.flat().sort(byRank)) {
        if (results.length === limit) break;
        if (seen.has(candidate.match.record_id)) continue;
        seen.add(candidate.match.record_id);
        results.push(toResult(candidate.match));
        last = candidate;
      }
      // Final unless a lookup stopped at its read count before ranking past the last result taken.
      const unread = found.some(
        (list) =>
          list.length === reads && (results.length < limit || byRank(list[list.length - 1]!, last!) < 0),
      );
      if (!unread) return { results };
    }
  }
}

/** Exact matches first, then the shorter and alphabetically nearer terms, newest first within one. */
function byRank(a: Candidate, b: Candidate): number {
  return (
    Number(b.exact) - Number(a.exact) ||
    compare(a.match.term, b.match.term) ||
    compare(b.match.record_id, a.match.record_id)
  );
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function toResult(match: search.MatchRow): SearchResult {
  const field = match.field as SearchField;
  const values: Record<SearchField, string | null> = {
    custName: match.cust_name,
    loanNo: match.loanNo,
    maskNo: match.maskNo,
    custMobileNo: match.mobile,
    referenceNo: match.referenceNo,
  };
  return {
    _id: match.record_id,
    kind: match.kind,
    custName: match.cust_name,
    matched: { field, value: values[field] ?? '' },
    campaignId: match.campaign_id,
    campaignName: match.campaign_name,
  };
}
