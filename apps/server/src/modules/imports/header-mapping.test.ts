import { creditCardFields } from '@notice-desk/contract/credit-card';
import { noticeFields } from '@notice-desk/contract/notice';
import { describe, expect, it } from 'vitest';
import { mapHeaders, sampleHeaders } from './header-mapping.ts';

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
