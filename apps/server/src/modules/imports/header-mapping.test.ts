import { creditCardFields } from '@notice-desk/contract/credit-card';
import { noticeFields } from '@notice-desk/contract/notice';
import { describe, expect, it } from 'vitest';
import { applyChosenColumns, mapHeaders, mappingError, sampleHeaders } from './header-mapping.ts';

describe('header mapping', () => {
  it('maps every header of staff’s credit-card sheets, ignoring case, spaces, dots and underscores', () => {
    const { columns, missing } = mapHeaders(
      'credit-card',
      creditCardFields,
      sampleHeaders('credit-card', creditCardFields),
    );
    expect(missing).toEqual([]);
    expect(columns.get(0)).toBeUndefined(); // S.NO
    expect(columns.get(3)).toBe('aanNo');
    expect(columns.get(10)).toBe('custMobileNo');
    const loose = mapHeaders('credit-card', creditCardFields, ['mask_no', 'Aan.No', ' cust  name ']);
    expect([...loose.columns.values()]).toEqual(['maskNo', 'aanNo', 'custName']);
  });

  it('maps the notice form labels, keeping State and 01 State apart', () => {
    const { columns, missing } = mapHeaders('notice', noticeFields, sampleHeaders('notice', noticeFields));
    expect(missing).toEqual([]);
    expect(columns.get(4)).toBe('hub');
    expect(columns.get(noticeFields.findIndex((f) => f.key === 'state'))).toBe('state');
  });

  it('maps field keys and lists the fields with no column', () => {
    const { columns, missing } = mapHeaders('notice', noticeFields, ['LOAN_NO', 'custName', 'Unknown']);
    expect([...columns.values()]).toEqual(['loanNo', 'custName']);
    expect(missing.map((f) => f.key)).not.toContain('loanNo');
    expect(missing.map((f) => f.key)).toContain('emailId');
  });
});

describe('header mapping by evidence, never by order', () => {
  const map = (headers: string[]) => mapHeaders('notice', noticeFields, headers);
  const keys = (headers: string[]) =>
    Object.fromEntries([...map(headers).columns].map(([i, k]) => [headers[i], k]));

  it('settles HUB and STATE by elimination, in either order: HUB is hub, so STATE is state', () => {
    expect(keys(['LOAN NO', 'HUB', 'STATE'])).toMatchObject({ HUB: 'hub', STATE: 'state' });
    expect(keys(['STATE', 'LOAN NO', 'HUB'])).toMatchObject({ HUB: 'hub', STATE: 'state' });
    expect(map(['STATE', 'HUB']).missing.map((f) => f.key)).not.toContain('state');
  });

  it('takes an exact field key over a form label, and the wizard’s labels State and 01 State by elimination', () => {
    // Alone, 'STATE' is the field state (its key), not hub (whose label is State).
    expect(keys(['STATE'])).toEqual({ STATE: 'state' });
    expect(keys(['01 State', 'State'])).toEqual({ '01 State': 'state', State: 'hub' });
    expect(keys(['State', '01 State'])).toEqual({ '01 State': 'state', State: 'hub' });
  });

  it('reports two columns with one header as ambiguous, maps neither, and lists them', () => {
    for (const headers of [
      ['Loan No.', 'Customer Name', 'LOAN NO'],
      ['LOAN NO', 'Customer Name', 'Loan No.'],
    ]) {
      const result = map(headers);
      expect([...result.columns.values()]).toEqual(['custName']);
      expect(result.ambiguous).toEqual([
        { field: expect.objectContaining({ key: 'loanNo' }), columns: [0, 2] },
      ]);
      expect(result.missing.map((f) => f.key)).not.toContain('loanNo');
    }
  });

  it('keeps near-duplicates apart when the evidence tells them apart', () => {
    // Customer Name is custName's label, Customer Name 2 customerName2's: no tie.
    expect(keys(['Customer Name 2', 'CUSTOMER NAME'])).toEqual({
      'Customer Name 2': 'customerName2',
      'CUSTOMER NAME': 'custName',
    });
    // EMAIL and EMAIL ID are both known headers of emailId: equally good, so the user chooses.
    expect(map(['EMAIL', 'EMAIL ID']).ambiguous.map((a) => [a.field.key, a.columns])).toEqual([
      ['emailId', [0, 1]],
    ]);
  });

  it('answers a hostile row of thousands of identical headers at once', () => {
    const started = performance.now();
    const result = map(Array.from({ length: 16_384 }, () => 'Loan No'));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result.columns.size).toBe(0);
    expect(result.ambiguous[0]!.field.key).toBe('loanNo');
  });
});

describe('a person’s choices over the automatic mapping', () => {
  it('maps a chosen column as chosen, ignores a null, and settles the ambiguity it answers', () => {
    const headers = ['Loan No.', 'LOAN NO', 'Mail', 'Customer Name'];
    const result = applyChosenColumns('notice', noticeFields, headers, {
      '1': 'loanNo',
      '3': null,
      '2': 'emailId',
    });
    expect([...result.columns].sort()).toEqual([
      [1, 'loanNo'],
      [2, 'emailId'],
    ]);
    expect(result.ambiguous).toEqual([]);
    expect(result.headers.get(2)).toBe('Mail');
  });

  it('gives a field the one column left of those that tied for it', () => {
    const result = applyChosenColumns('notice', noticeFields, ['Loan No.', 'LOAN NO'], { '1': null });
    expect([...result.columns]).toEqual([[0, 'loanNo']]);
    expect(result.ambiguous).toEqual([]);
  });

  it('refuses a column past the header row, an unknown field and two columns for one field', () => {
    expect(mappingError(noticeFields, 3, { '0': 'loanNo', '2': null })).toBeNull();
    expect(mappingError(noticeFields, 3, { '3': 'loanNo' })).toBe(
      'Column 3 is not in the header row: it has 3 columns, numbered 0 to 2.',
    );
    expect(mappingError(noticeFields, 3, { x: 'loanNo' })).toMatch(/^Column x is not in the header row/);
    expect(mappingError(noticeFields, 3, { '0': 'shoeSize' })).toBe(
      '‘shoeSize’ is not a field of this import.',
    );
    expect(mappingError(noticeFields, 3, { '2': 'loanNo', '0': 'loanNo' })).toBe(
      'Columns 0 and 2 both map to Loan No.: a field takes one column.',
    );
  });
});
