import { describe, expect, it } from 'vitest';
import { auditChanges, auditValueText } from './audit-changes.ts';

describe('auditChanges', () => {
  it('keeps only the fields whose value changed, labelled as the form labels them', () => {
    expect(
      auditChanges({
        subjectType: 'credit-card',
        before: { custName: 'Asha', hub: 'North', limit: '5000' },
        after: { custName: 'Asha Rao', hub: 'North', limit: '5000' },
      }),
    ).toEqual([{ field: 'custName', label: 'Customer Name', before: 'Asha', after: 'Asha Rao' }]);
  });

  it('counts a field present on one side only as changed, and keeps unknown keys as they are', () => {
    expect(
      auditChanges({
        subjectType: 'template',
        before: { html: '<p>a</p>' },
        after: { html: '<p>b</p>', extra: 3 },
      }),
    ).toEqual([
      { field: 'html', label: 'Body', before: '<p>a</p>', after: '<p>b</p>' },
      { field: 'extra', label: 'extra', before: '', after: '3' },
    ]);
  });

  it('has nothing to show without a before or an after', () => {
    expect(auditChanges({ subjectType: 'notice', before: null, after: null })).toEqual([]);
  });
});

describe('auditValueText', () => {
  it('writes nothing as empty, text as it is, and anything else as JSON', () => {
    expect([null, undefined, 'x', 4, { a: 1 }].map(auditValueText)).toEqual(['', '', 'x', '4', '{"a":1}']);
  });
});
