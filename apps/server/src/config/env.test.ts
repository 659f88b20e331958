import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.ts';

describe('configuration', () => {
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

  it('reads quiet hours, in Asia/Kolkata unless told otherwise', () => {
    expect(loadConfig({ SEND_HOURS: '08:00-19:00' }).sendWindow).toMatchObject({
      opens: 8 * 60,
      closes: 19 * 60,
      timeZone: 'Asia/Kolkata',
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

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX must be a whole number from 1 to 200'],
    [{ DATABASE_POOL_MAX: 'ten' }, 'DATABASE_POOL_MAX must be a whole number from 1 to 200'],
    [{ DATABASE_STATEMENT_TIMEOUT: '60' }, 'DATABASE_STATEMENT_TIMEOUT must look like 30s, 15m, 12h or 30d'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be unset (SQLite) or start with postgres://'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET must be at least 32 characters'],
    [{ SESSION_TTL: '12 hours' }, 'SESSION_TTL must look like 30s, 15m, 12h or 30d'],
    [{ RUN_JOBS: 'yes' }, 'RUN_JOBS must be true or false'],
    [{ JOB_RETRY_BACKOFF: '2 seconds' }, 'JOB_RETRY_BACKOFF must look like 500ms, 2s or 1m'],
    [{ JOB_RETRY_BACKOFF: '0s' }, 'JOB_RETRY_BACKOFF must be more than 0'],
    [{ DEFAULT_COUNTRY_CODE: '+91' }, 'DEFAULT_COUNTRY_CODE must be 1 to 3 digits'],
    [{ SEND_HOURS: '8 to 7' }, 'SEND_HOURS (with SEND_HOURS_TIMEZONE): must look like 08:00-19:00'],
    [{ SEND_HOURS: '08:00-19:00', SEND_HOURS_TIMEZONE: 'India' }, "unknown time zone 'India'"],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
