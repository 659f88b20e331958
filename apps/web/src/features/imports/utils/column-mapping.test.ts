import type { ImportPreview } from '@notice-desk/contract/imports';
import { describe, expect, it } from 'vitest';
import { blockerMessage, columnsOf, listLabels, mappingBlockers } from './column-mapping.ts';

const fields: ImportPreview['fields'] = [
  { key: 'loanNo', label: 'Loan No.', required: true },
  { key: 'custName', label: 'Customer Name', required: true },
  { key: 'region', label: 'Region', required: false },
];

describe('column mapping', () => {
  it('lists at most five names, then how many more', () => {
    expect(listLabels(['A'])).toBe('A');
    expect(listLabels(['A', 'B'])).toBe('A and B');
    expect(listLabels(['A', 'B', 'C', 'D', 'E'])).toBe('A, B, C, D and E');
    expect(listLabels(['A', 'B', 'C', 'D', 'E', 'F', 'G'])).toBe('A, B, C, D, E and 2 more');
  });

  it('blocks Import while a required field has no column or a field has two, naming them', () => {
    expect(blockerMessage(mappingBlockers(fields, { '0': 'loanNo', '1': 'custName', '2': null }))).toBeNull();
    expect(blockerMessage(mappingBlockers(fields, { '0': 'loanNo', '1': null }))).toBe(
      'Map a column to Customer Name to import.',
    );
    expect(blockerMessage(mappingBlockers(fields, { '0': 'region', '1': 'region', '2': 'custName' }))).toBe(
      'Map a column to Loan No. to import. Region: choose one column each.',
    );
  });

  it('reads every column of a preview, ignored ones as null', () => {
    const columns = [
      { index: 0, header: 'LOAN', field: 'loanNo', candidates: ['loanNo'] },
      { index: 1, header: 'Notes', field: null, candidates: [] },
    ];
    expect(columnsOf({ columns } as ImportPreview)).toEqual({ '0': 'loanNo', '1': null });
  });
});
