import { z } from 'zod';
import { countParam } from './paging.ts';

/** Fewest characters a search runs on: one letter would match most of the records. */
export const SEARCH_MIN_LENGTH = 2;
export const SEARCH_MAX_LENGTH = 100;
/** Most results one search answers (the header shows them all in its list). */
export const SEARCH_LIMIT_MAX = 20;

export const searchQuery = z.object({
  q: z
    .string({ error: 'Type something to search for.' })
    .trim()
    .min(SEARCH_MIN_LENGTH, { error: `Type at least ${SEARCH_MIN_LENGTH} characters to search.` })
    .max(SEARCH_MAX_LENGTH, { error: `Search text must be at most ${SEARCH_MAX_LENGTH} characters.` }),
  limit: countParam('limit', { max: SEARCH_LIMIT_MAX, fallback: 10 }),
});
export type SearchQuery = z.infer<typeof searchQuery>;

/** The record fields a search looks in: the customer's name and the identifiers staff quote. */
export const searchFields = ['custName', 'loanNo', 'maskNo', 'custMobileNo', 'referenceNo'] as const;
export type SearchField = (typeof searchFields)[number];

export const searchResult = z.object({
  _id: z.string(),
  kind: z.enum(['notice', 'credit-card']),
  custName: z.string(),
  /** Which field matched the search, and its value as stored. */
  matched: z.object({ field: z.enum(searchFields), value: z.string() }),
  campaignId: z.string(),
  /** The name of the campaign the record is in, so copies in several campaigns tell apart. */
  campaignName: z.string(),
});
export type SearchResult = z.infer<typeof searchResult>;

/** Best first: exact matches, then the closest prefixes; newest first among equal matches. */
export const searchResponse = z.object({ results: z.array(searchResult) });
export type SearchResponse = z.infer<typeof searchResponse>;
