import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { strictXmlParts } from '../../test/xml.ts';
import { openFirstSheet } from './read-sheet.ts';
import { dateTimeCell, xlsxStream } from './write-sheet.ts';

describe('dateTimeCell', () => {
  it('holds the wall-clock time of an instant in the time zone, as Excel counts days', () => {
    const format = 'dd-mm-yyyy hh:mm:ss';
    expect(dateTimeCell('2024-05-20T08:35:00.000Z', 'Asia/Kolkata', format)).toEqual({
      serial: 45432 + (14 * 60 + 5) / 1440,
      format,
    });
    expect(dateTimeCell('2024-05-19T18:30:00Z', 'Asia/Kolkata', format)).toEqual({ serial: 45432, format });
    expect(dateTimeCell('2024-05-20T08:35:00Z', 'UTC', format)).toEqual({
      serial: 45432 + (8 * 60 + 35) / 1440,
      format,
    });
  });

  it('keeps text that is no instant as text', () => {
    for (const text of ['', 'yesterday', '2024-13-45T99:00:00Z'])
      expect(dateTimeCell(text, 'UTC', 'd')).toBe(text);
  });

  it('writes a date cell Excel draws with its format, beside text cells', async () => {
    const cell = dateTimeCell('2024-05-20T08:35:09Z', 'Asia/Kolkata', 'dd-mm-yyyy hh:mm:ss');
    const file = await buffer(xlsxStream('Report', ['Name', 'Time'], [['Asha', cell]]));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    const time = workbook.worksheets[0]!.getRow(2).getCell(2);
    expect(time.numFmt).toBe('dd-mm-yyyy hh:mm:ss');
    expect(time.value).toEqual(new Date(Date.UTC(2024, 4, 20, 14, 5, 9)));
    expect(workbook.worksheets[0]!.getRow(2).getCell(1).value).toBe('Asha');
  });
});

describe('xlsxStream', () => {
  it('writes well-formed XML whatever the text, showing characters XML forbids as U+FFFD', async () => {
    const rows = [
      ['\uFFFE', 'a\uFFFFb', 'x\u0000y\u0001z', '\uD800lone', 'lone\uDC00', '\uFDD0\u{1FFFF}'],
      ['\u0008\u000B\u000C\u000E\u001F\u007F', 'tab\tand\nline', '=1+1', '\u0001=1+1', 'आशा 😀', ''],
    ];
    const file = await buffer(xlsxStream('Report\uFFFE', ['Name\u0001', 'B', 'C', 'D', 'E', 'F'], rows));
    const parts = await strictXmlParts(file);
    expect(parts.length).toBeGreaterThanOrEqual(5);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Report\uFFFD');
    const cells = (row: number) =>
      Array.from({ length: 6 }, (_, c) => String(sheet.getRow(row).getCell(c + 1).value ?? ''));
    expect(cells(1)[0]).toBe('Name\uFFFD');
    expect(cells(2)).toEqual([
      '\uFFFD',
      'a\uFFFDb',
      'x\uFFFDy\uFFFDz',
      '\uFFFDlone',
      'lone\uFFFD',
      '\uFFFD\uFFFD',
    ]);
    expect(cells(3)).toEqual(['\uFFFD'.repeat(6), 'tab\tand\nline', "'=1+1", '\uFFFD=1+1', 'आशा 😀', '']);
  });

  it('writes text that looks like an Office escape (_x0041_) so Excel shows it as typed', async () => {
    const literal = ['_x0041_', 'a_x000D_b_x000d_', 'x_x_x1_', '__x0020__'];
    const file = await buffer(xlsxStream('Sheet', ['_x0042_'], [literal]));
    const sheetXml = (await strictXmlParts(file)).find((p) => p.name === 'xl/worksheets/sheet1.xml')!.text;
    expect(sheetXml).toContain('_x005F_x0041_');
    // Read back as Excel reads it, decoding _xHHHH_: every value as it was sent.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-sheet-'));
    try {
      fs.writeFileSync(path.join(dir, 'out.xlsx'), file);
      const reader = await openFirstSheet(path.join(dir, 'out.xlsx'), { maxInflatedBytes: 10_000_000 });
      const rows: string[][] = [];
      for await (const row of reader.rows) rows.push(row.cells);
      reader.close();
      expect(rows).toEqual([['_x0042_'], literal]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
