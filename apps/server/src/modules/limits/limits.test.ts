import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createTestApp, signUp, type TestApp } from '../../test/app.ts';
import { addressKey } from './limits.service.ts';

const opened: TestApp[] = [];
async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp(env);
  opened.push(t);
  return t;
}
afterEach(async () => {
  while (opened.length > 0) await opened.pop()!.close();
});

type Inject = TestApp['app'];
const login = (
  target: Inject,
  username: string,
  password: string,
  headers: Record<string, string> = {},
  remoteAddress = '127.0.0.1',
) =>
  target.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password },
    headers,
    remoteAddress,
  });

/** Every 429 of a limit: the one error shape, a message saying when, and Retry-After. */
function expectTooMany(res: Awaited<ReturnType<Inject['inject']>>, message: RegExp) {
  expect(res.statusCode).toBe(429);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
  expect(body.statusCode).toBe(429);
  expect(body.error).toBe(body.message);
  expect(body.message).toMatch(message);
  expect(body.message).toMatch(/Try again in \d+ (seconds?|minutes|hours)\.$/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('the login limit', () => {
  it('is checked and counted in one step: 60 concurrent guesses against a limit of 10 get at most 10 real answers', async () => {
    const t = await app({ LOGIN_MAX_ATTEMPTS: '10' });
    await signUp(t.app, 'asha', 'right-pass-1');
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login(t.app, 'asha', i === 59 ? 'right-pass-1' : `guess-${i}`)),
    );
    const real = answers.filter((res) => res.statusCode !== 429);
    expect(real.length).toBeLessThanOrEqual(10);
    expect(real.length).toBeGreaterThan(0);
    expect(real.every((res) => res.statusCode === 401 || res.statusCode === 200)).toBe(true);
    for (const res of answers.filter((r) => r.statusCode === 429))
      expectTooMany(res, /^Too many login attempts\./);
  });

  it('is shared by two API processes on one database', async () => {
    const t = await app({ LOGIN_MAX_ATTEMPTS: '4' });
    await signUp(t.app, 'ravi', 'right-pass-1');
    // A second process: the same configuration, so the same database (SQLite file or PostgreSQL schema).
    const other = await buildApp(t.config);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await login(i % 2 ? other : t.app, 'ravi', `guess-${i}`)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
      // And at once: 30 guesses spread over both get no further answers for this pair.
      const more = await Promise.all(
        Array.from({ length: 30 }, (_, i) => login(i % 2 ? other : t.app, 'ravi', 'right-pass-1')),
      );
      expect(more.every((res) => res.statusCode === 429)).toBe(true);
      // Another address is another pair.
      expect((await login(other, 'ravi', 'right-pass-1', {}, '10.9.9.9')).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('gives attempts back on success, so a user who types well is never locked out', async () => {
    const t = await app({ LOGIN_MAX_ATTEMPTS: '3' });
    await signUp(t.app, 'meena', 'right-pass-1');
    for (let round = 0; round < 3; round++) {
      expect((await login(t.app, 'meena', 'typo-pass')).statusCode).toBe(401);
      expect((await login(t.app, 'meena', 'typo-pass')).statusCode).toBe(401);
      expect((await login(t.app, 'meena', 'right-pass-1')).statusCode).toBe(200);
    }
  });

  it('counts a username in every case and form as one', async () => {
    const t = await app({ LOGIN_MAX_ATTEMPTS: '3' });
    for (const form of ['kavya', 'KAVYA', 'ｋａｖｙａ'])
      expect((await login(t.app, form, 'guess-pass')).statusCode).toBe(401);
    expectTooMany(await login(t.app, 'Kavya', 'guess-pass'), /^Too many login attempts\./);
  });

  it('also limits a username from many addresses, and an address trying many usernames', async () => {
    const t = await app({ LOGIN_USERNAME_MAX_PER_HOUR: '3', LOGIN_ADDRESS_MAX_PER_HOUR: '3' });
    const spread = [];
    for (let i = 0; i < 4; i++)
      spread.push(await login(t.app, 'target', 'guess-pass', {}, `10.0.0.${i + 1}`));
    expect(spread.map((r) => r.statusCode)).toEqual([401, 401, 401, 429]);
    expectTooMany(spread[3]!, /^Too many login attempts\..*minutes/);
    const stuffing = [];
    for (let i = 0; i < 4; i++) stuffing.push(await login(t.app, `user-${i}`, 'guess-pass', {}, '10.1.0.1'));
    expect(stuffing.map((r) => r.statusCode)).toEqual([401, 401, 401, 429]);
  });
});

describe('the password-check cap', () => {
  it('limits scrypt work per address across sign-up and login, whatever the usernames', async () => {
    const t = await app({ PASSWORD_CHECKS_PER_MINUTE: '5' });
    const register = (username: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { name: username, username, password: 'pass-word-1' },
        remoteAddress: '10.3.0.1',
      });
    expect((await register('one')).statusCode).toBe(201);
    expect((await register('two')).statusCode).toBe(201);
    const statuses = [];
    for (const name of ['one', 'two', 'x', 'y'])
      statuses.push((await login(t.app, name, 'pass-word-1', {}, '10.3.0.1')).statusCode);
    expect(statuses).toEqual([200, 200, 401, 429]);
    expectTooMany(await register('three'), /^Too many password checks from your address\./);
    // Another address has its own budget.
    expect((await login(t.app, 'one', 'pass-word-1', {}, '10.3.0.2')).statusCode).toBe(200);
  });
});

describe('the global request limit (RATE_LIMIT)', () => {
  it('answers 429 in the one error shape once an address passes it, other addresses and health unaffected', async () => {
    const t = await app({ RATE_LIMIT: '5' });
    const get = (url: string, remoteAddress = '10.4.0.1') =>
      t.app.inject({ method: 'GET', url, remoteAddress });
    for (let i = 0; i < 5; i++) expect((await get('/api/dashboard')).statusCode).toBe(401);
    expectTooMany(await get('/api/dashboard'), /^Too many requests from your address\./);
    expectTooMany(await get('/api/auth/nowhere'), /^Too many requests from your address\./);
    expect((await get('/api/health')).statusCode).toBe(200);
    expect((await get('/api/dashboard', '10.4.0.2')).statusCode).toBe(401);
  });

  it('is off with RATE_LIMIT=0', async () => {
    const t = await app({ RATE_LIMIT: '0' });
    for (let i = 0; i < 30; i++)
      expect((await t.app.inject({ method: 'GET', url: '/api/dashboard' })).statusCode).toBe(401);
  });
});

describe('TRUST_PROXY', () => {
  const forwardedFor = (address: string) => ({ 'x-forwarded-for': address });

  it('off (the default): X-Forwarded-For is ignored, so a forged one buys no fresh budget', async () => {
    const t = await app({ RATE_LIMIT: '3', LOGIN_MAX_ATTEMPTS: '2' });
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (
          await t.app.inject({
            method: 'GET',
            url: '/api/dashboard',
            headers: forwardedFor(`203.0.113.${i}`),
          })
        ).statusCode,
      );
    expect(statuses).toEqual([401, 401, 401, 429]);
    const logins = await app({ LOGIN_MAX_ATTEMPTS: '2' });
    const guesses = [];
    for (let i = 0; i < 3; i++)
      guesses.push(
        (await login(logins.app, 'asha', 'guess-pass', forwardedFor(`203.0.113.${i}`))).statusCode,
      );
    expect(guesses).toEqual([401, 401, 429]);
  });

  it('with the proxy count: each client behind the load balancer is limited on its own address', async () => {
    const t = await app({ RATE_LIMIT: '3', TRUST_PROXY: '1' });
    const from = (client: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/dashboard',
        headers: forwardedFor(client),
        remoteAddress: '10.0.0.1',
      });
    for (let i = 0; i < 3; i++) expect((await from('198.51.100.7')).statusCode).toBe(401);
    expect((await from('198.51.100.7')).statusCode).toBe(429);
    expect((await from('198.51.100.8')).statusCode).toBe(401);
    // A client's own forged hop in front of the real one is not believed: one proxy, one hop.
    expect((await from('1.2.3.4, 198.51.100.7')).statusCode).toBe(429);
  });

  it('with the proxies’ addresses: only those are believed', async () => {
    const t = await app({ RATE_LIMIT: '2', TRUST_PROXY: '10.0.0.0/8' });
    const viaProxy = (client: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/dashboard',
        headers: forwardedFor(client),
        remoteAddress: '10.0.0.1',
      });
    const direct = (client: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/dashboard',
        headers: forwardedFor(client),
        remoteAddress: '192.0.2.50',
      });
    expect((await viaProxy('198.51.100.1')).statusCode).toBe(401);
    expect((await viaProxy('198.51.100.2')).statusCode).toBe(401);
    expect((await direct('198.51.100.3')).statusCode).toBe(401);
    expect((await direct('198.51.100.4')).statusCode).toBe(401);
    expect((await direct('198.51.100.5')).statusCode).toBe(429);
  });
});

