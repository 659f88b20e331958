import { RateLimiterPostgres, RateLimiterRes, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import type { Database } from '../../db/database.ts';
import * as store from './rate-limits.repository.ts';

/**
 * rate-limiter-flexible's base of every store-backed limiter. The package exports it only as a type, so it
 * is read off one of its stores; a version that changed that would stop the start here, not limit wrongly.
 */
const StoreLimiter = Object.getPrototypeOf(RateLimiterPostgres) as typeof RateLimiterStoreAbstract;
if (StoreLimiter.name !== 'RateLimiterStoreAbstract')
  throw new Error(
    'rate-limiter-flexible changed: RateLimiterPostgres no longer extends RateLimiterStoreAbstract',
  );

/** What a limiter is told: `points` per `duration` seconds for each key, keys under `keyPrefix`. */
export type LimiterOptions = Omit<ConstructorParameters<typeof RateLimiterStoreAbstract>[0], 'storeClient'>;

/** Ended windows are swept this often (by the next request that counts), older than an hour. */
const SWEEP_EVERY_MS = 5 * 60 * 1000;

/**
 * A rate-limiter-flexible limiter whose counters live in our database (the `rate_limits` table) through
 * Kysely, on SQLite and PostgreSQL alike: every API process sees the same counts, and a count is one
 * atomic upsert, so concurrent requests cannot all slip under the limit. The package's own SQLite and
 * PostgreSQL stores would need the raw driver beside Kysely's: on SQLite that shares Kysely's one
 * connection outside its lock (a count could land inside another request's transaction and be rolled
 * back with it), and on PostgreSQL it creates its table itself instead of in our migrations.
 */
export class DatabaseRateLimiter extends StoreLimiter {
  private lastSweep = Date.now();

  constructor(
    private readonly db: Database,
    options: LimiterOptions,
  ) {
    super({ ...options, storeClient: db });
  }

  async _upsert(
    key: string,
    points: number,
    msDuration: number,
    forceExpire = false,
  ): Promise<store.RateLimitRow> {
    const now = Date.now();
    if (now - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = now;
      await store.deleteEndedRateLimits(this.db, now - 60 * 60 * 1000);
    }
    return store.addRateLimitPoints(this.db, {
      key,
      points,
      expire: msDuration > 0 ? now + msDuration : null,
      now,
      restart: forceExpire,
    });
  }

  async _get(key: string): Promise<store.RateLimitRow | null> {
    return (await store.findRateLimit(this.db, key, Date.now())) ?? null;
  }

  _delete(key: string): Promise<boolean> {
    return store.deleteRateLimit(this.db, key);
  }

  _getRateLimiterRes(_key: string, changedPoints: number, row: store.RateLimitRow): RateLimiterRes {
    const points = Number(row.points);
    const isFirstInDuration = changedPoints === points;
    const consumedPoints = isFirstInDuration ? changedPoints : points;
    const msBeforeNext = row.expire === null ? -1 : Math.max(Number(row.expire) - Date.now(), 0);
    return new RateLimiterRes(
      Math.max(this.points - consumedPoints, 0),
      msBeforeNext,
      consumedPoints,
      isFirstInDuration,
    );
  }
}
