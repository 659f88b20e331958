import { describe, expect, it } from 'vitest';
import { WriteBatch } from './write-batch.ts';

describe('a write batch', () => {
  it('writes together what is asked in one turn, and settles each caller once its batch is written', async () => {
    const written: number[][] = [];
    const batch = new WriteBatch<number>(async (items) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      written.push(items);
    });
    const first = [1, 2, 3].map((n) => batch.add(n));
    expect(written).toEqual([]);
    await Promise.all(first);
    expect(written).toEqual([[1, 2, 3]]);
    await Promise.all([batch.add(4), batch.add(5)]);
    expect(written).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('writes a failed batch again, whole, and settles its callers once it is written', async () => {
    let failures = 2;
    const written: string[][] = [];
    const batch = new WriteBatch<string>(
      async (items) => {
        if (failures-- > 0) throw new Error('timeout exceeded when trying to connect');
        written.push(items);
      },
      [1, 1],
    );
    await Promise.all([batch.add('a'), batch.add('b')]);
    expect(written).toEqual([['a', 'b']]);
  });

  it('fails every caller of a batch whose write failed each time, and writes the next batch', async () => {
    let fail = true;
    const written: string[][] = [];
    const batch = new WriteBatch<string>(
      async (items) => {
        if (fail) throw new Error('database is locked');
        written.push(items);
      },
      [1],
    );
    const outcomes = await Promise.allSettled([batch.add('a'), batch.add('b')]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toEqual(new Error('database is locked'));
    fail = false;
    await batch.add('c');
    expect(written).toEqual([['c']]);
  });
});
