import { describe, expect, it } from 'vitest';
import { mergeTemplate } from '../pdfs/pdfs.service.ts';
import { checkPlaceholders, fillPlaceholders } from './placeholders.ts';

const prototypeNames = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

describe('placeholders', () => {
  it('merge a record’s own values only: a prototype property merges as nothing', () => {
    const fields = { custName: 'Asha <Rao>', loanNo: 'LN1' };
    for (const name of prototypeNames) {
      expect(mergeTemplate(`<p>{{custName}} {{ ${name} }} {{loanNo}}</p>`, fields)).toBe(
        '<p>Asha &lt;Rao&gt;  LN1</p>',
      );
      expect(fillPlaceholders(`Dear {{custName}},{{${name}}}`, fields)).toBe('Dear Asha <Rao>,');
    }
  });

  it('merge nothing for a value that is not text, and a null-prototype record merges as well', () => {
    const record = Object.assign(Object.create(null) as Record<string, string>, { custName: 'Ravi' });
    expect(fillPlaceholders('{{custName}}{{toString}}', record)).toBe('Ravi');
    expect(fillPlaceholders('[{{loanNo}}]', { loanNo: null })).toBe('[]');
  });

  it('refuse a prototype property as a placeholder of either kind, naming it', () => {
    for (const kind of ['notice', 'credit-card'] as const)
      for (const name of prototypeNames)
        expect(() => checkPlaceholders(kind, `{{custName}} {{ ${name} }}`, 'html')).toThrow(
          `{{${name}}} names no field of a`,
        );
    expect(() => checkPlaceholders('notice', '{{custName}} {{loanNo}}', 'html')).not.toThrow();
  });
});
