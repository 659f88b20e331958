import { describe, expect, it } from 'vitest';
import { KeptCounts, type CountedAt } from './kept-counts.ts';

/** A computation of the counts that says how often it ran; `records` tells one answer from another. */
function counter(until = Infinity) {
  let runs = 0;
  return {
    get runs() {
      return runs;
    },
    count: async (): Promise<CountedAt> => {
      runs += 1;
      const records = runs;
      return {
        counts: {
          completedCounts: 0,
          statusCounts: [],
          notServiceable: { email: 0, whatsapp: 0 },
          serviceCounts: {
            opened: 0,
            acknowledged: 0,
            disputed: 0,
            respond_by_passed: 0,
            respond_by_within_7_days: 0,
          },
        },
        records,
        until,
      };
    },
  };
}

const key = (version: number, campaign = 'owner:campaign', windows = '[]') => ({
  campaign,
  version,
  windows,
});

describe('kept campaign counts', () => {
  it('are counted once per version and windows, and again when either moves', async () => {
    const kept = new KeptCounts();
    const c = counter();
    const count = c.count;
    expect((await kept.get(key(1), count)).records).toBe(1);
    expect((await kept.get(key(1), count)).records).toBe(1);
    expect(c.runs).toBe(1);
    expect((await kept.get(key(2), count)).records).toBe(2);
    expect((await kept.get(key(2, 'owner:campaign', '[{"before":"x"}]'), count)).records).toBe(3);
    expect((await kept.get(key(2, 'owner:other'), count)).records).toBe(4);
    expect((await kept.get(key(2, 'owner:campaign', '[{"before":"x"}]'), count)).records).toBe(3);
  });

  it('are counted once for readers that ask at the same time', async () => {
    const kept = new KeptCounts();
    const c = counter();
    const answers = await Promise.all([1, 2, 3].map(() => kept.get(key(7), c.count)));
    expect(answers.map((a) => a.records)).toEqual([1, 1, 1]);
    expect(c.runs).toBe(1);
  });

  it('are counted again once their until has passed', async () => {
    const kept = new KeptCounts();
    const c = counter(Date.now() - 1);
    await kept.get(key(1), c.count);
    await kept.get(key(1), c.count);
    expect(c.runs).toBe(2);
  });

  it('of a newer version are kept over those of a reader that read an older one', async () => {
    const kept = new KeptCounts();
    const c = counter();
    await kept.get(key(5), c.count);
    expect((await kept.get(key(4), c.count)).records).toBe(2);
    expect((await kept.get(key(5), c.count)).records).toBe(1);
  });

  it('are not kept when counting failed', async () => {
    const kept = new KeptCounts();
    await expect(kept.get(key(1), () => Promise.reject(new Error('database gone')))).rejects.toThrow(
      'database gone',
    );
    const c = counter();
    expect((await kept.get(key(1), c.count)).records).toBe(1);
  });

  it('are kept for the campaigns read most recently, up to the limit', async () => {
    const kept = new KeptCounts(2);
    const c = counter();
    await kept.get(key(1, 'a'), c.count);
    await kept.get(key(1, 'b'), c.count);
    await kept.get(key(1, 'a'), c.count);
    await kept.get(key(1, 'c'), c.count);
    expect(c.runs).toBe(3);
    // 'b' was the least recently read: it went.
    expect((await kept.get(key(1, 'a'), c.count)).records).toBe(1);
    expect((await kept.get(key(1, 'b'), c.count)).records).toBe(4);
  });
});