describe('REDIS_URL', () => {
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redisUp = async () => {
    const { Redis } = await import('ioredis');
    const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000 });
    try {
      await probe.connect();
      await probe.ping();
      return true;
    } catch {
      return false;
    } finally {
      probe.disconnect();
    }
  };

  it('counts the login limit in Redis, shared by two API processes with separate databases', async (ctx) => {
    if (!(await redisUp())) ctx.skip();
    // A username of its own per run, so counts left in Redis by an earlier run do not matter.
    const username = `redis-${Date.now().toString(36)}`;
    // An address of its own too: the per-address counts in Redis outlive every earlier run.
    const address = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    const one = await app({ REDIS_URL: redisUrl, LOGIN_MAX_ATTEMPTS: '4' });
    const two = await app({ REDIS_URL: redisUrl, LOGIN_MAX_ATTEMPTS: '4' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await login(i % 2 ? two.app : one.app, username, `guess-${i}`, {}, address)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    const more = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        login(i % 2 ? two.app : one.app, username, 'guess-pass', {}, address),
      ),
    );
    expect(more.every((res) => res.statusCode === 429)).toBe(true);
  });

  it('stops the start with a message naming it when Redis does not answer', async () => {
    await expect(createTestApp({ REDIS_URL: 'redis://127.0.0.1:1' })).rejects.toThrow(
      /REDIS_URL: cannot connect to redis:\/\/127\.0\.0\.1:1/,
    );
  });
});

describe('addressKey', () => {
  it('counts IPv4 as it is, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64', () => {
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
