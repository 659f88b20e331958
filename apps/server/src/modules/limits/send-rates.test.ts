import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { createTestDatabase } from '../../test/app.ts';
import type { Database } from '../../db/database.ts';
import { databaseLimiters } from './limits.service.ts';
import { SendRates } from './send-rates.ts';

let db: Database;
let close: () => Promise<void>;
beforeEach(async () => ({ db, close } = await createTestDatabase()));
afterEach(() => close());

describe('provider limits', () => {
  it('holds a rate across two processes’ limiters sharing one database: 120 messages at 40/s take about 3 s', async () => {
    // Two SendRates on one database are two worker processes: each counts in the same bucket.
    const workers = [
      new SendRates(databaseLimiters(db), { whatsapp: 40 }),
      new SendRates(databaseLimiters(db), { whatsapp: 40 }),
    ];
    const times: number[] = [];
    const start = Date.now();
    await Promise.all(
      Array.from({ length: 120 }, async (_, i) => {
        await workers[i % 2]!.take('whatsapp');
        times.push(Date.now() - start);
      }),
    );
    times.sort((a, b) => a - b);
    // Three buckets of 40: the 81st message cannot go before two seconds have begun again.
    expect(times[119]).toBeGreaterThanOrEqual(1_900);
    // No one-second span holds more than the rate (within one window's edge: at most twice, never more).
    for (let i = 0; i < times.length; i++) {
      const inSecond = times.filter((t) => t >= times[i]! && t < times[i]! + 1000).length;
      expect(inSecond).toBeLessThanOrEqual(80);
    }
    expect(times.filter((t) => t < 1000 - 50).length).toBeLessThanOrEqual(40);
  });

  it('leaves a channel without a provider (the outbox) unlimited, and says each limit', async () => {
    const rates = new SendRates(databaseLimiters(db), { email: 5 });
    const start = Date.now();
    for (let i = 0; i < 200; i++) await rates.take('whatsapp');
    expect(Date.now() - start).toBeLessThan(1000);
    expect(rates.limitOf('email')).toBe(5);
    expect(rates.limitOf('whatsapp')).toBeNull();
  });

  it('keeps no bucket for an unlimited rate: its messages write nothing to the store', async () => {
    const rates = new SendRates(databaseLimiters(db), { whatsapp: null, email: 1000 });
    for (let i = 0; i < 50; i++) await rates.take('whatsapp');
    expect(rates.limitOf('whatsapp')).toBeNull();
    expect(await db.selectFrom('rate_limits').selectAll().execute()).toEqual([]);
    await rates.take('email');
    expect(await db.selectFrom('rate_limits').select('key').execute()).toHaveLength(1);
  });

  it('stops waiting when its job is stopped', async () => {
    const rates = new SendRates(databaseLimiters(db), { email: 1 });
    await rates.take('email');
    const stop = new AbortController();
    const waiting = rates.take('email', stop.signal);
    setTimeout(() => stop.abort(new Error('stopped')), 50);
    await expect(waiting).rejects.toThrow('stopped');
  });

  it('refuses a rate of 0, a negative, a fraction or a word at start, naming the setting; takes unlimited', () => {
    for (const name of ['WHATSAPP_RATE', 'SMTP_RATE'])
      for (const value of ['0', '-5', '2.5', 'fast', '100001'])
        expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(
          `${name}: ${name} must be a whole number of messages a second from 1 to 100000, such as 20, or unlimited`,
        );
    expect(loadConfig({}).rates).toEqual({ whatsapp: 20, email: 10, sms: 10 });
    expect(loadConfig({ WHATSAPP_RATE: '80', SMTP_RATE: '1' }).rates).toEqual({
      whatsapp: 80,
      email: 1,
      sms: 10,
    });
    expect(loadConfig({ WHATSAPP_RATE: 'unlimited', SMTP_RATE: 'Unlimited' }).rates).toEqual({
      whatsapp: null,
      email: null,
      sms: 10,
    });
  });
});
