import type { SearchField, SearchQuery, SearchResponse, SearchResult } from '@notice-desk/contract/search';
import type { Database } from '../../db/database.ts';
import { compact, phonePrefix, TERM_MAX, wordsApart } from './search-terms.ts';
import * as search from './search.repository.ts';

/** One prefix to look up, and the field it is limited to (a phone-number form only finds mobiles). */
interface Lookup {
  prefix: string;
  field?: SearchField;
}

/**
 * A record found by several of its terms shows once; each lookup reads this many times the limit,
 * so those repeats almost never leave the list short.
 */
const READ_AHEAD = 3;

/** The header search: the signed-in owner's notices and credit cards, by name and identifiers. */
export class SearchService {
  constructor(private readonly db: Database) {}

  async search(ownerId: string, { q, limit }: SearchQuery): Promise<SearchResponse> {
    // Names keep the spaces between words, identifiers none; digits typed as a phone number find mobiles.
    const lookups: Lookup[] = [];
    const add = (form: string | undefined, field?: SearchField) => {
      const prefix = form?.slice(0, TERM_MAX);
      if (prefix && !lookups.some((lookup) => lookup.prefix === prefix)) lookups.push({ prefix, field });
    };
    add(wordsApart(q));
    add(compact(q));
    add(phonePrefix(q), 'custMobileNo');

    const found = await Promise.all(
      lookups.map(async ({ prefix, field }) =>
        (await search.findMatches(this.db, ownerId, prefix, limit * READ_AHEAD, field)).map((match) => ({
          match,
          exact: match.term === prefix,
        })),
      ),
    );
    // Exact matches first, then the shorter and alphabetically nearer terms, newest first within one.
    const ordered = found
      .flat()
      .sort(
        (a, b) =>
          Number(b.exact) - Number(a.exact) ||
          compare(a.match.term, b.match.term) ||
          compare(b.match.record_id, a.match.record_id),
      );
    const results: SearchResult[] = [];
    const seen = new Set<string>();
    for (const { match } of ordered) {
      if (results.length === limit) break;
      if (seen.has(match.record_id)) continue;
      seen.add(match.record_id);
      results.push(toResult(match));
    }
    return { results };
  }
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
  };
}
