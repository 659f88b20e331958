import { ConfigError } from '../../config/env.ts';

/** The parts of an ioredis client the limits use. */
export interface RedisClient {
  quit(): Promise<unknown>;
}

/**
 * An ioredis client for REDIS_URL. ioredis is not among the server's dependencies: a deployment that sets
 * REDIS_URL installs it (`npm install ioredis --workspace apps/server`); without it the start stops here
 * with a message saying so, rather than counting limits somewhere the operator did not ask for.
 */
export async function connectRedis(url: string): Promise<RedisClient> {
  let Redis: new (url: string, options: object) => RedisClient;
  try {
    // A name the type checker does not resolve: the package is optional.
    const specifier: string = 'ioredis';
    Redis = ((await import(specifier)) as { default: typeof Redis }).default;
  } catch {
    throw new ConfigError(
      'Invalid configuration:\n  REDIS_URL: set, but the ioredis package is not installed. Install it (npm install ioredis --workspace apps/server) or unset REDIS_URL to keep limits in the database.',
    );
  }
  // No offline queue: a limit asked while Redis is down fails the request (503) instead of waiting.
  return new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
}
