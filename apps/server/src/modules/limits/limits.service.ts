import { isIPv6 } from 'node:net';
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Database } from '../../db/database.ts';
import { TooManyRequests } from '../../lib/errors.ts';
import { DatabaseRateLimiter, type LimiterOptions } from './database-rate-limiter.ts';

/** Makes one limiter on the store every API process shares: the database, or Redis when configured. */
export type LimiterFactory = (options: LimiterOptions) => RateLimiterAbstract;

export const databaseLimiters =
  (db: Database): LimiterFactory =>
  (options) =>
    new DatabaseRateLimiter(db, { ...options, inMemoryBlockOnConsumed: options.points + 1 });

/** `client` is an ioredis client (REDIS_URL). */
export const redisLimiters =
  (client: unknown): LimiterFactory =>
  (options) =>
    new RateLimiterRedis({ ...options, storeClient: client, inMemoryBlockOnConsumed: options.points + 1 });

/** How many of each may happen; 0 turns a limit off (LOGIN_MAX_ATTEMPTS cannot be 0). */
export interface LimitSettings {
  /** Sign-in attempts per username from one address, per `loginWindowSeconds`. */
  loginMaxAttempts: number;
  loginWindowSeconds: number;
  /** Failed sign-ins per username from all addresses together, per hour. */
  loginUsernameMaxPerHour: number;
  /** Failed sign-ins from one address for all usernames together, per hour. */
  loginAddressMaxPerHour: number;
  /** Password hashes and checks (scrypt) for one address, per minute. */
  passwordChecksPerMinute: number;
  /** Reset mails per username, and per address, per hour. */
  resetMailsPerHour: number;
}

const HOUR = 3600;

/**
 * The limits on accounts, checked and counted in one step before the work they guard, so that
 * concurrent requests cannot all pass: N requests against a limit of L get at most L through.
 */
export class AccountLimits {
  private readonly loginPair: RateLimiterAbstract;
  private readonly loginUsername: RateLimiterAbstract | undefined;
  private readonly loginAddress: RateLimiterAbstract | undefined;
  private readonly passwordWork: RateLimiterAbstract | undefined;
  private readonly resetUsername: RateLimiterAbstract | undefined;
  private readonly resetAddress: RateLimiterAbstract | undefined;

  constructor(make: LimiterFactory, settings: LimitSettings) {
    const limiter = (keyPrefix: string, points: number, duration: number) =>
      points > 0 ? make({ keyPrefix, points, duration }) : undefined;
    this.loginPair = make({
      keyPrefix: 'login',
      points: settings.loginMaxAttempts,
      duration: settings.loginWindowSeconds,
    });
    this.loginUsername = limiter('login-username', settings.loginUsernameMaxPerHour, HOUR);
    this.loginAddress = limiter('login-address', settings.loginAddressMaxPerHour, HOUR);
    this.passwordWork = limiter('password-work', settings.passwordChecksPerMinute, 60);
    this.resetUsername = limiter('reset-username', settings.resetMailsPerHour, HOUR);
    this.resetAddress = limiter('reset-address', settings.resetMailsPerHour, HOUR);
  }

  /**
   * Counts a sign-in attempt before its password is checked: per username from this address, per username
   * and per address. A success gives the attempt back (loginSucceeded), so only failures add up.
   */
  async loginAttempt(usernameKey: string, address: string): Promise<void> {
    const from = addressKey(address);
    const tooMany = 'Too many login attempts.';
    // Three counts at once (one round trip's wait, not three); any one over its limit refuses.
    await Promise.all([
      consume(this.loginPair, `${from}|${usernameKey}`, tooMany, 'TOO_MANY_ATTEMPTS'),
      consume(this.loginUsername, usernameKey, tooMany, 'TOO_MANY_ATTEMPTS'),
      consume(this.loginAddress, from, tooMany, 'TOO_MANY_ATTEMPTS'),
    ]);
  }

  async loginSucceeded(usernameKey: string, address: string): Promise<void> {
    const from = addressKey(address);
    await Promise.all([
      this.loginPair.delete(`${from}|${usernameKey}`),
      this.loginUsername?.reward(usernameKey),
      this.loginAddress?.reward(from),
    ]);
  }

  /** Counts one password hash or check (scrypt: ~50 ms of a core and 32 MiB) for an address. */
  async passwordCheck(address: string): Promise<void> {
    await consume(this.passwordWork, addressKey(address), 'Too many password checks from your address.');
  }

  /** Counts one reset request per username asked for (known or not, so the answer tells nothing) and per address. */
  async resetMail(usernameKey: string, address: string): Promise<void> {
    const tooMany = 'Too many password reset requests.';
    await consume(this.resetUsername, usernameKey, tooMany);
    await consume(this.resetAddress, addressKey(address), tooMany);
  }
}

async function consume(
  limiter: RateLimiterAbstract | undefined,
  key: string,
  what: string,
  code?: string,
): Promise<void> {
  if (!limiter) return;
  try {
    await limiter.consume(key);
  } catch (err) {
    // The package rejects with its result (how long to wait) when the limit is reached.
    if (err instanceof RateLimiterRes) throw new TooManyRequests(what, err.msBeforeNext, code);
    throw err;
  }
}

/**
 * The address a limit counts: IPv4 as it is (an IPv4-mapped IPv6 address as its IPv4), IPv6 by its /64,
 * since one host commonly holds a whole /64 and could otherwise take a fresh address per request.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** Requests to the public notice page routes per code and per address, per minute (0 turns one off). */
export interface NoticePageLimitSettings {
  perCodePerMinute: number;
  perAddressPerMinute: number;
}

/**
 * The public notice page's limits, counted where the sign-in limits are (the database, or Redis), so
 * every API process sees the same counts. A code's count holds a guessing visitor to a few answers a
 * minute on top of the check's own lock; an address's count holds one that tries many codes.
 */
export class NoticePageLimits {
  private readonly perCode: RateLimiterAbstract | undefined;
  private readonly perAddress: RateLimiterAbstract | undefined;

  constructor(make: LimiterFactory, settings: NoticePageLimitSettings) {
    this.perCode =
      settings.perCodePerMinute > 0
        ? make({ keyPrefix: 'notice-page-code', points: settings.perCodePerMinute, duration: 60 })
        : undefined;
    this.perAddress =
      settings.perAddressPerMinute > 0
        ? make({ keyPrefix: 'notice-page-address', points: settings.perAddressPerMinute, duration: 60 })
        : undefined;
  }

  /** Counts one request for the code from the address; refuses with 429 when either is over its limit. */
  async visit(code: string, address: string): Promise<void> {
    await Promise.all([
      consume(this.perAddress, addressKey(address), 'Too many requests from your address.'),
      consume(this.perCode, code.slice(0, 100), 'Too many requests for this notice.'),
    ]);
  }
}

/**
 * The public verification routes (issue 30): looks and dropped files per address, per minute
 * (VERIFY_PER_MINUTE; 0 turns it off). A dropped file is hashed and its signature checked: the count
 * holds one address to a few of those a minute, counted where the other limits are.
 */
export class VerifyLimits {
  private readonly perAddress: RateLimiterAbstract | undefined;

  constructor(make: LimiterFactory, perAddressPerMinute: number) {
    this.perAddress =
      perAddressPerMinute > 0
        ? make({ keyPrefix: 'verify-address', points: perAddressPerMinute, duration: 60 })
        : undefined;
  }

  async visit(address: string): Promise<void> {
    await consume(this.perAddress, addressKey(address), 'Too many verification requests from your address.');
  }
}
