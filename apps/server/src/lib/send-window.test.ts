import { describe, expect, it } from 'vitest';
import { closedMessage, isOpen, nextOpening, parseSendWindow, type SendWindow } from './send-window.ts';

const kolkata = parseSendWindow('08:00-19:00', 'Asia/Kolkata') as SendWindow;

describe('the sending window', () => {
  it('is open from 08:00 up to but not at 19:00 in its own time zone', () => {
    // Asia/Kolkata is UTC+05:30.
    expect(isOpen(kolkata, new Date('2026-11-23T02:29:00Z'))).toBe(false); // 07:59
    expect(isOpen(kolkata, new Date('2026-11-23T02:30:00Z'))).toBe(true); // 08:00
    expect(isOpen(kolkata, new Date('2026-11-23T13:29:00Z'))).toBe(true); // 18:59
    expect(isOpen(kolkata, new Date('2026-11-23T13:30:00Z'))).toBe(false); // 19:00
  });

  it('says when it opens next: later the same day, or the next morning', () => {
    expect(nextOpening(kolkata, new Date('2026-11-23T01:00:00Z')).toISOString()).toBe(
      '2026-11-23T02:30:00.000Z',
    );
    expect(nextOpening(kolkata, new Date('2026-11-23T15:00:00Z')).toISOString()).toBe(
      '2026-11-24T02:30:00.000Z',
    );
    // Seconds past the minute never move the opening off the hour.
    expect(nextOpening(kolkata, new Date('2026-11-23T15:00:36.500Z')).toISOString()).toBe(
      '2026-11-24T02:30:00.000Z',
    );
    expect(closedMessage(kolkata, new Date('2026-11-23T15:00:00Z'))).toBe(
      'Notices may be sent only between 08:00–19:00 (Asia/Kolkata). Sending opens again at 08:00 on Tue, 24 Nov (in 11 h 30 min).',
    );
  });

  it('follows daylight-saving changes in zones that have them', () => {
    const london = parseSendWindow('09:00-17:00', 'Europe/London') as SendWindow;
    // The clocks go back on 25 Oct 2026: 09:00 on the 26th is 09:00Z, not 08:00Z.
    expect(nextOpening(london, new Date('2026-10-24T20:00:00Z')).toISOString()).toBe(
      '2026-10-25T09:00:00.000Z',
    );
  });

  it('refuses a window it cannot read, saying why', () => {
    expect(parseSendWindow('8-19', 'Asia/Kolkata')).toMatch(/must look like 08:00-19:00/);
    expect(parseSendWindow('19:00-08:00', 'Asia/Kolkata')).toMatch(/must close after it opens/);
    expect(parseSendWindow('08:00-19:00', 'Mars/Olympus')).toMatch(/unknown time zone 'Mars\/Olympus'/);
  });
});
