import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { ConfigError } from '../../config/env.ts';

/** The parts of an ioredis client the limits use. */
export type RedisClient = Redis;

/**
 * The Redis client for REDIS_URL, shared by the account limits and the global request limit. No offline
 * queue: a limit asked while Redis is down fails the request (503) instead of waiting for it. The start
 * waits for the first connection, so a wrong REDIS_URL stops the start with a message naming it.
 */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<RedisClient> {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: true,
    connectTimeout: 5000,
  });
  // Redis going away after the start is logged (once per reconnect attempt), never an unhandled error.
  client.on('error', (err: Error) => log.warn({ err: err.message }, 'Redis connection error'));
  try {
    await client.connect();
  } catch (err) {
    client.disconnect();
    throw new ConfigError(
      `Invalid configuration:\n  REDIS_URL: cannot connect to ${redact(url)} (${(err as Error).message}).`,
    );
  }
  return client;
}

/** The address without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'REDIS_URL';
  }
}
