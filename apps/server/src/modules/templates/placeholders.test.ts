import { describe, expect, it } from 'vitest';
import { checkPlaceholders, mergeTemplate } from './placeholders.ts';

const prototypeNames = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

describe('placeholders', () => {
  it('merge a record’s own values only: a prototype property merges as nothing', () => {
    const fields = { custName: 'Asha <Rao>', loanNo: 'LN1' };
    for (const name of prototypeNames) {
      expect(mergeTemplate(`<p>{{custName}} {{ ${name} }} {{loanNo}}</p>`, fields, 'html')).toBe(
        '<p>Asha &lt;Rao&gt;  LN1</p>',
      );
      expect(mergeTemplate(`Dear {{custName}},{{${name}}}`, fields, 'text')).toBe('Dear Asha <Rao>,');
    }
  });

  it('merge nothing for a value that is not text, and a null-prototype record merges as well', () => {
    const record = Object.assign(Object.create(null) as Record<string, string>, { custName: 'Ravi' });
    expect(mergeTemplate('{{custName}}{{toString}}', record, 'text')).toBe('Ravi');
    expect(mergeTemplate('[{{loanNo}}]', { loanNo: null }, 'text')).toBe('[]');
  });

  it('refuse a prototype property as a placeholder of either kind, naming it', () => {
    for (const kind of ['notice', 'credit-card'] as const)
      for (const name of prototypeNames)
        expect(() => checkPlaceholders(kind, `{{custName}} {{ ${name} }}`, 'html')).toThrow(
          `{{${name}}} names no field of a`,
        );
    expect(() => checkPlaceholders('notice', '{{custName}} {{loanNo}}', 'html')).not.toThrow();
  });

  it('format a value through a formatter, spaces around the parts ignored, in HTML and plain text alike', () => {
    const fields = { noticeBalance: 'Rs. 125000.50', noticeDate: '20.05.2024', custName: 'Asha' };
    const text =
      '{{noticeBalance | inr}}; {{ noticeBalance|words }}; {{noticeDate |date}}; {{  noticeDate  |  date  }}';
    const said = '₹1,25,000.50; One Lakh Twenty-Five Thousand Rupees and Fifty Paise; 20-05-2024; 20-05-2024';
    expect(mergeTemplate(text, fields, 'text')).toBe(said);
    expect(mergeTemplate(`<p>${text}</p>`, fields, 'html')).toBe(`<p>${said}</p>`);
  });

  it('print a value that holds no amount or date as it is, escaped in HTML', () => {
    const fields = { noticeBalance: '<b>N/A</b> & more', noticeDate: 'to be fixed', custName: '' };
    expect(
      mergeTemplate(
        '{{noticeBalance | inr}}|{{noticeBalance | words}}|{{noticeDate | date}}',
        fields,
        'html',
      ),
    ).toBe('&lt;b&gt;N/A&lt;/b&gt; &amp; more|&lt;b&gt;N/A&lt;/b&gt; &amp; more|to be fixed');
    expect(mergeTemplate('[{{custName | inr}}][{{loanNo | date}}]', fields, 'text')).toBe('[][]');
  });

  it('read dates in the locale and time zone they are given', () => {
    const fields = { noticeDate: '2024-05-20T02:00:00Z' };
    expect(mergeTemplate('{{noticeDate | date}}', fields, 'text')).toBe('20-05-2024');
    expect(
      mergeTemplate('{{noticeDate | date}}', fields, 'text', {
        locale: 'en-US',
        timeZone: 'America/New_York',
      }),
    ).toBe('5/19/2024');
  });

  it('merge a formatter on a prototype name as nothing, and a prototype name as a formatter leaves the value', () => {
    for (const name of prototypeNames) {
      expect(mergeTemplate(`[{{ ${name} | inr }}]`, { custName: 'Asha' }, 'text')).toBe('[]');
      expect(mergeTemplate(`[{{custName | ${name}}}]`, { custName: 'Asha' }, 'text')).toBe('[Asha]');
    }
  });

  it('refuse an unknown formatter, an empty one or two on one placeholder, naming each', () => {
    const refusal = (text: string) => {
      try {
        checkPlaceholders('credit-card', text, 'html');
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refusal('{{noticeBalance | inr}} {{limit|words}} {{ noticeDate | date }}')).toBe('accepted');
    expect(refusal('{{noticeBalance | rupees}}')).toBe(
      '{{noticeBalance | rupees}} names no formatter. Use | inr, | words, | date.',
    );
    expect(refusal('{{noticeBalance | INR}} {{noticeDate|Date}}')).toBe(
      '{{noticeBalance | INR}}, {{noticeDate | Date}} name no formatter. Use | inr, | words, | date.',
    );
    expect(refusal('{{noticeBalance | }}')).toBe(
      '{{noticeBalance | }} names no formatter. Use | inr, | words, | date.',
    );
    expect(refusal('{{noticeBalance | inr | words}}')).toBe(
      '{{noticeBalance | inr | words}}: a placeholder takes one formatter at most.',
    );
    for (const name of prototypeNames)
      expect(refusal(`{{noticeBalance | ${name}}}`)).toBe(
        `{{noticeBalance | ${name}}} names no formatter. Use | inr, | words, | date.`,
      );
    expect(refusal('{{balance | inr}} {{maskNo | cash}}')).toBe(
      '{{balance}} names no field of a credit card record. Use one of the listed placeholders. {{maskNo | cash}} names no formatter. Use | inr, | words, | date.',
    );
  });
});

describe('a printed notice’s merge (notice: true)', () => {
  const nowrap = (text: string) => `<span style="white-space:nowrap">${text}</span>`;

  it('prints every date field in one format, whatever each cell held, and keeps it on one line', () => {
    const record = {
      noticeSentOn: '2024-05-12',
      conciliationDate: '12/06/2024',
      disbursalDate: '45432',
      campDate: '20 May 2024',
      noticeDate: '2024-05-19T18:30:00Z',
      allocationDated: '12.05.24',
    };
    const template = Object.keys(record)
      .map((field) => `{{${field}}}`)
      .join('|');
    expect(mergeTemplate(template, record, 'html', undefined, { notice: true })).toBe(
      ['12-05-2024', '12-06-2024', '20-05-2024', '20-05-2024', '20-05-2024', '12-05-2024']
        .map(nowrap)
        .join('|'),
    );
    // Not in a notice (a mail, a WhatsApp text): the value as it is, unless the template formats it.
    expect(mergeTemplate('{{noticeSentOn}}', record, 'html')).toBe('2024-05-12');
    expect(mergeTemplate('{{noticeSentOn}}', record, 'text', undefined, { notice: true })).toBe('12-05-2024');
  });

  it('keeps a date field that holds no date as it is, and never keeps a sentence on one line', () => {
    const merge = (value: string) =>
      mergeTemplate('{{noticeSentOn}}', { noticeSentOn: value }, 'html', undefined, { notice: true });
    expect(merge('')).toBe('');
    expect(merge('to be fixed by the bank')).toBe('to be fixed by the bank');
    expect(merge('<b>12-13-2024</b>')).toBe(nowrap('&lt;b&gt;12-13-2024&lt;/b&gt;'));
    expect(merge('31-02-2024')).toBe(nowrap('31-02-2024'));
    expect(merge('x'.repeat(41))).toBe('x'.repeat(41));
  });

  it('keeps an amount on one line, and a field that is no date merges as it is', () => {
    const record = { totalOverdueAmt: '125000.5', loanNo: '12-05-2024' };
    expect(
      mergeTemplate('{{totalOverdueAmt | inr}} {{loanNo}} {{loanNo | date}}', record, 'html', undefined, {
        notice: true,
      }),
    ).toBe(`${nowrap('₹1,25,000.50')} 12-05-2024 ${nowrap('12-05-2024')}`);
  });

  it('says amounts in words in the notice’s language, English without one', () => {
    const record = { totalOverdueAmt: '1,25,000.50' };
    const merge = (language: string | null) =>
      mergeTemplate('{{totalOverdueAmt | words}}', record, 'html', undefined, { notice: true, language });
    expect(merge('hi')).toBe('एक लाख पच्चीस हजार रुपये और पचास पैसे');
    expect(merge('ta')).toBe('ஒரு லட்சத்து இருபத்து ஐந்தாயிரம் ரூபாய் ஐம்பது பைசா');
    expect(merge(null)).toBe('One Lakh Twenty-Five Thousand Rupees and Fifty Paise');
    expect(merge('en')).toBe('One Lakh Twenty-Five Thousand Rupees and Fifty Paise');
  });
});
