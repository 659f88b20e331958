import { describe, expect, it } from 'vitest';
import { compact, phonePrefix, recordTerms, wordsApart } from './search-terms.ts';

describe('search terms', () => {
  it('stores a name from each word on, identifiers without punctuation, mobiles as national digits', () => {
    expect([
      ...recordTerms('notice', {
        custName: ' Ravi  KUMAR-singh ',
        loanNo: 'LN-2024/07',
        custMobileNo: '+91 98450-12345',
      }),
    ]).toEqual([
      ['ravi kumar singh', 'custName'],
      ['kumar singh', 'custName'],
      ['singh', 'custName'],
      ['ln202407', 'loanNo'],
      ['9845012345', 'custMobileNo'],
    ]);
    expect([
      ...recordTerms('credit-card', {
        custName: 'José Ñandú',
        maskNo: 'XXXX XXXX XXXX 4321',
        custMobileNo: '09812300400',
        referenceNo: 'REF/77',
      }),
    ]).toEqual([
      ['josé ñandú', 'custName'],
      ['ñandú', 'custName'],
      ['xxxxxxxxxxxx4321', 'maskNo'],
      ['4321', 'maskNo'],
      ['9812300400', 'custMobileNo'],
      ['ref77', 'referenceNo'],
    ]);
  });

  it('reads a query the same way', () => {
    expect(compact('LN-2024/0')).toBe('ln20240');
    expect(wordsApart('Ravi  Kum')).toBe('ravi kum');
    expect(wordsApart('Ｒａｖｉ')).toBe('ravi'); // full-width letters, NFKC
  });

  it('reads a typed phone number as the start of national digits, and nothing else as one', () => {
    expect(phonePrefix('+91 98450')).toBe('98450');
    expect(phonePrefix('0091-98450')).toBe('98450');
    expect(phonePrefix('098450 12')).toBe('9845012');
    expect(phonePrefix('919845012345')).toBe('9845012345');
    expect(phonePrefix('91984')).toBe('91984'); // too short to carry a country code
    expect(phonePrefix('ravi')).toBeUndefined();
    expect(phonePrefix('LN-1')).toBeUndefined();
  });
});
