import { describe, expect, it } from 'vitest';
import {
  amountInWords,
  asciiDigits,
  formatDate,
  formatInr,
  groupIndian,
  parseAmount,
  parseDate,
  WORDS_MAX_DIGITS,
} from './indian-format.ts';

/** Text a record may hold that is no amount: each prints as it is, under every formatter. */
const notAmounts = [
  '',
  '   ',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e21',
  '1E+21',
  '1.5e3',
  '0x1F',
  'abc',
  'Rs.',
  '₹',
  '.',
  '-',
  '1,2,3',
  '12,5000',
  '1234,567',
  ',500',
  '500,',
  '1,00,0000',
  '1,000,00',
  '1 25 000',
  '1.2.3',
  '--500',
  '+-500',
  '(-500)',
  '₹₹500',
  '500 rupees',
  'five hundred',
  '१२x',
  '๑๒๓',
  '12.34.56',
  'null',
  'undefined',
  '[object Object]',
  '<b>500</b>',
];

/** Amounts with a fraction of a paisa: never rounded, printed as the record holds them. */
const fractionsOfAPaisa = ['125.505', '0.001', '-1.999', '1,25,000.125', '99.9999999', '10.0001'];

describe('parseAmount reads an amount as decimal text', () => {
  it.each([
    ['125000.5', { negative: false, rupees: '125000', paise: '50' }],
    ['1,25,000.50', { negative: false, rupees: '125000', paise: '50' }],
    ['125,000.50', { negative: false, rupees: '125000', paise: '50' }],
    ['Rs. 125000.50', { negative: false, rupees: '125000', paise: '50' }],
    ['rs 125000.50', { negative: false, rupees: '125000', paise: '50' }],
    ['₹ 1,25,000', { negative: false, rupees: '125000', paise: '00' }],
    ['INR 500/-', { negative: false, rupees: '500', paise: '00' }],
    ['Rs. 1,25,000/-', { negative: false, rupees: '125000', paise: '00' }],
    ['-500', { negative: true, rupees: '500', paise: '00' }],
    ['\u2212500', { negative: true, rupees: '500', paise: '00' }],
    ['-₹500', { negative: true, rupees: '500', paise: '00' }],
    ['₹-500', { negative: true, rupees: '500', paise: '00' }],
    ['Rs. - 500', { negative: true, rupees: '500', paise: '00' }],
    ['(1,000.5)', { negative: true, rupees: '1000', paise: '50' }],
    ['+7', { negative: false, rupees: '7', paise: '00' }],
    ['0', { negative: false, rupees: '0', paise: '00' }],
    ['-0.00', { negative: false, rupees: '0', paise: '00' }],
    ['007.1', { negative: false, rupees: '7', paise: '10' }],
    ['.5', { negative: false, rupees: '0', paise: '50' }],
    ['5.', { negative: false, rupees: '5', paise: '00' }],
    ['125.500', { negative: false, rupees: '125', paise: '50' }],
    ['125.5000000', { negative: false, rupees: '125', paise: '50' }],
    ['  1,25,000.50  ', { negative: false, rupees: '125000', paise: '50' }],
    ['\u00a01,000\u00a0', { negative: false, rupees: '1000', paise: '00' }],
    ['१,२५,०००.५०', { negative: false, rupees: '125000', paise: '50' }],
    ['௧௨௩', { negative: false, rupees: '123', paise: '00' }],
    ['۱۲۳٫', undefined],
    ['٣٤٥', { negative: false, rupees: '345', paise: '00' }],
  ])('%j', (text, amount) => {
    expect(parseAmount(text)).toEqual(amount);
  });

  it('keeps every digit of amounts far past a float’s precision', () => {
    const digits = '98765432109876543210987654321';
    expect(parseAmount(`${digits}.07`)).toEqual({ negative: false, rupees: digits, paise: '07' });
    expect(formatInr('9007199254740993.01')).toBe('₹9,00,71,99,25,47,40,993.01');
  });

  it('finds no amount in text that is none, and never in a fraction of a paisa', () => {
    for (const text of [...notAmounts, ...fractionsOfAPaisa]) expect(parseAmount(text), text).toBeUndefined();
  });
});

