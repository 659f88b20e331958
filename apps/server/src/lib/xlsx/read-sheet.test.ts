import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureRows, writeFixture } from './fixtures/make-fixture.ts';
import { openFirstSheet } from './read-sheet.ts';
import { XlsxError } from './xlsx-error.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xlsx-reader-'));
const limits = { maxInflatedBytes: 50 * 1024 * 1024 };
const expected = fixtureRows.map((row) => row.map((cell) => cell.shows));

async function readAll(file: string, options = limits): Promise<string[][]> {
  const reader = await openFirstSheet(file, options);
  const rows: string[][] = [];
  try {
    for await (const row of reader.rows) rows[row.rowNumber - 1] = row.cells;
  } finally {
    reader.close();
  }
  return rows;
}

/** Trailing empty cells are not in the file: compare what a person sees, cell by cell. */
const trimmed = (rows: string[][]) =>
  rows.map((row) => {
    const cells = [...row];
    while (cells.length > 0 && !cells.at(-1)) cells.pop();
    return cells;
  });

beforeAll(async () => {
  await writeFixture(path.join(dir, 'shared.xlsx'), true);
  await writeFixture(path.join(dir, 'inline.xlsx'), false);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('reading the first sheet of a workbook as a person sees it', () => {
  it.each([
    ['exceljs with shared strings', () => path.join(dir, 'shared.xlsx')],
    ['exceljs with inline strings', () => path.join(dir, 'inline.xlsx')],
    ['LibreOffice', () => path.join(import.meta.dirname, 'fixtures/libreoffice.xlsx')],
  ])('written by %s: text, numbers, formats, dates, empty cells, rich text, formulas', async (_, file) => {
    expect(trimmed(await readAll(file()))).toEqual(trimmed(expected));
  });

  it('agrees with exceljs’s own reader on every non-date cell', async () => {
    const file = path.join(dir, 'shared.xlsx');
    const theirs: string[][] = [];
    const workbook = new ExcelJS.stream.xlsx.WorkbookReader(fs.createReadStream(file), {});
    for await (const sheet of workbook) {
      for await (const row of sheet) {
        const cells: string[] = [];
        (row as ExcelJS.Row).eachCell({ includeEmpty: true }, (cell, col) => (cells[col - 1] = cell.text));
        theirs[(row as ExcelJS.Row).number - 1] = cells;
      }
      break;
    }
    const ours = await readAll(file);
    // exceljs shows formatted numbers, dates and booleans its own way ('true' where Excel shows TRUE)
    const dateColumns = new Set([3, 4, 5, 9]);
    for (const [r, row] of theirs.entries()) {
      for (const [c, text] of (row ?? []).entries()) {
        if (!dateColumns.has(c) && text !== undefined)
          expect(ours[r]?.[c] ?? '', `row ${r + 1} col ${c + 1}`).toBe(text);
      }
    }
  });
});

describe('refusing what is not a readable workbook', () => {
  const write = (name: string, data: Buffer | string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, data);
    return file;
  };

  it.each([
    ['a CSV renamed to .xlsx', () => write('csv.xlsx', 'Loan No,Name\n1,Asha\n'), /text \(CSV or similar\)/],
    [
      'an .xls or password-protected workbook',
      () => write('old.xlsx', Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(512)])),
      /Excel 97-2003 \(\.xls\) workbook or a password-protected workbook/,
    ],
    [
      'random bytes',
      () => write('noise.xlsx', Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9])),
      /not an \.xlsx workbook/,
    ],
    [
      'a zip that is no workbook',
      () => write('plain.zip.xlsx', zipOf('hello.txt', 'hi')),
      /zip archive but not an \.xlsx/,
    ],
  ])('%s', async (_, file, message) => {
    await expect(readAll(file())).rejects.toThrow(message);
    await expect(readAll(file())).rejects.toBeInstanceOf(XlsxError);
  });

  it('stops a workbook that unpacks past the limit without holding it in memory', async () => {
    const file = path.join(dir, 'shared.xlsx');
    await expect(readAll(file, { maxInflatedBytes: 2000 })).rejects.toThrow(/unpacks to more than/);
  });
});

/** A one-entry zip (stored), written by hand so the test needs no zip library. */
function zipOf(name: string, text: string): Buffer {
  const data = Buffer.from(text);
  const nameBytes = Buffer.from(name);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const localSize = 30 + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + nameBytes.length, 12);
  end.writeUInt32LE(localSize, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}

function crc32(data: Buffer): number {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
