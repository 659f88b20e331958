import { describe, expect, it } from 'vitest';
import { usernameKey, usernameProblem } from '@notice-desk/contract/auth';
import { usernameSkeleton } from './username-skeleton.ts';

describe('usernameProblem', () => {
  it.each([
    ['a carriage return and line feed', 'ctl\r\nBcc: x@evil.test', /control, invisible/],
    ['a line feed', 'asha\nadmin', /control, invisible/],
    ['a NUL', 'asha\u0000', /control, invisible/],
    ['a tab', 'as\tha', /control, invisible/],
    ['DEL', 'asha\u007f', /control, invisible/],
    ['a C1 control (NEL)', 'asha\u0085', /control, invisible/],
    ['a zero-width space', 'as\u200bha', /control, invisible/],
    ['a zero-width joiner', 'as\u200dha', /control, invisible/],
    ['a zero-width no-break space (BOM)', '\ufeffasha', /control, invisible/],
    ['a soft hyphen', 'as\u00adha', /control, invisible/],
    ['a right-to-left override', 'asha\u202egpj.exe', /control, invisible/],
    ['a left-to-right isolate', '\u2066asha', /control, invisible/],
    ['an Arabic letter mark', 'asha\u061c', /control, invisible/],
    ['a line separator', 'asha\u2028', /control, invisible/],
    ['a paragraph separator', 'asha\u2029', /control, invisible/],
    ['a Hangul filler', 'asha\u3164', /control, invisible/],
    ['a variation selector', 'asha\ufe0f', /control, invisible/],
    ['a tag character', 'asha\u{e0041}', /control, invisible/],
    ['a private-use character', 'asha\ue000', /control, invisible/],
    ['a lone surrogate', 'asha\ud800', /control, invisible/],
    ['an unassigned code point', 'asha\u0378', /control, invisible/],
    ['the blank Braille pattern', 'asha\u2800', /control, invisible/],
    ['a leading space', ' asha', /begin or end with a space/],
    ['a trailing space', 'asha ', /begin or end with a space/],
    ['a trailing no-break space', 'asha\u00a0', /begin or end with a space/],
    ['a leading ideographic space', '\u3000asha', /begin or end with a space/],
    ['only spaces', '   ', /Username is required!!/],
    ['only combining marks', '\u0301\u0302', /letter or a digit/],
    ['only punctuation', '.-_', /letter or a digit/],
    ['101 characters once normalised', 'ﷺ'.repeat(6), /at most 100 characters/],
  ])('refuses %s', (_what, username, message) => {
    expect(usernameProblem(username)).toMatch(message);
  });

  it.each(['asha', 'asha.rao@example.com', 'Asha Rao', 'रवि', 'ரவி', 'ಅಶಾ', 'user_1-2'])(
    'accepts %s',
    (username) => {
      expect(usernameProblem(username)).toBeNull();
    },
  );
});

describe('usernameKey', () => {
  it('is one key for every case and NFKC form of a name', () => {
    const pairs: [string, string][] = [
      ['Asha', 'aSHA'],
      ['ａｓｈａ', 'asha'], // full width
      ['Straße', 'STRASSE'],
      ['ﬁona', 'FIONA'], // ligature
      ['café', 'cafe\u0301'], // composed and decomposed
      ['ΟΔΟΣ', 'οδος'],
    ];
    for (const [a, b] of pairs) expect(usernameKey(a), `${a} ${b}`).toBe(usernameKey(b));
  });
});

describe('usernameSkeleton', () => {
  it.each([
    ['Cyrillic а for Latin a', 'аsha', 'asha'],
    ['Cyrillic о, е, р, с, х', 'рос.ех', 'poc.ex'],
    ['Greek ο and ν', 'νinοd', 'vinod'],
    ['a capital Greek Alpha', 'Αsha', 'asha'],
    ['0 for o', 'r0hit', 'rohit'],
    ['1 for l', 'ka1pana', 'kalpana'],
    ['capital I for l', 'Ialita', 'lalita'],
    ['rn for m', 'rnohan', 'mohan'],
    ['vv for w', 'vvasim', 'wasim'],
    ['cl for d', 'clinesh', 'dinesh'],
    ['an accent', 'josé', 'jose'],
    ['an en dash for a hyphen', 'ravi–k', 'ravi-k'],
    ['full-width letters', 'ｒａｖｉ', 'ravi'],
    ['Latin letter small capital s (U+A731)', 'ꜱita', 'sita'],
    ['Armenian օ for o', 'gօօgle', 'google'],
    ['a trailing dot after the domain', 'asha@example.com.', 'asha@example.com'],
    ['Cherokee Ꭺ for A', 'Ꭺsha', 'asha'],
    ['mathematical bold letters', '𝐫𝐚𝐯𝐢', 'ravi'],
  ])('folds %s', (_what, lookAlike, original) => {
    expect(usernameSkeleton(lookAlike)).toBe(usernameSkeleton(original));
  });

  it.each([
    ['asha', 'usha'],
    ['ravi', 'rave'],
    ['रवि', 'रव'],
    ['mohan', 'rohan'],
  ])('keeps %s and %s apart', (a, b) => {
    expect(usernameSkeleton(a)).not.toBe(usernameSkeleton(b));
  });
});
