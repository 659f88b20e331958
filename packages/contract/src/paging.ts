import { z } from 'zod';

/** The largest page any list serves (the campaign detail's biggest page size). */
export const PAGE_LIMIT_MAX = 10_000;

/**
 * The deepest page any list serves. The rows a page skips, (page - 1) × limit, stay below
 * PAGE_MAX × PAGE_LIMIT_MAX = 10^13: a safe integer in JavaScript and far inside the signed 64-bit
 * OFFSET that SQLite and PostgreSQL take.
 */
export const PAGE_MAX = 1_000_000_000;

/** Why a query-string count is refused, or undefined when `text` is a whole number from 1 to `max` in digits. */
function countProblem(name: string, text: string, max: number): string | undefined {
  const value = Number(text);
  if (/^\d+$/.test(text)) {
    if (value < 1) return `${name} must be 1 or more.`;
    if (value > max) return `${name} must be at most ${max}.`;
    return undefined;
  }
  // Number() also reads '1e15', '0x10', ' 2', '+2' and '2.0'; a count is plain digits only.
  if (text.trim() === '' || !Number.isFinite(value)) return `${name} must be a number.`;
  if (!Number.isInteger(value)) return `${name} must be a whole number.`;
  if (value < 1) return `${name} must be 1 or more.`;
  if (value > max) return `${name} must be at most ${max}.`;
  return `${name} must be written in plain digits, such as 2.`;
}

/**
 * A count from the query string (a page number, a page size): a whole number from 1 to `max`,
 * written in plain digits. Anything else is refused with a message that names the parameter.
 */
export function countParam(name: string, { max, fallback }: { max: number; fallback: number }) {
  return z
    .string({
      error: (issue) =>
        Array.isArray(issue.input) ? `${name} must be given once.` : `${name} must be a number.`,
    })
    .transform((text, ctx) => {
      const problem = countProblem(name, text, max);
      if (problem === undefined) return Number(text);
      ctx.issues.push({ code: 'custom', message: problem, input: text });
      return z.NEVER;
    })
    .default(fallback)
    .describe(`A whole number from 1 to ${max}, in digits; ${fallback} when absent.`);
}

/** The paging every list takes: `page` from 1 to PAGE_MAX, `limit` from 1 to `limitMax` (`limit` rows when absent). */
export function pagingQuery({
  limit = 10,
  limitMax = PAGE_LIMIT_MAX,
}: { limit?: number; limitMax?: number } = {}) {
  return z.object({
    page: countParam('page', { max: PAGE_MAX, fallback: 1 }),
    limit: countParam('limit', { max: limitMax, fallback: limit }),
  });
}

export const pageQuery = pagingQuery();
export type PageQuery = z.infer<typeof pageQuery>;

/** The longest text a list's Search... box sends (the header search takes as much). */
export const LIST_SEARCH_MAX_LENGTH = 100;

/**
 * A list's 'Search...' text: optional, trimmed, empty meaning no filter. Text no database can hold as
 * typed (a NUL, half a surrogate pair) and text past LIST_SEARCH_MAX_LENGTH are refused, saying why.
 */
export const listSearch = z
  .string({
    error: (issue) => (Array.isArray(issue.input) ? 'search must be given once.' : 'search must be text.'),
  })
  .trim()
  .max(LIST_SEARCH_MAX_LENGTH, { error: `Search text must be at most ${LIST_SEARCH_MAX_LENGTH} characters.` })
  .refine((text) => !/[\0\p{Cs}]/u.test(text), {
    error: 'Search text must be whole characters: no NUL and no half of a surrogate pair.',
  })
  .optional()
  .describe(
    `Only the rows matching this text (at most ${LIST_SEARCH_MAX_LENGTH} characters); every row when absent or blank.`,
  );

/** A page of a list that its 'Search...' box filters on the server. */
export function searchablePagingQuery(options: { limit?: number; limitMax?: number } = {}) {
  return pagingQuery(options).extend({ search: listSearch });
}

export const searchablePageQuery = searchablePagingQuery();
export type SearchablePageQuery = z.infer<typeof searchablePageQuery>;

/** Page count as the spec says: total divided by limit, rounded up, at least 1. */
export const pageCount = (total: number, limit: number): number => Math.max(1, Math.ceil(total / limit));
