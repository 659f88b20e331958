import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { RateLimitsTable } from '../../db/schema.ts';

export type RateLimitRow = Pick<RateLimitsTable, 'points' | 'expire'>;

/**
 * Adds `points` to a key in one statement, so concurrent requests (in any process) are counted one after
 * the other: a window that has ended starts again from `points`; `restart` starts it again whatever it held.
 * Answers the points and window end the key has now.
 */
export function addRateLimitPoints(
  db: Database,
  change: { key: string; points: number; expire: number | null; now: number; restart: boolean },
): Promise<RateLimitRow> {
  const ended = sql<boolean>`(rate_limits.expire is not null and rate_limits.expire <= ${change.now})`;
  return db
    .insertInto('rate_limits')
    .values({ key: change.key, points: change.points, expire: change.expire })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        points: change.restart
          ? sql<number>`excluded.points`
          : sql<number>`case when ${ended} then excluded.points else rate_limits.points + excluded.points end`,
        expire: change.restart
          ? sql<number>`excluded.expire`
          : sql<number>`case when ${ended} then excluded.expire else rate_limits.expire end`,
      }),
    )
    .returning(['points', 'expire'])
    .executeTakeFirstOrThrow();
}

/** The key's points while its window lasts; undefined when it has none. */
export function findRateLimit(db: Database, key: string, now: number): Promise<RateLimitRow | undefined> {
  return db
    .selectFrom('rate_limits')
    .select(['points', 'expire'])
    .where('key', '=', key)
    .where((eb) => eb.or([eb('expire', '>', now), eb('expire', 'is', null)]))
    .executeTakeFirst();
}

export async function deleteRateLimit(db: Database, key: string): Promise<boolean> {
  const result = await db.deleteFrom('rate_limits').where('key', '=', key).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Drops windows that ended before `before`. */
export async function deleteEndedRateLimits(db: Database, before: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('expire', '<', before).execute();
}
