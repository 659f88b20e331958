import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalArticleNumber, s10CheckDigit, s10Problem } from '@notice-desk/contract/post';

describe('UPU S10 article numbers', () => {
  it('computes the check digit with weights 8 6 4 2 3 5 9 7, 10 → 0 and 11 → 5', () => {
    expect(s10CheckDigit('12345678')).toBe(5); // 204 % 11 = 6 → 5
    expect(s10CheckDigit('00000000')).toBe(5); // sum 0 → 11 → 5
    expect(s10CheckDigit('00000001')).toBe(4); // 7 → 4
    expect(s10CheckDigit('00300000')).toBe(0); // 12 % 11 = 1 → 10 → 0
    expect(s10Problem('EE123456785IN')).toBeNull();
    expect(normalArticleNumber(' ee 1234 5678 5 in ')).toBe('EE123456785IN');
  });

  it('refuses every single-digit change the check digit can catch, naming characters 3–11', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{8}$/),
        fc.integer({ min: 2, max: 10 }),
        fc.integer({ min: 1, max: 9 }),
        (serial, at, add) => {
          const good = `RU${serial}${s10CheckDigit(serial)}IN`;
          const wrong = `${good.slice(0, at)}${(Number(good[at]) + add) % 10}${good.slice(at + 1)}`;
          const problem = s10Problem(wrong);
          if (s10CheckDigit(wrong.slice(2, 10)) === Number(wrong[10])) expect(problem).toBeNull();
          else expect(problem).toContain('the check digit (character 11)');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('names the position of a letter where a digit goes, a digit where a letter goes, and the country', () => {
    expect(s10Problem('EEX23456785IN')).toContain("character 3 is 'X'");
    expect(s10Problem('E1123456785IN')).toContain("character 2 is '1'");
    expect(s10Problem('EE12345678511')).toContain("character 12 is '1'");
    expect(s10Problem('EE123456785GB')).toContain('characters 12–13');
    expect(s10Problem('EE1234567851IN')).toContain('14 characters');
    expect(s10Problem('')).toContain('0 characters');
  });
});
