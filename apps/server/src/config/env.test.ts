import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, requestLimitProblem } from './env.ts';

describe('configuration', () => {
  it('reads the deploy settings: JOB_CONCURRENCY per kind, MIGRATE_ON_START, METRICS_PORT, METRICS_TOKEN', () => {
    const defaults = loadConfig({});
    expect(defaults).toMatchObject({
      jobConcurrency: { import: 1, send: 4 },
      migrateOnStart: true,
      metricsPort: undefined,
      metricsToken: undefined,
    });
    expect(loadConfig({ JOB_CONCURRENCY: ' send:2 , import:1 ' }).jobConcurrency).toEqual({
      import: 1,
      send: 2,
    });
    expect(loadConfig({ JOB_CONCURRENCY: 'send:8' }).jobConcurrency).toEqual({ import: 1, send: 8 });
    for (const bad of [
      'send',
      'send:0',
      'send:65',
      'export:1',
      'send:-1',
      'send:1.5',
      'send:two',
      'send:1;import:1',
    ])
      expect(() => loadConfig({ JOB_CONCURRENCY: bad }), bad).toThrow(
        /JOB_CONCURRENCY must list kind:count pairs/,
      );
    for (const [name, bad, message] of [
      ['MIGRATE_ON_START', 'no', 'MIGRATE_ON_START must be true or false'],
      ['METRICS_PORT', '0', 'METRICS_PORT must be a port number from 1 to 65535'],
      ['METRICS_PORT', '65536', 'METRICS_PORT must be a port number from 1 to 65535'],
      ['METRICS_PORT', 'http', 'METRICS_PORT must be a port number from 1 to 65535'],
      ['METRICS_TOKEN', 'short', 'METRICS_TOKEN must be at least 16 characters'],
    ])
      expect(() => loadConfig({ [name!]: bad }), `${name}=${bad}`).toThrow(message);
  });

  it('refuses a per-process request limit in the several-process shape, unless Redis shares it', () => {
    expect(requestLimitProblem(loadConfig({}))).toBeUndefined();
    expect(requestLimitProblem(loadConfig({ MIGRATE_ON_START: 'false' }))).toMatch(
      /RATE_LIMIT: with several processes \(MIGRATE_ON_START=false\) the request limit must be shared: set REDIS_URL/,
    );
    expect(
      requestLimitProblem(loadConfig({ MIGRATE_ON_START: 'false', REDIS_URL: 'redis://r:6379' })),
    ).toBeUndefined();
    expect(requestLimitProblem(loadConfig({ MIGRATE_ON_START: 'false', RATE_LIMIT: '0' }))).toBeUndefined();
  });

  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      sessionTtlSeconds: 12 * 3600,
      runJobs: true,
    });
    expect(config.dataDir).toMatch(/data$/);
    expect(config.sendWindow).toBeUndefined();
  });

  it('reads the notice page’s sender, payee and number, and stops on a payee or number that is not one', () => {
    expect(loadConfig({}).noticePage).toMatchObject({
      firmName: 'Notice Desk',
      firmAddress: '',
      upiPayeeVpa: undefined,
      callUsNumber: undefined,
      perCodePerMinute: 60,
      perAddressPerMinute: 300,
    });
    expect(
      loadConfig({ UPI_PAYEE_VPA: 'rao.iyer@okaxis', CALL_US_NUMBER: '+91 80 4000 1234' }).noticePage,
    ).toMatchObject({ upiPayeeVpa: 'rao.iyer@okaxis', callUsNumber: '+91 80 4000 1234' });
    for (const [name, value] of [
      ['UPI_PAYEE_VPA', 'rao iyer'],
      ['UPI_PAYEE_VPA', 'a&pn=x@okaxis'],
      ['CALL_US_NUMBER', 'call us'],
      ['NOTICE_PAGE_CODE_PER_MINUTE', '-1'],
    ] as const)
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(name));
  });

  it('reads quiet hours, in Asia/Kolkata unless told otherwise', () => {
    expect(loadConfig({ SEND_HOURS: '08:00-19:00' }).sendWindow).toMatchObject({
      opens: 8 * 60,
      closes: 19 * 60,
      timeZone: 'Asia/Kolkata',
    });
  });

  it('reads documents in en-IN and Asia/Kolkata unless told otherwise; quiet hours follow TIME_ZONE', () => {
    expect(loadConfig({})).toMatchObject({ locale: 'en-IN', timeZone: 'Asia/Kolkata' });
    expect(loadConfig({ LOCALE: 'hi-in', TIME_ZONE: 'Asia/Dubai' })).toMatchObject({
      locale: 'hi-IN',
      timeZone: 'Asia/Dubai',
    });
    expect(loadConfig({ TIME_ZONE: 'UTC', SEND_HOURS: '08:00-19:00' }).sendWindow?.timeZone).toBe('UTC');
    expect(
      loadConfig({ TIME_ZONE: 'UTC', SEND_HOURS: '08:00-19:00', SEND_HOURS_TIMEZONE: 'Asia/Kolkata' })
        .sendWindow?.timeZone,
    ).toBe('Asia/Kolkata');
  });

  it('reads every duration in one grammar (ms): 500ms, 2s, 1m, 1.5h, 12 hours, 30d', () => {
    expect(loadConfig({ SESSION_TTL: '12 hours', WEBHOOK_MAX_AGE: '1.5h' })).toMatchObject({
      sessionTtlSeconds: 12 * 3600,
      webhookMaxAgeSeconds: 5400,
    });
    expect(loadConfig({})).toMatchObject({ jobLeaseMs: 30_000, jobRetentionMs: 30 * 86_400_000 });
    expect(loadConfig({ JOB_LEASE: '5s', JOB_RETENTION: '2 weeks' })).toMatchObject({
      jobLeaseMs: 5000,
      jobRetentionMs: 14 * 86_400_000,
    });
  });

  it('reads the retry backoff in ms, s or m, 2 s unless told otherwise', () => {
    expect(loadConfig({}).jobRetryBackoffMs).toBe(2000);
    expect(loadConfig({ JOB_RETRY_BACKOFF: '200ms' }).jobRetryBackoffMs).toBe(200);
    expect(loadConfig({ JOB_RETRY_BACKOFF: '1m' }).jobRetryBackoffMs).toBe(60_000);
  });

  it('sizes the PostgreSQL pool and times statements out, 10 and 5 minutes unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ databasePoolMax: 10, databaseStatementTimeoutMs: 300_000 });
    expect(loadConfig({ DATABASE_POOL_MAX: '40', DATABASE_STATEMENT_TIMEOUT: '30s' })).toMatchObject({
      databasePoolMax: 40,
      databaseStatementTimeoutMs: 30_000,
    });
  });

  it('refuses webhook events older than WEBHOOK_MAX_AGE, 7 days unless told otherwise', () => {
    expect(loadConfig({}).webhookMaxAgeSeconds).toBe(7 * 86_400);
    expect(loadConfig({ WEBHOOK_MAX_AGE: '36h' }).webhookMaxAgeSeconds).toBe(36 * 3600);
  });

  it('reads the account limits, sign-up, the proxy setting and the request limit, with their defaults', () => {
    expect(loadConfig({})).toMatchObject({
      limits: {
        loginMaxAttempts: 10,
        loginWindowSeconds: 60,
        loginUsernameMaxPerHour: 100,
        loginAddressMaxPerHour: 100,
        passwordChecksPerMinute: 120,
        resetMailsPerHour: 3,
      },
      rateLimitPerMinute: 20_000,
      signup: 'open',
      trustProxy: false,
      redisUrl: undefined,
    });
    expect(
      loadConfig({
        SIGNUP: 'first-only',
        RATE_LIMIT: '0',
        PASSWORD_CHECKS_PER_MINUTE: '0',
        RESET_MAILS_PER_HOUR: '5',
        REDIS_URL: 'redis://cache:6379',
      }),
    ).toMatchObject({
      signup: 'first-only',
      rateLimitPerMinute: 0,
      limits: { passwordChecksPerMinute: 0, resetMailsPerHour: 5 },
      redisUrl: 'redis://cache:6379',
    });
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,loopback,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'loopback',
      '::1',
    ]);
  });

  it.each([
    [{ SIGNUP: 'invite-only' }, 'SIGNUP must be open, first-only or closed'],
    [{ TRUST_PROXY: 'true' }, "TRUST_PROXY: true would take any client's X-Forwarded-For"],
    [{ TRUST_PROXY: '11' }, 'TRUST_PROXY: 11 proxies is more than 10'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY: "10.0.0.0/33" is not an address'],
    [{ TRUST_PROXY: 'proxy.internal' }, 'TRUST_PROXY: "proxy.internal" is not an address'],
    [{ RATE_LIMIT: '-1' }, 'RATE_LIMIT must be a whole number from 0 to 10000000'],
    [{ RATE_LIMIT: 'lots' }, 'RATE_LIMIT must be a whole number from 0 to 10000000'],
    [{ LOGIN_MAX_ATTEMPTS: '0' }, 'LOGIN_MAX_ATTEMPTS must be a whole number from 1 to 10000'],
    [{ PASSWORD_CHECKS_PER_MINUTE: '1.5' }, 'PASSWORD_CHECKS_PER_MINUTE must be a whole number'],
    [{ RESET_MAILS_PER_HOUR: 'three' }, 'RESET_MAILS_PER_HOUR must be a whole number'],
    [{ LOGIN_USERNAME_MAX_PER_HOUR: '-5' }, 'LOGIN_USERNAME_MAX_PER_HOUR must be a whole number'],
    [{ LOGIN_ADDRESS_MAX_PER_HOUR: 'x' }, 'LOGIN_ADDRESS_MAX_PER_HOUR must be a whole number'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL must start with redis:// or rediss://'],
  ])('refuses %o with a message naming the variable (accounts and limits)', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX must be a whole number from 5 to 200'],
    // An import on PostgreSQL holds a connection for its whole run, up to 4 run at once (the in-process
    // worker's job slots), and their progress and the API need more.
    [{ DATABASE_POOL_MAX: '1' }, 'DATABASE_POOL_MAX must be a whole number from 5 to 200'],
    [{ DATABASE_POOL_MAX: '4' }, 'DATABASE_POOL_MAX must be a whole number from 5 to 200'],
    [{ DATABASE_POOL_MAX: 'ten' }, 'DATABASE_POOL_MAX must be a whole number from 5 to 200'],
    [
      { DATABASE_STATEMENT_TIMEOUT: '60' },
      'DATABASE_STATEMENT_TIMEOUT must be a length of time such as 500ms, 30s, 15m, 12h or 30d',
    ],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be unset (SQLite) or start with postgres://'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET must be at least 32 characters'],
    [
      { SESSION_TTL: '12 parsecs' },
      'SESSION_TTL must be a length of time such as 500ms, 30s, 15m, 12h or 30d',
    ],
    [{ SESSION_TTL: '1e400d' }, 'SESSION_TTL must be a length of time such as 500ms, 30s, 15m, 12h or 30d'],
    [{ RUN_JOBS: 'yes' }, 'RUN_JOBS must be true or false'],
    [
      { WEBHOOK_MAX_AGE: 'a week' },
      'WEBHOOK_MAX_AGE must be a length of time such as 500ms, 30s, 15m, 12h or 30d',
    ],
    [
      { WEBHOOK_MAX_AGE: '-1d' },
      'WEBHOOK_MAX_AGE must be a length of time such as 500ms, 30s, 15m, 12h or 30d',
    ],
    [{ WEBHOOK_MAX_AGE: '0d' }, 'WEBHOOK_MAX_AGE must be more than 0'],
    [
      { JOB_RETRY_BACKOFF: '2' },
      'JOB_RETRY_BACKOFF must be a length of time such as 500ms, 30s, 15m, 12h or 30d',
    ],
    [{ JOB_LEASE: '4s' }, 'JOB_LEASE must be at least 5 seconds'],
    [{ JOB_LEASE: '4999ms' }, 'JOB_LEASE must be at least 5 seconds'],
    [{ JOB_RETENTION: '0d' }, 'JOB_RETENTION must be more than 0'],
    [
      { JOB_RETENTION: 'forever' },
      'JOB_RETENTION must be a length of time such as 500ms, 30s, 15m, 12h or 30d',
    ],
    [{ JOB_RETRY_BACKOFF: '0s' }, 'JOB_RETRY_BACKOFF must be more than 0'],
    [{ DEFAULT_COUNTRY_CODE: '+91' }, 'DEFAULT_COUNTRY_CODE must be 1 to 3 digits'],
    [{ SEND_HOURS: '8 to 7' }, 'SEND_HOURS (with TIME_ZONE): must look like 08:00-19:00'],
    [
      { SEND_HOURS: '8 to 7', SEND_HOURS_TIMEZONE: 'UTC' },
      'SEND_HOURS (with SEND_HOURS_TIMEZONE): must look like 08:00-19:00',
    ],
    [{ LOCALE: 'en_IN' }, 'LOCALE: LOCALE "en_IN" is not a locale this server knows'],
    [{ LOCALE: 'zz-ZZ' }, 'LOCALE: LOCALE "zz-ZZ" is not a locale this server knows'],
    [{ LOCALE: 'English' }, 'LOCALE "English" is not a locale'],
    [
      { TIME_ZONE: 'Mars/Olympus' },
      'TIME_ZONE: TIME_ZONE "Mars/Olympus" is not a time zone this server knows',
    ],
    [{ TIME_ZONE: '+05:30' }, 'TIME_ZONE "+05:30" is not a time zone'],
    [{ SEND_HOURS: '08:00-19:00', SEND_HOURS_TIMEZONE: 'India' }, "unknown time zone 'India'"],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
