import { describe, expect, it } from 'vitest';
import { formatCreditCardListDate, formatListDate } from './format-date.ts';

describe('formatCreditCardListDate', () => {
  it("replaces only the first '.' with '-'", () => {
    expect(formatCreditCardListDate('12.05.2024')).toBe('12-05.2024');
    expect(formatCreditCardListDate('1.2')).toBe('1-2');
  });

  it("leaves a date without '.' as it is", () => {
    expect(formatCreditCardListDate('2024-05-12')).toBe('2024-05-12');
    expect(formatCreditCardListDate('')).toBe('');
  });
});

describe('formatListDate', () => {
  it("formats as 'MMM Do YY' with the ordinal day", () => {
    // Midday, so the day is the same in every time zone the tests may run in.
    expect(formatListDate('2025-03-01T12:00:00.000Z')).toBe('Mar 1st 25');
    expect(formatListDate('2024-11-22T12:00:00.000Z')).toBe('Nov 22nd 24');
    expect(formatListDate('2024-12-13T12:00:00.000Z')).toBe('Dec 13th 24');
  });

  it('shows nothing for a missing date and the raw text for one it cannot read', () => {
    expect(formatListDate('')).toBe('');
    expect(formatListDate(undefined)).toBe('');
    expect(formatListDate('not a date')).toBe('not a date');
  });
});
