import { rateLimitWaits, rateLimitWaitSeconds } from '../../lib/metrics.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Channel } from '../../db/schema.ts';
import type { LimiterFactory } from './limits.service.ts';

/**
 * The providers' limits (WHATSAPP_RATE, SMTP_RATE), held by every worker process together: each message
 * takes a token from a bucket of `rate` tokens that fills again each second, counted in the store the
 * account limits share (the database, or Redis with REDIS_URL). A sender with no token waits for the
 * next second rather than being refused. Over any minute at most one second's tokens more than the rate
 * go out (under 2% at 50/s); docs/benchmarks.md measures it.
 */
export class SendRates {
  private readonly buckets = new Map<Channel, { rate: number; limiter: RateLimiterAbstract }>();

  /**
   * `rates`: messages a second per channel that has a provider. A channel left out (the outbox) or
   * unlimited (null) keeps no bucket at all: its messages count nothing in the store, so an unlimited
   * send writes no rate row per message.
   */
  constructor(make: LimiterFactory, rates: Partial<Record<Channel, number | null>>) {
    for (const [channel, rate] of Object.entries(rates) as [Channel, number | null | undefined][])
      if (rate)
        this.buckets.set(channel, {
          rate,
          limiter: make({ keyPrefix: 'send-rate', points: rate, duration: 1 }),
        });
  }

  /** The limit a channel is held to, in messages a second; null when it has none. */
  limitOf(channel: Channel): number | null {
    return this.buckets.get(channel)?.rate ?? null;
  }

  /** Waits for a token of the channel's bucket; an aborted signal stops the wait with its reason. */
  async take(channel: Channel, signal?: AbortSignal): Promise<void> {
    const bucket = this.buckets.get(channel);
    if (!bucket) return;
    const started = Date.now();
    let waited = false;
    for (;;) {
      signal?.throwIfAborted();
      try {
        await bucket.limiter.consume(channel);
        if (waited) rateLimitWaitSeconds.inc({ channel }, (Date.now() - started) / 1000);
        return;
      } catch (res) {
        if (!(res instanceof RateLimiterRes)) throw res;
        if (!waited) rateLimitWaits.inc({ channel });
        waited = true;
        // A few milliseconds of spread, so the senders waiting for the next second do not all ask at once.
        await sleep(Math.min(Math.max(res.msBeforeNext, 1), 1000) + Math.random() * 5);
      }
    }
  }
}
