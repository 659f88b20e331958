import { z } from 'zod';

/** The largest page any list serves (the campaign detail's biggest page size). */
export const PAGE_LIMIT_MAX = 10_000;

export const pageQuery = z.object({
  page: z.coerce
    .number({ error: 'page must be a number.' })
    .int({ error: 'page must be a whole number.' })
    .min(1, { error: 'page must be 1 or more.' })
    .default(1),
  limit: z.coerce
    .number({ error: 'limit must be a number.' })
    .int({ error: 'limit must be a whole number.' })
    .min(1, { error: 'limit must be 1 or more.' })
    .max(PAGE_LIMIT_MAX, { error: `limit must be at most ${PAGE_LIMIT_MAX}.` })
    .default(10),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** Page count as the spec says: total divided by limit, rounded up, at least 1. */
export const pageCount = (total: number, limit: number): number => Math.max(1, Math.ceil(total / limit));