describe('groupIndian', () => {
  it('puts the last three digits apart, then every two', () => {
    const cases: [string, string][] = [
      ['0', '0'],
      ['999', '999'],
      ['1000', '1,000'],
      ['12345', '12,345'],
      ['125000', '1,25,000'],
      ['1234567', '12,34,567'],
      ['10000000', '1,00,00,000'],
      ['100000000000000', '10,00,00,00,00,00,000'],
    ];
    for (const [digits, grouped] of cases) expect(groupIndian(digits)).toBe(grouped);
  });

  it('groups any length, and ungrouping gives the digits back', () => {
    for (let length = 1; length <= 40; length++) {
      const digits = `9${'0123456789'.repeat(4)}`.slice(0, length);
      const grouped = groupIndian(digits);
      expect(grouped.replace(/,/g, '')).toBe(digits);
      expect(grouped).toMatch(/^(\d{1,2},)?(\d{2},)*\d{1,3}$/);
      if (length > 3) expect(grouped).toMatch(/,\d{3}$/);
    }
  });
});

describe('formatInr ({{field | inr}})', () => {
  it.each([
    ['125000.5', '₹1,25,000.50'],
    ['1,25,000.50', '₹1,25,000.50'],
    ['Rs. 125000.50', '₹1,25,000.50'],
    ['₹ 1,25,000', '₹1,25,000.00'],
    ['1,250,000', '₹12,50,000.00'],
    ['-500', '-₹500.00'],
    ['(500)', '-₹500.00'],
    ['0', '₹0.00'],
    ['-0', '₹0.00'],
    ['0.5', '₹0.50'],
    ['10000000', '₹1,00,00,000.00'],
    ['१,२५,०००.५०', '₹1,25,000.50'],
    ['125.500', '₹125.50'],
  ])('%j → %s', (text, shown) => {
    expect(formatInr(text)).toBe(shown);
  });

  it('prints crores of crores with every digit', () => {
    expect(formatInr('123456789012345678901234.56')).toBe('₹1,23,45,67,89,01,23,45,67,89,01,234.56');
  });

  it('prints text that holds no amount, or a fraction of a paisa, exactly as the record holds it', () => {
    for (const text of [...notAmounts, ...fractionsOfAPaisa]) expect(formatInr(text), text).toBe(text);
  });

  it('gives either the record’s text or a well-formed rupee amount for any mix of amount characters', () => {
    const alphabet = ['1', '0', '5', ',', '.', '-', ' ', '₹', 'Rs.', '(', ')', '९', 'e', '/-'];
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: 1 + (next() % 12) }, () => alphabet[next() % alphabet.length]).join(
        '',
      );
      const shown = formatInr(text);
      if (shown !== text) expect(shown, text).toMatch(/^-?₹(\d{1,2},)*(\d{2},)*\d{1,3}\.\d{2}$/);
    }
  });
});

