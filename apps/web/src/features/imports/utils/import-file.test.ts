import { describe, expect, it } from 'vitest';
import { campaignNameFor, fileSizeInMb, importFileError, uploadNameFor } from './import-file.ts';

const file = (name: string, bytes = 10) => new File([new Uint8Array(bytes)], name);

describe('import file checks', () => {
  it("asks for a file when none is chosen: 'Please select a file.'", () => {
    expect(importFileError(null)).toBe('Please select a file.');
  });

  it("refuses a name not ending in .xlsx, .csv, .tsv or .txt: 'Please upload an Excel file (.xlsx).'", () => {
    for (const name of ['notices.docx', 'notices.xlsx.pdf', 'notices.csvx', 'notices']) {
      expect(importFileError(file(name))).toBe('Please upload an Excel file (.xlsx).');
    }
  });

  it('tells an .xls or .ods how to save it instead', () => {
    expect(importFileError(file('notices.xls'))).toBe(
      'Excel 97-2003 (.xls) workbooks cannot be imported. Save the file as .xlsx or .csv and import it again.',
    );
    expect(importFileError(file('notices.ODS'))).toBe(
      'OpenDocument (.ods) spreadsheets cannot be imported. Save the file as .xlsx or .csv and import it again.',
    );
  });

  it(".txt too (Excel's 'Unicode Text'): accepts an .xlsx, .csv, .tsv or .txt name, whatever its case", () => {
    for (const name of ['notices.xlsx', 'NOTICES.XLSX', 'notices.csv', 'Notices.TSV', 'March.txt']) {
      expect(importFileError(file(name))).toBeNull();
    }
  });

  it('shows the size in MB with 2 decimals', () => {
    expect(fileSizeInMb(0)).toBe('0.00 MB');
    expect(fileSizeInMb(52_429)).toBe('0.05 MB');
    expect(fileSizeInMb(5 * 1024 * 1024 + 512 * 1024)).toBe('5.50 MB');
  });
});

describe('import names', () => {
  it("names the campaign after the rename, else the file, without '.xlsx'", () => {
    expect(campaignNameFor('march.xlsx', '')).toBe('march');
    expect(campaignNameFor('march.xlsx', '  ')).toBe('march');
    expect(campaignNameFor('march.xlsx', 'March notices')).toBe('March notices');
    expect(campaignNameFor('march.xlsx', 'March notices.xlsx')).toBe('March notices');
    expect(campaignNameFor('march.csv', '')).toBe('march');
  });

  it("sends the rename with the file's own ending with the upload, else the file name", () => {
    expect(uploadNameFor('march.xlsx', '')).toBe('march.xlsx');
    expect(uploadNameFor('march.xlsx', 'April')).toBe('April.xlsx');
    expect(uploadNameFor('march.xlsx', 'April.xlsx')).toBe('April.xlsx');
    expect(uploadNameFor('march.csv', 'April')).toBe('April.csv');
    expect(uploadNameFor('march.tsv', 'April.xlsx')).toBe('April.tsv');
  });
});
