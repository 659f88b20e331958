import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { TooManyRequests } from '../lib/errors.ts';
import { rateLimitRefusals } from '../lib/metrics.ts';
import { addressKey } from '../modules/limits/limits.service.ts';

/**
 * The global per-address request limit (RATE_LIMIT a minute; 0 turns it off), for every request except
 * the health check a load balancer polls, unknown routes included. It is an application-wide onRequest
 * hook, so it runs before each route's own hooks: a request refused by sign-in still counts. Counted per API process, or in Redis (shared)
 * when REDIS_URL is set. The client address is the real one behind a proxy when TRUST_PROXY says so.
 */
/** What a load balancer, an orchestrator and Prometheus poll. */
const unlimited = new Set(['/api/health', '/api/ready', '/metrics']);

export async function registerRateLimit(
  app: FastifyInstance,
  { perMinute, redis }: { perMinute: number; redis: unknown },
): Promise<void> {
  if (perMinute <= 0) return;
  await app.register(rateLimit, {
    global: false,
    max: perMinute,
    timeWindow: 60_000,
    ...(redis ? { redis: redis as never, nameSpace: 'notice-desk-rate-limit-' } : {}),
    keyGenerator: (request) => addressKey(request.ip),
    allowList: (request) => unlimited.has(request.url),
    errorResponseBuilder: (_request, context) => {
      rateLimitRefusals.inc();
      return new TooManyRequests('Too many requests from your address.', context.ttl);
    },
  });
  app.addHook('onRequest', app.rateLimit());
}
