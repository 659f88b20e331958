import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { matrixRows, writerFiles } from './fixtures/make-writers.ts';
import { openFirstSheet, type CellProblem } from './read-sheet.ts';

/**
 * Every writer's fixture read by our reader and by exceljs (the reference), cell by cell. Our reader
 * must show what Excel shows (matrixRows' `shows`); where exceljs gives something else, the
 * difference must be one of the classes below, each saying which side is right and why
 * (docs/xlsx-writers.md has the same table). Any other difference fails the test.
 */

interface Cell {
  writer: string;
  row: number;
  column: number;
  ours: string;
  theirs: ExcelJS.CellValue | undefined;
}

interface ExpectedDifference {
  name: string;
  right: 'ours' | 'exceljs';
  why: string;
  applies(cell: Cell): boolean;
}

const header = (name: string) => matrixRows[0]!.findIndex((cell) => cell.shows === name);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !(value instanceof Date);

export const expectedDifferences: ExpectedDifference[] = [
  {
    name: 'dates',
    right: 'ours',
    why: 'exceljs gives a JavaScript Date (in UTC); an import stores the text Excel shows in the cell’s format',
    applies: (c) => c.theirs instanceof Date,
  },
  {
    name: 'number formats',
    right: 'ours',
    why: 'exceljs gives the bare number; Excel shows it in its format (1,234.50)',
    applies: (c) => typeof c.theirs === 'number' && matrixRows[c.row]?.[c.column]?.numFmt !== undefined,
  },
  {
    name: 'error values',
    right: 'ours',
    why: 'exceljs gives an object ({ error: "#N/A" }); Excel shows the code, which we read and report as an error value',
    applies: (c) =>
      isObject(c.theirs) &&
      ('error' in c.theirs || (isObject(c.theirs.result) && 'error' in c.theirs.result)) &&
      c.ours.startsWith('#'),
  },
  {
    name: 'booleans',
    right: 'ours',
    why: 'exceljs gives true/false; Excel shows TRUE/FALSE',
    applies: (c) => typeof c.theirs === 'boolean' && c.ours === (c.theirs ? 'TRUE' : 'FALSE'),
  },
  {
    name: 'line breaks',
    right: 'ours',
    why: 'exceljs keeps the carriage return of Excel’s _x000D_ escape; an import stores line breaks as LF only',
    applies: (c) => typeof c.theirs === 'string' && c.theirs.replace(/\r\n?/g, '\n') === c.ours,
  },
  {
    name: 'escapes in t="str" values',
    right: 'ours',
    why: 'exceljs leaves Excel’s _xHHHH_ escapes undecoded in formula-string values; Excel decodes them everywhere',
    applies: (c) =>
      typeof c.theirs === 'string' &&
      c.theirs.replace(/_x([0-9A-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) ===
        c.ours,
  },
  {
    name: 'Strict OOXML',
    right: 'ours',
    why: 'exceljs knows only the transitional namespaces: it reads a Strict workbook as one without cells',
    applies: (c) => c.writer === 'strict-ooxml' && c.theirs === undefined,
  },
];

/** Writers whose files exceljs cannot open at all, and why: our reading is checked against Excel's alone. */
export const unreadableByExcelJs: Record<string, string> = {
  'open-xml-sdk':
    'exceljs reads only unprefixed SpreadsheetML: it throws on an x:-prefixed workbook part (reading sheets of undefined)',
};

/** exceljs's value as text where it has one; objects and dates are left to the classes. */
function theirText(value: ExcelJS.CellValue | undefined): string | undefined {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (isObject(value)) {
    if ('richText' in value) return (value.richText as { text: string }[]).map((r) => r.text).join('');
    if ('result' in value) return theirText(value.result as ExcelJS.CellValue);
    if ('formula' in value || 'sharedFormula' in value) return '';
  }
  return undefined;
}

async function readOurs(file: string) {
  const reader = await openFirstSheet(file, { maxInflatedBytes: 10 * 1024 * 1024 });
  const rows: string[][] = [];
  const problems: (CellProblem & { row: number })[] = [];
  try {
    for await (const row of reader.rows) {
      rows[row.rowNumber - 1] = row.cells;
      for (const p of row.problems ?? []) problems.push({ row: row.rowNumber, ...p });
    }
  } finally {
    reader.close();
  }
  return { rows, problems, sheetName: reader.sheetName };
}

async function readTheirs(file: string, sheetName: string | undefined) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.worksheets.find((s) => s.name === sheetName) ?? workbook.worksheets[0];
  const rows: ExcelJS.CellValue[][] = [];
  sheet?.eachRow({ includeEmpty: true }, (row, r) => {
    const cells: ExcelJS.CellValue[] = [];
    row.eachCell({ includeEmpty: true }, (cell, c) => (cells[c - 1] = cell.value));
    rows[r - 1] = cells;
  });
  return rows;
}

/** What Excel shows in each cell of a writer's fixture: the matrix, but for what a writer itself gets wrong. */
function excelShows(writer: string): string[][] {
  return matrixRows.map((row, r) =>
    row.map((cell, c) => {
      // exceljs writes the text _x0041_ as it is, not as _x005F_x0041_: Excel reads it as the escape of A.
      if (writer === 'exceljs' && r === 2 && c === header('Markup')) return 'a_bAc';
      return cell.shows;
    }),
  );
}

const trimmed = (row: string[] | undefined) => {
  const cells = [...(row ?? [])];
  while (cells.length > 0 && !cells.at(-1)) cells.pop();
  return cells;
};

describe('the writer matrix: every writer’s workbook reads as Excel shows it', () => {
  it.each(writerFiles())('$name', async ({ name, file }) => {
    const ours = await readOurs(file);
    expect(ours.sheetName).toBe('Data');
    const shows = excelShows(name);
    expect(ours.rows.map(trimmed)).toEqual(shows.map(trimmed));
    // Error values show their code and are reported, so a required field holding one counts as missing.
    const errorColumn = header('Error');
    expect(ours.problems).toEqual(
      [2, 3].map((row) => ({
        row,
        column: errorColumn,
        message: `'${shows[row - 1]![errorColumn]}' (an Excel error value)`,
      })),
    );

    const theirs = await readTheirs(file, ours.sheetName).catch((err: Error) => {
      if (name in unreadableByExcelJs) return undefined;
      throw new Error(`exceljs could not read ${path.basename(file)}: ${err.message}`);
    });
    if (!theirs) return;
    expect(name in unreadableByExcelJs, 'exceljs reads it now: take it off unreadableByExcelJs').toBe(false);
    const unexplained: string[] = [];
    for (const [r, row] of shows.entries()) {
      for (const c of row.keys()) {
        const cell: Cell = {
          writer: name,
          row: r,
          column: c,
          ours: ours.rows[r]?.[c] ?? '',
          theirs: theirs[r]?.[c],
        };
        if (theirText(cell.theirs) === cell.ours) continue;
        if (expectedDifferences.some((d) => d.applies(cell))) continue;
        unexplained.push(
          `row ${r + 1} col ${c + 1}: ours ${JSON.stringify(cell.ours)}, exceljs ${JSON.stringify(cell.theirs)}`,
        );
      }
    }
    expect(unexplained).toEqual([]);
  });
});
