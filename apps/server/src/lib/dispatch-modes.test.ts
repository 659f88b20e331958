import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dispatchChannels,
  parseDispatchModes,
  postalChannelOf,
  type DispatchChannel,
} from './dispatch-modes.ts';

/** Spellings staff's sheets carry, per channel. */
const spellings: Record<DispatchChannel, string[]> = {
  email: ['Email', 'E-mail', 'EMAIL', 'e mail', 'Mail', 'Email ID'],
  whatsapp: ['WhatsApp', 'whatsapp', 'Whats App', 'WA', 'Watsapp'],
  sms: ['SMS', 'sms', 'Text message'],
  speed_post: ['Speed Post', 'SP', 'speedpost', 'S.P.', 'By Speed Post', 'Speed Post A.D.'],
  rpad: [
    'RPAD',
    'R.P.A.D.',
    'Registered Post',
    'Regd. A.D.',
    'Regd Post AD',
    'Registered A.D.',
    'REGD. POST',
  ],
  courier: ['Courier', 'COURIER', 'By Courier', 'currier'],
};

describe('Mode Of Dispatch', () => {
  it('reads every known spelling of every channel, whatever its case and spacing', () => {
    for (const [channel, names] of Object.entries(spellings))
      for (const name of names)
        expect(parseDispatchModes(name), name).toEqual({ channels: [channel], unknown: [] });
  });

  it('reads lists joined by commas, slashes, ampersands, plus, semicolons and the word and', () => {
    expect(parseDispatchModes('Email, Speed Post').channels).toEqual(['email', 'speed_post']);
    expect(parseDispatchModes('Email & SP').channels).toEqual(['email', 'speed_post']);
    expect(parseDispatchModes('email/whatsapp').channels).toEqual(['email', 'whatsapp']);
    expect(parseDispatchModes('RPAD + SMS; Courier').channels).toEqual(['sms', 'rpad', 'courier']);
    expect(parseDispatchModes('Email and WhatsApp').channels).toEqual(['email', 'whatsapp']);
  });

  it('flags what it cannot read, never guessing: a bare Post names no one service', () => {
    expect(parseDispatchModes('Post')).toEqual({ channels: [], unknown: ['Post'] });
    expect(parseDispatchModes('Email, Pigeon')).toEqual({ channels: ['email'], unknown: ['Pigeon'] });
    expect(parseDispatchModes('')).toEqual({ channels: [], unknown: [] });
    expect(parseDispatchModes(' , / ')).toEqual({ channels: [], unknown: [] });
    expect(postalChannelOf('Post')).toBeUndefined();
    expect(postalChannelOf('Email, Regd. A.D.')).toBe('rpad');
  });

  it('any list of known spellings, in any order, separators and case, reads as exactly its channels', () => {
    const spelling = fc.constantFrom(
      ...Object.entries(spellings).flatMap(([c, names]) => names.map((n) => [c, n] as const)),
    );
    const separator = fc.constantFrom(', ', ',', ' / ', '/', ' & ', '&', ' + ', '; ', ' and ', '\n');
    const casing = fc.constantFrom(
      (s: string) => s,
      (s: string) => s.toUpperCase(),
      (s: string) => s.toLowerCase(),
    );
    fc.assert(
      fc.property(
        fc.array(spelling, { minLength: 1, maxLength: 6 }),
        separator,
        casing,
        (parts, sep, cased) => {
          const modes = parseDispatchModes(cased(parts.map(([, name]) => name).join(sep)));
          expect(modes.unknown).toEqual([]);
          expect(modes.channels).toEqual(
            dispatchChannels.filter((c) => parts.some(([channel]) => channel === c)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws, and every part of any text is either a channel or flagged as unknown', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const modes = parseDispatchModes(text);
        for (const part of modes.unknown) expect(part.length).toBeLessThanOrEqual(80);
        expect(new Set(modes.channels).size).toBe(modes.channels.length);
      }),
      { numRuns: 500 },
    );
  });
});
