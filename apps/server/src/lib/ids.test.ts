import { describe, expect, it } from 'vitest';
import { newId } from './ids.ts';

describe('newId', () => {
  it('makes UUIDv7s that are unique and sort in the order they were made', () => {
    const ids = Array.from({ length: 10_000 }, newId); // more than one pool of random bytes
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('starts with the time it was made', () => {
    const before = Date.now();
    const id = newId();
    const ms = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    // Ids made faster than 4,096 a millisecond run a little ahead of the clock.
    expect(ms).toBeLessThanOrEqual(Date.now() + 10);
  });
});