describe('amountInWords ({{field | words}})', () => {
  it.each([
    ['125000.50', 'One Lakh Twenty-Five Thousand Rupees and Fifty Paise'],
    ['1,25,000', 'One Lakh Twenty-Five Thousand Rupees'],
    ['0', 'Zero Rupees'],
    ['0.00', 'Zero Rupees'],
    ['1', 'One Rupee'],
    ['1.01', 'One Rupee and One Paisa'],
    ['2.02', 'Two Rupees and Two Paise'],
    ['0.5', 'Fifty Paise'],
    ['0.01', 'One Paisa'],
    ['0.99', 'Ninety-Nine Paise'],
    ['-500', 'Minus Five Hundred Rupees'],
    ['11', 'Eleven Rupees'],
    ['19', 'Nineteen Rupees'],
    ['20', 'Twenty Rupees'],
    ['21', 'Twenty-One Rupees'],
    ['100', 'One Hundred Rupees'],
    ['101', 'One Hundred One Rupees'],
    ['999', 'Nine Hundred Ninety-Nine Rupees'],
    ['1000', 'One Thousand Rupees'],
    ['100000', 'One Lakh Rupees'],
    ['1000001', 'Ten Lakh One Rupees'],
    ['10000000', 'One Crore Rupees'],
    ['12,34,56,789', 'Twelve Crore Thirty-Four Lakh Fifty-Six Thousand Seven Hundred Eighty-Nine Rupees'],
    ['1000000000000', 'One Lakh Crore Rupees'],
    ['100000000000000', 'One Crore Crore Rupees'],
    ['100000000000001', 'One Crore Crore One Rupees'],
    [
      '99999999999999999999.99',
      expect.stringMatching(
        /^Nine Lakh Ninety-Nine Thousand Nine Hundred Ninety-Nine Crore Crore .* Rupees and Ninety-Nine Paise$/,
      ),
    ],
    ['Rs. 1,25,000/-', 'One Lakh Twenty-Five Thousand Rupees'],
    ['२५', 'Twenty-Five Rupees'],
  ])('%j → %s', (text, said) => {
    expect(amountInWords(text)).toEqual(said);
  });

  it('says every amount up to WORDS_MAX_DIGITS digits in words of the Indian system only', () => {
    const vocabulary = new Set([
      ...'Zero One Two Three Four Five Six Seven Eight Nine Ten Eleven Twelve Thirteen Fourteen Fifteen Sixteen Seventeen Eighteen Nineteen'.split(
        ' ',
      ),
      ...'Twenty Thirty Forty Fifty Sixty Seventy Eighty Ninety Hundred Thousand Lakh Crore Rupee Rupees Paisa Paise and Minus'.split(
        ' ',
      ),
    ]);
    let seed = 11;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let length = 1; length <= WORDS_MAX_DIGITS; length++) {
      for (let i = 0; i < 20; i++) {
        const digits =
          String(1 + (next() % 9)) + Array.from({ length: length - 1 }, () => next() % 10).join('');
        const said = amountInWords(`${digits}.${String(next() % 100).padStart(2, '0')}`);
        for (const word of said.split(/[ -]/)) expect(vocabulary.has(word), `${digits}: ${said}`).toBe(true);
        expect(said).not.toMatch(/Million|Billion| {2}/);
      }
    }
  });

  it('prints as it is an amount longer than it says, text that holds no amount, and a fraction of a paisa', () => {
    const long = `1${'0'.repeat(WORDS_MAX_DIGITS)}`;
    expect(amountInWords(long)).toBe(long);
    for (const text of [...notAmounts, ...fractionsOfAPaisa]) expect(amountInWords(text), text).toBe(text);
  });
});

describe('asciiDigits', () => {
  it('turns the digits of India’s scripts into ASCII and leaves the rest', () => {
    expect(asciiDigits('०१२३४५६७८९ ০১২ ੦੧੨ ૦૧૨ ୦୧୨ ௦௧௨ ౦౧౨ ೦೧೨ ൦൧൨ ٠١٢ ۰۱۲ ０１２')).toBe(
      '0123456789 012 012 012 012 012 012 012 012 012 012 012',
    );
    expect(asciiDigits('Rs. ५०० only')).toBe('Rs. 500 only');
  });
});

const india = { locale: 'en-IN', timeZone: 'Asia/Kolkata' };
const us = { locale: 'en-US', timeZone: 'America/New_York' };

