import { describe, expect, it } from 'vitest';
import { packRows, unpackRows } from './packed-rows.ts';
import type { SheetRow } from './read-sheet.ts';

describe('packed rows (a reader batch as one string and one typed array)', () => {
  it('gives back every row as it was: empty cells and rows, other scripts, astral characters, problems', () => {
    const rows: SheetRow[] = [
      { rowNumber: 1, cells: ['Name', 'Amount', ''] },
      { rowNumber: 2, cells: [] },
      { rowNumber: 7, cells: ['', '', ''] },
      { rowNumber: 8, cells: ['राजेश कुमार', '₹1,00,000', 'தமிழ்'], problems: [{ column: 1, message: 'x' }] },
      { rowNumber: 9, cells: ['𝒜🙂\u0301', 'a\r\nb', '\u200d'] },
      { rowNumber: 1_048_576, cells: ['#N/A'], problems: [{ column: 0, message: '#N/A' }] },
    ];
    expect([...unpackRows(packRows(rows))]).toEqual(rows);
    expect([...unpackRows(packRows([]))]).toEqual([]);
  });

  it('survives a copy between threads (structured clone)', () => {
    const rows: SheetRow[] = Array.from({ length: 500 }, (_, i) => ({
      rowNumber: i + 2,
      cells: Array.from({ length: 37 }, (_, c) => (c % 5 === 0 ? '' : `r${i}c${c}-ಕನ್ನಡ`)),
    }));
    expect([...unpackRows(structuredClone(packRows(rows)))]).toEqual(rows);
  });
});
