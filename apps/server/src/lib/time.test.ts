import { describe, expect, it } from 'vitest';
import { startOfDayIn, wallClockMs } from './time.ts';

describe('wallClockMs', () => {
  it('gives the time an instant shows in a zone, as a UTC instant with the same fields', () => {
    const at = Date.parse('2024-05-20T08:35:09.250Z');
    expect(wallClockMs(at, 'Asia/Kolkata')).toBe(Date.UTC(2024, 4, 20, 14, 5, 9, 250));
    expect(wallClockMs(at, 'UTC')).toBe(at);
    expect(wallClockMs(Date.parse('2024-05-19T18:30:00Z'), 'Asia/Kolkata')).toBe(Date.UTC(2024, 4, 20));
    expect(wallClockMs(Date.parse('2024-07-01T04:00:00Z'), 'America/New_York')).toBe(Date.UTC(2024, 6, 1));
  });
});

describe('startOfDayIn', () => {
  it('gives the instant a day begins in a zone, across a change of clocks, and the days after it', () => {
    expect(startOfDayIn('2024-05-20', 'Asia/Kolkata')).toBe('2024-05-19T18:30:00.000Z');
    expect(startOfDayIn('2024-05-20', 'Asia/Kolkata', 1)).toBe('2024-05-20T18:30:00.000Z');
    expect(startOfDayIn('2024-12-31', 'Asia/Kolkata', 1)).toBe('2024-12-31T18:30:00.000Z');
    expect(startOfDayIn('2024-05-20', 'UTC')).toBe('2024-05-20T00:00:00.000Z');
    expect(startOfDayIn('2024-03-10', 'America/New_York')).toBe('2024-03-10T05:00:00.000Z');
    expect(startOfDayIn('2024-03-11', 'America/New_York')).toBe('2024-03-11T04:00:00.000Z');
    expect(startOfDayIn('0050-01-01', 'UTC')).toBe('0050-01-01T00:00:00.000Z');
  });

  it('gives no instant past the year 9999, which ISO text cannot compare', () => {
    expect(startOfDayIn('9999-12-31', 'UTC', 1)).toBeUndefined();
    expect(startOfDayIn('9999-12-31', 'Asia/Kolkata')).toBe('9999-12-30T18:30:00.000Z');
  });
});