describe('formatDate ({{field | date}})', () => {
  it.each([
    '20.05.2024',
    '20/05/2024',
    '20-05-2024',
    '20 05 2024',
    '20/5/2024',
    '20/05/24',
    '2024-05-20',
    '2024/05/20',
    '2024.5.20',
    '20240520',
    '2024-05-20T00:00:00Z',
    '2024-05-20T00:00:00.000Z',
    '2024-05-19T18:30:00Z',
    '2024-05-20T10:00:00+05:30',
    '2024-05-20T10:00:00+0530',
    '2024-05-20T23:59:59+05:30',
    '2024-05-20T10:00:00',
    '2024-05-20 10:00',
    '20-05-2024 14:05',
    '20/05/2024 2:05 PM',
    '45432',
    '45432.75',
    '20 May 2024',
    '20-May-24',
    '20-may-2024',
    '20th May 2024',
    'May 20, 2024',
    'May 20th, 2024',
    '20 May, 2024',
    '२०.०५.२०२४',
    '  20.05.2024  ',
  ])('%j is 20-05-2024 in India', (text) => {
    expect(formatDate(text, india)).toBe('20-05-2024');
  });

  it('reads all-number dates day first in India and month first in the US, never the other way', () => {
    expect(formatDate('05/12/2024', india)).toBe('05-12-2024');
    expect(formatDate('05/12/2024', us)).toBe('5/12/2024');
    expect(formatDate('20/05/2024', us)).toBe('20/05/2024');
    expect(formatDate('05/20/2024', india)).toBe('05/20/2024');
    expect(parseDate('5.12.24', india)).toEqual({ year: 2024, month: 12, day: 5 });
    expect(parseDate('5.12.30', india)).toEqual({ year: 1930, month: 12, day: 5 });
    expect(parseDate('1 Sept 2024', india)).toEqual({ year: 2024, month: 9, day: 1 });
    expect(parseDate('1 September 2024', india)).toEqual({ year: 2024, month: 9, day: 1 });
  });

  it('takes an instant’s date in TIME_ZONE: a timestamp’s day is the day where the notice is read', () => {
    expect(formatDate('2024-05-19T18:29:59Z', india)).toBe('19-05-2024');
    expect(formatDate('2024-05-19T18:30:00Z', india)).toBe('20-05-2024');
    expect(formatDate('2024-05-20T02:00:00Z', us)).toBe('5/19/2024');
  });

  it('reads Excel serials of five digits, counting Excel’s 1900 leap day', () => {
    expect(parseDate('10000')).toEqual({ year: 1927, month: 5, day: 18 });
    expect(parseDate('45351')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseDate('99999')).toEqual({ year: 2173, month: 10, day: 13 });
  });

  it.each([
    '',
    '   ',
    'hello',
    'NaN',
    'Infinity',
    '1e21',
    '2024',
    '0',
    '-45432',
    '125000',
    '1,25,000',
    '31/02/2024',
    '29/02/2023',
    '32/01/2024',
    '00/01/2024',
    '20/13/2024',
    '20/00/2024',
    '2024-13-01',
    '2024-02-30',
    '2024-02-30T00:00:00Z',
    '2024-05-20T25:00:00Z',
    '0999-05-20',
    '20240230',
    '20.05-2024',
    '20 Mayo 2024',
    '20 Foo 2024',
    'May 2024',
    '20/05',
    '2024-05-20T10:00:00 Asia/Kolkata',
    '<script>20/05/2024</script>',
    `20/05/2024${' '.repeat(100)}x`,
  ])('prints %j as it is: it holds no date', (text) => {
    expect(formatDate(text, india)).toBe(text);
    expect(formatDate(text, us)).toBe(text);
  });

  it('never takes long on long text', () => {
    const started = performance.now();
    for (const text of ['1'.repeat(100_000), `${'20/'.repeat(30_000)}`, `${'1 '.repeat(50_000)}May`]) {
      expect(formatDate(text, india)).toBe(text);
      expect(amountInWords(text)).toBe(text);
      formatInr(text);
    }
    expect(formatInr('1'.repeat(100_000)).replace(/[₹,]/g, '')).toBe(`${'1'.repeat(100_000)}.00`);
    // Linear work takes well under a second on an idle machine; a pattern that backtracks on 100,000
    // characters takes minutes. The bound is far from both, so a busy machine (a CI run at load 14
    // took 1.8 s) does not fail it.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
