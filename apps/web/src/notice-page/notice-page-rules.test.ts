import { describe, expect, it } from 'vitest';
import { RESPONSE_FILE_MAX_BYTES, responseFileTypes } from '@notice-desk/contract/notice-page';
import { DISPUTE_FILE_MAX_BYTES, disputeFileTypes, formatAt, lockOpensIn } from './notice-page-rules.ts';

describe('the notice page rules', () => {
  it("keeps the contract's file limits (repeated to keep zod out of the page's bundle)", () => {
    expect(DISPUTE_FILE_MAX_BYTES).toBe(RESPONSE_FILE_MAX_BYTES);
    expect([...disputeFileTypes]).toEqual([...responseFileTypes]);
  });

  it("writes times as DD-MM-YYYY HH:mm in the notice's zone, not the visitor's, and an unreadable time as it came", () => {
    expect(formatAt('2026-05-02T03:35:00Z', 'Asia/Kolkata')).toBe('02-05-2026 09:05 IST');
    // 23:50 IST is still that day in India, though the next in no zone west of it.
    expect(formatAt('2026-12-31T18:20:00Z', 'Asia/Kolkata')).toBe('31-12-2026 23:50 IST');
    expect(formatAt('2026-12-31T18:20:00Z', 'Asia/Kathmandu')).toBe('01-01-2027 00:05 Asia/Kathmandu');
    expect(formatAt('not a time', 'Asia/Kolkata')).toBe('not a time');
  });

  it('says when a lock opens in words, in minutes within the hour and in hours past 90 minutes', () => {
    const now = new Date('2026-05-12T05:00:00Z');
    expect(lockOpensIn('2026-05-12T05:59:30Z', now, 'en')).toMatch(/^in 60 minutes \(.+\)$/);
    expect(lockOpensIn('2026-05-12T05:00:10Z', now, 'en')).toMatch(/^in 1 minute \(/);
    expect(lockOpensIn('2026-05-12T08:00:00Z', now, 'en')).toMatch(/^in 3 hours \(/);
    expect(lockOpensIn('2026-05-12T05:30:00Z', now, 'hi')).toMatch(/30 मिनट में/);
  });
});
