import { describe, expect, it } from 'vitest';
import { dispositionFileName } from './save-file.ts';

describe('dispositionFileName', () => {
  it('reads the quoted, plain and encoded forms', () => {
    expect(dispositionFileName('attachment; filename="import-report.xlsx"')).toBe('import-report.xlsx');
    expect(dispositionFileName('attachment; filename=sample.xlsx')).toBe('sample.xlsx');
    expect(dispositionFileName("attachment; filename*=UTF-8''M%C3%A4rz.xlsx")).toBe('März.xlsx');
  });

  it('is null without a file name', () => {
    expect(dispositionFileName(null)).toBeNull();
    expect(dispositionFileName('attachment')).toBeNull();
  });
});
