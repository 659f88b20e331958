import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deflatedRepeat, sheetXml, workbookOf, workbookParts, zipOf as zipOfParts } from '../../test/xlsx.ts';
import { fixtureRows, writeFixture } from './fixtures/make-fixture.ts';
import { openFirstSheetInWorker, type IsolationOptions } from './read-sheet-in-worker.ts';
import { openFirstSheet, type CellProblem, type ReadOptions } from './read-sheet.ts';
import { XlsxError } from './xlsx-error.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xlsx-reader-'));
const limits = { maxInflatedBytes: 50 * 1024 * 1024 };
const expected = fixtureRows.map((row) => row.map((cell) => cell.shows));

async function readAll(file: string, options: ReadOptions = limits): Promise<string[][]> {
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

describe('hostile workbooks: refused with a clear message, or a problem of the cell, never a crash', () => {
  let n = 0;
  const save = (data: Buffer) => {
    const file = path.join(dir, `hostile-${n++}.xlsx`);
    fs.writeFileSync(file, data);
    return file;
  };
  /** Every row and every cell problem, read off the main thread as imports read. */
  async function readInWorker(
    data: Buffer,
    options: Partial<ReadOptions> = {},
    isolation?: IsolationOptions,
  ) {
    const reader = await openFirstSheetInWorker(save(data), { ...limits, ...options }, isolation);
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
    return { rows, problems };
  }
  const sheet = (rows: string) => ({ sheet: sheetXml(rows) });

  describe('references past Excel’s limits (column XFD, row 1,048,576)', () => {
    it.each([
      [
        'a column index of about 8 billion (ZZZZZZZ2)',
        '<row r="2"><c r="ZZZZZZZ2"><v>1</v></c></row>',
        /Cell ZZZZZZZ2 is past column XFD/,
      ],
      [
        'one column past XFD (XFE1)',
        '<row r="1"><c r="XFE1"><v>1</v></c></row>',
        /Cell XFE1 is past column XFD/,
      ],
      ['four letters (AAAA1)', '<row r="1"><c r="AAAA1"><v>1</v></c></row>', /Cell AAAA1 is past column XFD/],
      [
        'a megabyte-long column name',
        `<row r="1"><c r="${'Z'.repeat(1024 * 1024)}1"><v>1</v></c></row>`,
        /Cell ZZZZZZZZZZZZZZZZZZZZZZZZ… is past column XFD/,
      ],
      [
        'a row past 1,048,576',
        '<row r="1048577"><c r="A1048577"><v>1</v></c></row>',
        /row numbered 1048577; Excel's rows run from 1 to 1,048,576/,
      ],
      ['a row numbered 0', '<row r="0"><c r="A1"><v>1</v></c></row>', /row numbered 0/],
      [
        'a cell in row 0 (A0)',
        '<row r="1"><c r="A0"><v>1</v></c></row>',
        /The sheet has a cell A0; Excel's rows run from 1 to 1,048,576\./,
      ],
      [
        'a cell one row past the last (XFD1048577)',
        '<row r="1"><c r="XFD1048577"><v>1</v></c></row>',
        /The sheet has a cell XFD1048577; Excel's rows run from 1 to 1,048,576\./,
      ],
      [
        'a cell reference with text after its row',
        '<row r="1"><c r="A1x"><v>1</v></c></row>',
        /reference "A1x" is not one like A1/,
      ],
      ['a row numbered -5', '<row r="-5"><c r="A1"><v>1</v></c></row>', /row numbered -5/],
      ['a row numbered 1e300', '<row r="1e300"><c r="A1"><v>1</v></c></row>', /row numbered 1e300/],
      [
        'a cell reference of digits only',
        '<row r="1"><c r="12"><v>1</v></c></row>',
        /reference "12" is not one like A1/,
      ],
      [
        'a cell reference without a row',
        '<row r="1"><c r="B"><v>1</v></c></row>',
        /reference "B" is not one like A1/,
      ],
      [
        'a row of 16,385 cells without references',
        `<row r="1">${'<c><v>1</v></c>'.repeat(16_385)}</row>`,
        /Row 1 has more than 16,384 cells/,
      ],
    ])('%s', async (_, rows, message) => {
      const started = performance.now();
      const read = readInWorker(workbookOf(sheet(rows)));
      await expect(read).rejects.toThrow(message);
      await expect(read).rejects.toBeInstanceOf(XlsxError);
      expect(performance.now() - started).toBeLessThan(10_000);
    });

    it('reads a cell in the last column, XFD, and the last row', async () => {
      const { rows } = await readInWorker(
        workbookOf(sheet('<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>last</t></is></c></row>')),
      );
      expect(rows[1_048_575]).toHaveLength(16_384);
      expect(rows[1_048_575]![16_383]).toBe('last');
    });
  });

  describe('zip entries', () => {
    it.each([
      [
        'the same name twice',
        'xl/worksheets/sheet1.xml',
        /two parts named xl\/worksheets\/sheet1\.xml, and a part name/,
      ],
      [
        'names differing only in case',
        'XL/Worksheets/Sheet1.xml',
        /two parts named xl\/worksheets\/sheet1\.xml \(also written XL\/Worksheets\/Sheet1\.xml\)/,
      ],
    ])('two zip entries of one part name (%s) are refused', async (_, second, message) => {
      const file = zipOfParts([
        ...workbookParts(),
        {
          name: 'xl/worksheets/sheet1.xml',
          data: Buffer.from(sheetXml('<row r="1"><c r="A1"><v>1</v></c></row>')),
        },
        { name: second, data: Buffer.from(sheetXml('<row r="1"><c r="A1"><v>2</v></c></row>')) },
      ]);
      const read = readInWorker(file);
      await expect(read).rejects.toThrow(message);
      await expect(read).rejects.toBeInstanceOf(XlsxError);
    });
  });

  describe('memory: budgets that hold', () => {
    it('refuses shared strings that unpack to 500 MB from a small upload, at once and with flat memory', async () => {
      const bomb = await deflatedRepeat(
        'xl/sharedStrings.xml',
        Buffer.from('<sst count="1" uniqueCount="1"><si><t>'),
        Buffer.alloc(1024 * 1024, 'A'),
        500,
        Buffer.from('</t></si></sst>'),
      );
      const data = workbookOf({
        sheet: sheetXml('<row r="1"><c r="A1" t="s"><v>0</v></c></row>'),
        sharedStrings: bomb,
      });
      expect(data.length).toBeLessThan(1.5 * 1024 * 1024);
      const before = process.memoryUsage().rss;
      await expect(readAll(save(data), { maxInflatedBytes: 1024 * 1024 * 1024 })).rejects.toThrow(
        /shared strings unpack to more than 256 MB, the most an import may hold in memory/,
      );
      expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
    }, 30_000);

    it('counts the bytes themselves when the zip understates the shared strings’ size', async () => {
      const strings = Buffer.from(`<sst><si><t>${'x'.repeat(3 * 1024 * 1024)}</t></si></sst>`);
      const lying = await deflatedRepeat(
        'xl/sharedStrings.xml',
        strings,
        Buffer.alloc(0),
        0,
        Buffer.alloc(0),
      );
      lying.size = 100; // what the zip claims
      const data = workbookOf({
        sheet: sheetXml('<row r="1"><c r="A1" t="s"><v>0</v></c></row>'),
        sharedStrings: lying,
      });
      await expect(
        readAll(save(data), { maxInflatedBytes: 50 * 1024 * 1024, maxSharedStringsBytes: 1024 * 1024 }),
      ).rejects.toThrow(/shared strings unpack to more than 1 MB|damaged/);
    });

    it('refuses a row that never ends instead of buffering the sheet', async () => {
      const endless = await deflatedRepeat(
        'xl/worksheets/sheet1.xml',
        Buffer.from(sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>').replace(/<\/sheetData>.*$/, '')),
        Buffer.alloc(1024 * 1024, 'A'),
        40,
        Buffer.from('</t></is></c></row></sheetData></worksheet>'),
      );
      await expect(
        readInWorker(workbookOf({ sheet: endless }), { maxInflatedBytes: 1024 ** 3 }),
      ).rejects.toThrow(/Row 1 of the sheet holds more than 16 MB of text/);
    });

    it.each([
      ['a worker thread', { in: 'thread', maxHeapMb: 16 }],
      ['a child process', { in: 'process', maxHeapMb: 16 }],
    ] as const)(
      'a reader in %s that runs out of heap ends in a clear failure, not a dead server',
      async (_, isolation) => {
        // One row of 15,000 distinct cells, each decoded to a new string: ~40 MB of heap to read it.
        const cells = Array.from(
          { length: 15_000 },
          (_, c) => `<c t="inlineStr"><is><t>&amp;${c}${'v'.repeat(900)}</t></is></c>`,
        );
        const data = workbookOf({ sheet: sheetXml(`<row r="1">${cells.join('')}</row>`) });
        const reader = openFirstSheetInWorker(
          save(data),
          { ...limits, maxInflatedBytes: 1024 ** 3 },
          isolation,
        );
        const read = reader.then(async (r) => {
          for await (const row of r.rows) void row;
        });
        await expect(read).rejects.toThrow(/needed more than 16 MB of memory, the most an import may use/);
        await expect(read).rejects.toBeInstanceOf(XlsxError);
      },
      60_000,
    );

    it('reads a sheet the same in a child process as on a thread', async () => {
      const data = fs.readFileSync(path.join(dir, 'shared.xlsx'));
      const thread = await readInWorker(data);
      const child = await readInWorker(data, {}, { in: 'process' });
      expect(child.rows).toEqual(thread.rows);
      expect(trimmed(thread.rows)).toEqual(trimmed(expected));
    }, 30_000);
  });

  describe('encodings: read as declared, or refused, never altered', () => {
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    const utf16 = (text: string, order: 'le' | 'be') => {
      const le = Buffer.from(`\ufeff${text}`, 'utf16le');
      return order === 'le' ? le : le.swap16();
    };
    const rowsWith = (text: string) =>
      `<row r="1"><c r="A1" t="inlineStr"><is><t>${text}</t></is></c><c r="B1" t="s"><v>0</v></c></row>`;
    const strings = (text: string, declaration: string) => `${declaration}<sst><si><t>${text}</t></si></sst>`;

    it.each([
      ['ISO-8859-1', 'encoding="ISO-8859-1"', latin1, 'José Müller ©'],
      ['ISO-8859-1 in single quotes, lower case', "encoding='iso-8859-1'", latin1, 'Ñandú'],
      [
        'ISO-8859-1 with bytes 0x80-0x9F, which windows-1252 would read as other characters',
        'encoding="ISO-8859-1"',
        latin1,
        'a\u0085b',
      ],
      [
        'windows-1252',
        'encoding="windows-1252"',
        (t: string) => Buffer.from(t.replace('€', '\x80'), 'latin1'),
        'Rs 5 €',
      ],
      ['UTF-16 (little-endian) with a BOM', 'encoding="UTF-16"', (t: string) => utf16(t, 'le'), 'राम शर्मा'],
      ['UTF-16 (big-endian) with a BOM', 'encoding="UTF-16"', (t: string) => utf16(t, 'be'), 'ராம் 😀'],
      ['UTF-8 with a BOM', 'encoding="UTF-8"', (t: string) => Buffer.from(`\ufeff${t}`), 'ಕನ್ನಡ'],
    ])('%s: read correctly', async (_, encoding, encode, text) => {
      const declaration = `<?xml version="1.0" ${encoding}?>`;
      const data = workbookOf({
        sheet: encode(sheetXml(rowsWith(text), declaration)),
        sharedStrings: encode(strings(`${text}!`, declaration)),
      });
      const { rows } = await readInWorker(data);
      expect(rows[0]).toEqual([text, `${text}!`]);
    });

    it.each([
      [
        'ISO-8859-1 bytes in a sheet that declares no encoding (UTF-8)',
        '',
        latin1,
        /xl\/worksheets\/sheet1\.xml is not valid UTF-8 text/,
      ],
      [
        'ISO-8859-1 bytes under a UTF-8 declaration',
        '<?xml version="1.0" encoding="UTF-8"?>',
        latin1,
        /not valid UTF-8 text/,
      ],
      [
        'an encoding imports do not know',
        '<?xml version="1.0" encoding="x-klingon"?>',
        latin1,
        /in the x-klingon encoding, which imports do not read/,
      ],
      [
        'a UTF-16 declaration on ASCII bytes',
        '<?xml version="1.0" encoding="UTF-16"?>',
        latin1,
        /says it is UTF-16 but its bytes are not/,
      ],
      [
        'UTF-32 with a BOM',
        '',
        (t: string) => Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from(t, 'utf16le')]),
        /in the UTF-32 encoding/,
      ],
      [
        'Shift JIS bytes that are not Shift JIS',
        '<?xml version="1.0" encoding="Shift_JIS"?>',
        (t: string) => Buffer.concat([Buffer.from(t, 'latin1'), Buffer.from([0x82, 0xff, 0xff])]),
        /not valid SHIFT_JIS text/,
      ],
    ])('%s: refused, naming the part', async (_, declaration, encode, message) => {
      const read = readInWorker(
        workbookOf({
          sheet: encode(
            sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>Müller</t></is></c></row>', declaration),
          ),
        }),
      );
      await expect(read).rejects.toThrow(message);
      await expect(read).rejects.toBeInstanceOf(XlsxError);
    });

    it('shared strings in ISO-8859-1 bytes without a declaration are refused, naming the part', async () => {
      const data = workbookOf({
        sheet: sheetXml('<row r="1"><c r="A1" t="s"><v>0</v></c></row>'),
        sharedStrings: latin1('<sst><si><t>Müller</t></si></sst>'),
      });
      await expect(readInWorker(data)).rejects.toThrow(/xl\/sharedStrings\.xml is not valid UTF-8 text/);
    });

    it.each([
      [
        'a raw NUL byte in the sheet',
        { sheet: sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>a\0b</t></is></c></row>') },
        /sheet1\.xml holds a NUL character/,
      ],
      [
        'a raw NUL byte in the shared strings',
        {
          sheet: sheetXml('<row r="1"><c r="A1" t="s"><v>0</v></c></row>'),
          sharedStrings: '<sst><si><t>a\0b</t></si></sst>',
        },
        /sharedStrings\.xml holds a NUL character/,
      ],
    ])('%s: refused as not XML', async (_, parts, message) => {
      await expect(readInWorker(workbookOf(parts))).rejects.toThrow(message);
    });
  });

  describe('dates Excel cannot show: a problem of the cell, not an empty cell', () => {
    const styles =
      '<styleSheet><numFmts count="1"><numFmt numFmtId="164" formatCode="dd\\-mm\\-yyyy"/></numFmts>' +
      '<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/></cellXfs></styleSheet>';

    it.each([
      ['99999999999', 1],
      ['-5', 1],
      ['2958466', 1],
      ['1e300', 2],
      ['-0.5', 2],
    ])('serial %s in a date format', async (value, style) => {
      const data = workbookOf({
        sheet: sheetXml(
          `<row r="3"><c r="A3" t="inlineStr"><is><t>kept</t></is></c><c r="C3" s="${style}"><v>${value}</v></c></row>`,
        ),
        styles,
      });
      const { rows, problems } = await readInWorker(data);
      expect(rows[2]).toEqual(['kept', '', '']);
      expect(problems).toEqual([
        {
          row: 3,
          column: 2,
          message: `${value} is not a date Excel can show: its dates run from 1 January 1900 to 31 December 9999.`,
        },
      ]);
    });

    it('the first and last dates Excel shows, and a large number that is no date, read as Excel shows them', async () => {
      const data = workbookOf({
        sheet: sheetXml(
          '<row r="1"><c r="A1" s="2"><v>1</v></c><c r="B1" s="2"><v>2958465</v></c><c r="C1"><v>99999999999</v></c></row>',
        ),
        styles,
      });
      const { rows, problems } = await readInWorker(data);
      expect(problems).toEqual([]);
      expect(rows[0]).toEqual(['01-01-1900', '31-12-9999', '99999999999']);
    });
  });

  describe("Excel's locale-dependent date formats follow LOCALE, as Excel follows the reader's", () => {
    // 45424 is 12 May 2024, 09:05 on the second serial; ids 14 and 22 are the locale's short date (and time).
    const styles =
      '<styleSheet><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="22"/></cellXfs></styleSheet>';
    const data = () =>
      workbookOf({
        sheet: sheetXml(
          '<row r="1"><c r="A1" s="1"><v>45424</v></c><c r="B1" s="2"><v>45424.378472222222</v></c></row>',
        ),
        styles,
      });

    it.each([
      ['en-IN', ['12-05-2024', '12-05-2024 09:05']],
      [undefined, ['12-05-2024', '12-05-2024 09:05']],
      ['en-GB', ['12/05/2024', '12/05/2024 09:05']],
      ['en-US', ['5/12/2024', '5/12/2024 9:05']],
    ])('under %s', async (locale, shows) => {
      const { rows, problems } = await readInWorker(data(), locale ? { locale } : {});
      expect(problems).toEqual([]);
      expect(rows[0]).toEqual(shows);
    });
  });

  describe('characters a workbook may not hold: a problem of the cell that holds them', () => {
    it.each([
      ['&#x110000;', 'past U+10FFFF'],
      ['&#0;', 'NUL'],
      ['&#xD800;', 'a lone surrogate'],
      ['&#xDFFF;', 'a lone low surrogate'],
      ['&#xFFFE;', 'a non-character XML forbids'],
      ['&#1;', 'a control character XML 1.0 forbids'],
      ['&#99999999999999999999;', 'a huge decimal'],
      ['&#x0000000000000000000041FFFFFFFFFFFF;', 'a huge hexadecimal'],
    ])('%s (%s) in an inline string, a formula result and a shared string', async (reference) => {
      const data = workbookOf({
        sheet: sheetXml(
          '<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c><c r="B1" t="inlineStr"><is><t>City</t></is></c></row>' +
            `<row r="2"><c r="A2" t="inlineStr"><is><t>Asha ${reference}</t></is></c><c r="B2" t="inlineStr"><is><t>Pune</t></is></c></row>` +
            `<row r="3"><c r="A3" t="str"><v>x${reference}</v></c><c r="B3" t="s"><v>1</v></c></row>` +
            '<row r="4"><c r="A4" t="s"><v>0</v></c><c r="B4" t="s"><v>0</v></c><c r="C4" t="s"><v>1</v></c></row>',
        ),
        sharedStrings: `<sst><si><r><t>bad </t></r><r><t>${reference}</t></r></si><si><t>Delhi &amp; NCR</t></si></sst>`,
      });
      const { rows, problems } = await readInWorker(data);
      expect(rows.slice(1)).toEqual([
        ['', 'Pune'],
        ['', 'Delhi & NCR'],
        ['', '', 'Delhi & NCR'],
      ]);
      const shown = reference.length > 24 ? `${reference.slice(0, 24)}…` : reference;
      const message = `The cell holds the character reference ${shown}, which is not a character a workbook may hold.`;
      expect(problems).toEqual([
        { row: 2, column: 0, message },
        { row: 3, column: 0, message },
        { row: 4, column: 0, message },
        { row: 4, column: 1, message },
      ]);
    });

    it.each([
      ['_x0000_', /U\+0000/],
      ['_xD800_', /half of a surrogate pair/],
      ['_xDC00_x_', /half of a surrogate pair/],
    ])('Excel’s escape %s', async (escape, message) => {
      const data = workbookOf({
        sheet: sheetXml(`<row r="1"><c r="A1" t="inlineStr"><is><t>a${escape}b</t></is></c></row>`),
      });
      const { problems } = await readInWorker(data);
      expect(problems).toEqual([{ row: 1, column: 0, message: expect.stringMatching(message) }]);
    });

    it('a valid astral reference and an escaped surrogate pair read as their characters', async () => {
      const data = workbookOf({
        sheet: sheetXml(
          '<row r="1"><c r="A1" t="inlineStr"><is><t>&#x1F600;&#10;_xD83D__xDE00_</t></is></c></row>',
        ),
      });
      const { rows, problems } = await readInWorker(data);
      expect(problems).toEqual([]);
      expect(rows[0]).toEqual(['😀\n😀']);
    });
  });
});

describe('markup, parts and cell types as any writer may write them (main thread)', () => {
  const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
  let n = 0;

  /** A workbook of the given parts; `undefined` leaves a part out. */
  function workbook(parts: Record<string, string | Buffer | undefined>): string {
    const file = path.join(dir, `parts-${n++}.xlsx`);
    const entries = Object.entries(parts).flatMap(([name, data]) =>
      data === undefined ? [] : [{ name, data: Buffer.from(data) }],
    );
    fs.writeFileSync(file, zipOfParts(entries));
    return file;
  }
  const rels = (...list: [id: string, type: string, target: string][]) =>
    `<Relationships xmlns="${PKG}">${list
      .map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`)
      .join('')}</Relationships>`;
  const book = (sheets: string, extra = '') =>
    `<workbook xmlns="${MAIN}" xmlns:r="${REL}">${extra}<sheets>${sheets}</sheets></workbook>`;
  const sheetOf = (rows: string) => `<worksheet xmlns="${MAIN}"><sheetData>${rows}</sheetData></worksheet>`;
  /** A standard workbook: one sheet of `rows`, optional shared strings and styles, any part replaced. */
  const standard = (
    rows: string,
    {
      strings,
      styles,
      ...replaced
    }: { strings?: string; styles?: string } & Record<string, string | undefined> = {},
  ) =>
    workbook({
      '_rels/.rels': rels(['rId1', 'officeDocument', 'xl/workbook.xml']),
      'xl/workbook.xml': book('<sheet name="Data" sheetId="1" r:id="rId1"/>'),
      'xl/_rels/workbook.xml.rels': rels(
        ['rId1', 'worksheet', 'worksheets/sheet1.xml'],
        ...(strings === undefined
          ? []
          : [['rId2', 'sharedStrings', 'sharedStrings.xml'] as [string, string, string]]),
        ...(styles === undefined ? [] : [['rId3', 'styles', 'styles.xml'] as [string, string, string]]),
      ),
      'xl/worksheets/sheet1.xml': sheetOf(rows),
      'xl/sharedStrings.xml': strings === undefined ? undefined : `<sst xmlns="${MAIN}">${strings}</sst>`,
      'xl/styles.xml':
        styles === undefined ? undefined : `<styleSheet xmlns="${MAIN}">${styles}</styleSheet>`,
      ...replaced,
    });
  async function read(file: string) {
    const reader = await openFirstSheet(file, limits);
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
  const refused = async (file: string, message: RegExp) => {
    const reading = read(file);
    await expect(reading).rejects.toThrow(message);
    await expect(reading).rejects.toBeInstanceOf(XlsxError);
  };
  const s = (i: number, ref: string) => `<c r="${ref}" t="s"><v>${i}</v></c>`;

  describe('markup', () => {
    it('any namespace prefix (the Open XML SDK writes x:), in every part', async () => {
      const x = `xmlns:x="${MAIN}"`;
      const file = workbook({
        '_rels/.rels': rels(['R1', 'officeDocument', '/xl/workbook.xml']),
        'xl/workbook.xml': `<x:workbook ${x} xmlns:rel="${REL}"><x:sheets><x:sheet name="Data" sheetId="1" rel:id="R9"/></x:sheets></x:workbook>`,
        'xl/_rels/workbook.xml.rels': rels(
          ['R9', 'worksheet', '/xl/worksheets/sheet.xml'],
          ['R7', 'sharedStrings', '/xl/sharedStrings.xml'],
        ),
        'xl/worksheets/sheet.xml': `<x:worksheet ${x}><x:sheetData><x:row r="1"><x:c r="A1" t="x"><x:v>ignored</x:v></x:c><x:c r="B1" t="s"><x:v>0</x:v></x:c><x:c r="C1" t="s"><x:v>1</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
        'xl/sharedStrings.xml': `<ss:sst xmlns:ss="${MAIN}"><ss:si><ss:t>Asha</ss:t></ss:si><ss:si><ss:r><ss:t>Ku</ss:t></ss:r><ss:r><ss:t>mar</ss:t></ss:r></ss:si></ss:sst>`,
      });
      expect((await read(file)).rows).toEqual([['ignored', 'Asha', 'Kumar']]);
    });

    it('single and double quotes, CDATA, comments and processing instructions', async () => {
      const file = standard(
        `<row r='1'><!-- a comment --><c r='A1' t='s'><v>0</v></c><?pi data?><c r="B1" t='inlineStr'><is><t><![CDATA[<b>&amp;</b>]]> and <!-- x -->more</t></is></c><c r='C1' t="str"><v>a<![CDATA[]]>b<?x?>c</v></c></row>`,
        { strings: `<si><t><![CDATA[R&D ]]>&amp; co</t></si>` },
      );
      expect((await read(file)).rows).toEqual([['R&D & co', '<b>&amp;</b> and more', 'abc']]);
    });

    it('valid character references in every kind of text', async () => {
      const file = standard(
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>&#x41;&#66;&lt;&gt;&quot;&apos;</t></is></c><c r="C1" t="str"><v>&#x1F600;</v></c></row>',
        { strings: '<si><t>M&#xFC;ller &amp; Co</t></si>' },
      );
      expect((await read(file)).rows).toEqual([['Müller & Co', 'AB<>"\'', '😀']]);
    });

    it.each([
      ['<si> then a line break', '<si>\n<t>one</t></si><si\n><t>two</t></si><si\t><t>three</t></si>'],
      ['<si> with an attribute', '<si x="1"><t>one</t></si><si><t>two</t></si><si><t>three</t></si>'],
      ['<si/> that is empty, then items', '<si><t>one</t></si><si><t>two</t></si><si><t>three</t></si><si/>'],
    ])('%s: no later string is shifted', async (_, strings) => {
      const file = standard(`<row r="1">${s(0, 'A1')}${s(1, 'B1')}${s(2, 'C1')}</row>`, { strings });
      expect((await read(file)).rows).toEqual([['one', 'two', 'three']]);
    });

    it('CR LF and lone CR become LF, whether literal, a reference or Excel’s escape', async () => {
      const file = standard(
        `<row r="1">${s(0, 'A1')}<c r="B1" t="inlineStr"><is><t>a&#13;&#10;b&#13;c</t></is></c><c r="C1" t="str"><v>x_x000D_\r\ny</v></c></row>`,
        { strings: '<si><t>one\r\ntwo\rthree</t></si>' },
      );
      expect((await read(file)).rows).toEqual([['one\ntwo\nthree', 'a\nb\nc', 'x\ny']]);
    });

    it('xml:space: runs without it lose their outer white space, as Excel shows them; preserved runs keep it', async () => {
      const file = standard(`<row r="1">${s(0, 'A1')}${s(1, 'B1')}${s(2, 'C1')}</row>`, {
        strings:
          '<si><r><t>Bold </t></r><r><t> plain</t></r></si>' +
          '<si><r><t xml:space="preserve">Bold </t></r><r><t>plain</t></r></si>' +
          '<si><r><t>a</t></r><r><t> </t></r><r><t>b</t></r></si>',
      });
      expect((await read(file)).rows).toEqual([['Boldplain', 'Bold plain', 'a b']]);
    });

    it.each([
      [
        'an undefined entity (&nbsp;)',
        '<t>a&nbsp;b</t>',
        /sheet1\.xml is not well-formed XML \(undefined entity\)/,
      ],
      ['a bare ampersand', '<t>R&D</t>', /sheet1\.xml is not well-formed XML/],
      [
        'a bad reference in an attribute',
        '<t>x</t>',
        /sheet1\.xml is not well-formed XML \(malformed character entity\)/,
      ],
    ])('%s is refused, naming the part', async (what, text, message) => {
      const cell = what.includes('attribute')
        ? `<c r="A1" t="inlineStr" s="&#0;"><is>${text}</is></c>`
        : `<c r="A1" t="inlineStr"><is>${text}</is></c>`;
      await refused(standard(`<row r="1">${cell}</row>`), message);
    });

    it('a DOCTYPE (entity expansion) is refused', async () => {
      const file = standard('', {
        'xl/worksheets/sheet1.xml': `<!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa">]><worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&a;</t></is></c></row></sheetData></worksheet>`,
      });
      await refused(file, /sheet1\.xml has a DOCTYPE declaration/);
    });
  });

  describe('parts, found through the relationships, without regard to case', () => {
    it('xl/SharedStrings.xml with a capital S', async () => {
      const file = workbook({
        'xl/workbook.xml': book('<sheet name="Data" sheetId="1" r:id="rId1"/>'),
        'xl/_rels/workbook.xml.rels': rels(
          ['rId1', 'worksheet', 'worksheets/sheet1.xml'],
          ['rId2', 'sharedStrings', 'sharedStrings.xml'],
        ),
        'xl/worksheets/sheet1.xml': sheetOf(`<row r="1">${s(0, 'A1')}</row>`),
        'xl/SharedStrings.xml': `<sst xmlns="${MAIN}"><si><t>Asha</t></si></sst>`,
      });
      expect((await read(file)).rows).toEqual([['Asha']]);
    });

    it('parts outside xl/, relative and absolute targets, names in another case than the zip’s', async () => {
      const file = workbook({
        '[Content_Types].xml': `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/Book/Main.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`,
        '_RELS/.rels': rels(['rId1', 'officeDocument', 'book/main.xml']),
        'Book/Main.xml': book('<sheet name="Loans" sheetId="1" r:id="a"/>'),
        'Book/_rels/Main.xml.rels': rels(
          ['a', 'worksheet', '../Data/Loans%20Sheet.xml'],
          ['b', 'sharedStrings', '/book/strings.xml'],
        ),
        'data/loans sheet.xml': sheetOf(`<row r="1">${s(0, 'A1')}</row>`),
        'book/STRINGS.xml': `<sst xmlns="${MAIN}"><si><t>found</t></si></sst>`,
      });
      expect(await read(file)).toMatchObject({ rows: [['found']], sheetName: 'Loans' });
    });

    it('strict OOXML namespaces and relationship types', async () => {
      const strict = 'http://purl.oclc.org/ooxml';
      const strictRels = (...list: [string, string, string][]) =>
        `<Relationships xmlns="${PKG}">${list.map(([id, type, target]) => `<Relationship Id="${id}" Type="${strict}/officeDocument/relationships/${type}" Target="${target}"/>`).join('')}</Relationships>`;
      const file = workbook({
        '_rels/.rels': strictRels(['rId1', 'officeDocument', 'xl/workbook.xml']),
        'xl/workbook.xml': `<workbook xmlns="${strict}/spreadsheetml/main" xmlns:r="${strict}/officeDocument/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
        'xl/_rels/workbook.xml.rels': strictRels(['rId1', 'worksheet', 'worksheets/sheet1.xml']),
        'xl/worksheets/sheet1.xml': `<worksheet xmlns="${strict}/spreadsheetml/main"><sheetData><row r="1"><c r="A1" t="d"><v>2024-05-12</v></c></row></sheetData></worksheet>`,
      });
      expect((await read(file)).rows).toEqual([['12-05-2024']]);
    });

    it('a zip whose main part is a Word document is no workbook', async () => {
      const file = workbook({
        '[Content_Types].xml': `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
        '_rels/.rels': rels(['rId1', 'officeDocument', 'word/document.xml']),
        'word/document.xml': '<document/>',
      });
      await refused(file, /zip archive but not an \.xlsx workbook/);
    });
  });

  describe('which sheet: the first visible worksheet in tab order', () => {
    const tabs = (sheets: string, relsList: [string, string, string][], extra: Record<string, string> = {}) =>
      workbook({
        'xl/workbook.xml': book(sheets),
        'xl/_rels/workbook.xml.rels': rels(...relsList),
        'xl/worksheets/sheet1.xml': sheetOf(
          '<row r="1"><c r="A1" t="inlineStr"><is><t>first</t></is></c></row>',
        ),
        'xl/worksheets/sheet2.xml': sheetOf(
          '<row r="1"><c r="A1" t="inlineStr"><is><t>second</t></is></c></row>',
        ),
        'xl/chartsheets/sheet1.xml': `<chartsheet xmlns="${MAIN}"/>`,
        ...extra,
      });

    it.each([
      [
        'a hidden first tab',
        '<sheet name="Lookup" sheetId="1" state="hidden" r:id="r1"/><sheet name="Data" sheetId="2" r:id="r2"/>',
      ],
      [
        'a very hidden first tab',
        '<sheet name="Lookup" sheetId="1" state="veryHidden" r:id="r1"/><sheet name="Data" sheetId="2" r:id="r2"/>',
      ],
      [
        'tab order, not sheet ids',
        '<sheet name="Data" sheetId="9" r:id="r2"/><sheet name="Lookup" sheetId="1" r:id="r1"/>',
      ],
    ])('%s', async (_, sheets) => {
      const file = tabs(sheets, [
        ['r1', 'worksheet', 'worksheets/sheet1.xml'],
        ['r2', 'worksheet', 'worksheets/sheet2.xml'],
      ]);
      expect(await read(file)).toMatchObject({ rows: [['second']], sheetName: 'Data' });
    });

    it('a chart sheet first', async () => {
      const file = tabs(
        '<sheet name="Chart1" sheetId="1" r:id="c"/><sheet name="Data" sheetId="2" r:id="r2"/>',
        [
          ['c', 'chartsheet', 'chartsheets/sheet1.xml'],
          ['r2', 'worksheet', 'worksheets/sheet2.xml'],
        ],
      );
      expect(await read(file)).toMatchObject({ rows: [['second']], sheetName: 'Data' });
    });

    it('the sheet is named in the worker’s reader too, with how many sheets there are', async () => {
      const file = tabs(
        '<sheet name="Lookup" sheetId="1" state="hidden" r:id="r1"/><sheet name="Data" sheetId="2" r:id="r2"/>',
        [
          ['r1', 'worksheet', 'worksheets/sheet1.xml'],
          ['r2', 'worksheet', 'worksheets/sheet2.xml'],
        ],
      );
      const reader = await openFirstSheetInWorker(file, limits);
      reader.close();
      expect(reader).toMatchObject({ sheetName: 'Data', sheetCount: 2 });
    });

    it.each([
      [
        'no visible worksheet',
        '<sheet name="A" sheetId="1" state="hidden" r:id="r1"/><sheet name="Chart1" sheetId="2" r:id="c"/>',
        /no visible worksheet/,
      ],
      [
        'a sheet missing from the relationships',
        '<sheet name="Data" sheetId="1" r:id="r7"/>',
        /lists a sheet 'Data' that xl\/_rels\/workbook\.xml\.rels does not lead to \(no relationship r7\)/,
      ],
      ['a sheet without a relationship id', '<sheet name="Data" sheetId="1"/>', /lists a sheet 'Data' that/],
      ['no sheets at all', '', /The workbook has no sheet\./],
    ])('%s is refused', async (_, sheets, message) => {
      const file = tabs(sheets, [
        ['r1', 'worksheet', 'worksheets/sheet1.xml'],
        ['c', 'chartsheet', 'chartsheets/sheet1.xml'],
      ]);
      await refused(file, message);
    });

    it('a relationship to a sheet the zip does not have is refused', async () => {
      const file = tabs('<sheet name="Data" sheetId="1" r:id="r1"/>', [
        ['r1', 'worksheet', 'worksheets/gone.xml'],
      ]);
      await refused(
        file,
        /sheet 'Data' should be in xl\/worksheets\/gone\.xml, which the file does not have/,
      );
    });
  });

  describe('cell types and formats', () => {
    const styles = (numFmts: string, xfs: number[]) =>
      `<numFmts>${numFmts}</numFmts><cellXfs>${xfs.map((id) => `<xf numFmtId="${id}"/>`).join('')}</cellXfs>`;

    it('t="d": in the cell’s format, or the locale’s date (and time) under General; bad dates are the cell’s problem', async () => {
      const file = standard(
        '<row r="1"><c r="A1" t="d"><v>2024-05-12</v></c><c r="B1" t="d"><v>2024-05-12T09:05:00Z</v></c><c r="C1" t="d" s="1"><v>2024-05-12T09:05:00.000</v></c><c r="D1" t="d" s="2"><v>1900-01-01</v></c><c r="E1" t="d"><v>2024-02-30</v></c><c r="F1" t="d"><v>soon</v></c></row>',
        { styles: styles('<numFmt numFmtId="164" formatCode="d mmm yyyy h:mm"/>', [0, 164, 14]) },
      );
      const { rows, problems } = await read(file);
      expect(rows).toEqual([['12-05-2024', '12-05-2024 09:05', '12 May 2024 9:05', '01-01-1900', '', '']]);
      expect(problems.map((p) => [p.column, p.message])).toEqual([
        [
          4,
          "'2024-02-30' in a date cell is not a date (Excel's date cells hold dates like 2024-05-12T09:05:00).",
        ],
        [5, "'soon' in a date cell is not a date (Excel's date cells hold dates like 2024-05-12T09:05:00)."],
      ]);
    });

    it('t="b": 1 is TRUE and 0 is FALSE; any other value is the cell’s problem', async () => {
      const file = standard(
        '<row r="1"><c r="A1" t="b"><v>1</v></c><c r="B1" t="b"><v>0</v></c><c r="C1" t="b"><v>7</v></c><c r="D1" t="b"><v>true</v></c><c r="E1" t="b"/></row>',
      );
      const { rows, problems } = await read(file);
      expect(rows).toEqual([['TRUE', 'FALSE', '', '', '']]);
      expect(problems).toEqual([
        {
          row: 1,
          column: 2,
          message:
            "'7' in a TRUE/FALSE cell is neither TRUE nor FALSE (Excel's TRUE/FALSE cells hold 1 or 0).",
        },
        {
          row: 1,
          column: 3,
          message:
            "'true' in a TRUE/FALSE cell is neither TRUE nor FALSE (Excel's TRUE/FALSE cells hold 1 or 0).",
        },
      ]);
    });

    it('t="e": the error code is the text, and a problem of the cell', async () => {
      const file = standard(
        '<row r="2"><c r="A2" t="e"><f>NA()</f><v>#N/A</v></c><c r="B2" t="e"><v>#DIV/0!</v></c><c r="C2" t="inlineStr"><is><t>ok</t></is></c></row>',
      );
      const { rows, problems } = await read(file);
      expect(rows[1]).toEqual(['#N/A', '#DIV/0!', 'ok']);
      expect(problems).toEqual([
        { row: 2, column: 0, message: "'#N/A' (an Excel error value)" },
        { row: 2, column: 1, message: "'#DIV/0!' (an Excel error value)" },
      ]);
    });

    it('rich text and phonetic runs, shared and inline: the runs joined, the furigana left out', async () => {
      const file = standard(
        `<row r="1">${s(0, 'A1')}<c r="B1" t="inlineStr"><is><r><rPr><b/></rPr><t>山</t></r><r><t>田</t></r><rPh sb="0" eb="2"><t>ヤマダ</t></rPh><phoneticPr fontId="1"/></is></c></row>`,
        {
          strings:
            '<si><t>東京</t><rPh sb="0" eb="1"><t>トウ</t></rPh><rPh sb="1" eb="2"><t>キョウ</t></rPh></si>',
        },
      );
      expect((await read(file)).rows).toEqual([['東京', '山田']]);
    });

    it('a format’s text section applies to text cells ("Ref: "@), and not to numbers', async () => {
      const file = standard(
        `<row r="1">${s(0, 'A1').replace('t="s"', 's="1" t="s"')}<c r="B1" s="1" t="inlineStr"><is><t>9</t></is></c><c r="C1" s="1"><v>7</v></c><c r="D1" s="2" t="str"><v>x</v></c></row>`,
        {
          strings: '<si><t>LN-1</t></si>',
          styles: styles(
            '<numFmt numFmtId="164" formatCode="&quot;Ref: &quot;@"/><numFmt numFmtId="165" formatCode="0.0;-0.0;0;&quot;[&quot;@&quot;]&quot;"/>',
            [0, 164, 165],
          ),
        },
      );
      expect((await read(file)).rows).toEqual([['Ref: LN-1', 'Ref: 9', '7', '[x]']]);
    });

    it.each([
      ['format 0 redefined as empty', '<numFmt numFmtId="0" formatCode=""/>', '1234.5'],
      ['format 0 redefined as GENERAL', '<numFmt numFmtId="0" formatCode="GENERAL"/>', '1234.5'],
      ['format 0 redefined as a number format', '<numFmt numFmtId="0" formatCode="0.00"/>', '1234.50'],
      ['format 14 redefined', '<numFmt numFmtId="14" formatCode="yyyy-mm-dd"/>', '1903-05-18'],
    ])('%s: the workbook’s own format wins over the built-in', async (_, numFmt, shows) => {
      const style = numFmt.includes('"14"') ? 1 : 0;
      const file = standard(`<row r="1"><c r="A1" s="${style}"><v>1234.5</v></c></row>`, {
        styles: styles(numFmt, [0, 14]),
      });
      expect((await read(file)).rows).toEqual([[shows]]);
    });

    it('Indian grouping drawn as Excel draws it; a format the import cannot draw is the cell’s problem', async () => {
      const file = standard(
        '<row r="1"><c r="A1" s="1"><v>1250000.5</v></c><c r="B1" s="2"><v>1250000.5</v></c><c r="C1" s="3"><v>1250000.5</v></c></row>',
        {
          styles: styles(
            '<numFmt numFmtId="164" formatCode="[$₹-4009]#,##,##0.00"/><numFmt numFmtId="165" formatCode="[$-4009]#,##,##0.00"/><numFmt numFmtId="166" formatCode="#,###,##0"/>',
            [0, 164, 165, 166],
          ),
        },
      );
      const { rows, problems } = await read(file);
      expect(rows).toEqual([['₹12,50,000.50', '12,50,000.50', '']]);
      expect(problems).toEqual([
        {
          row: 1,
          column: 2,
          message:
            "The cell's number format '#,###,##0' is one the import cannot draw, so 1250000.5 cannot be read as Excel shows it. Give the column a standard number format in Excel (Home, Number Format), save, and import again.",
        },
      ]);
    });

    describe('formulas the writer did not calculate: a problem of the cell, not empty or 0', () => {
      const notCalculated =
        'The cell holds a formula that was not calculated when the file was written, so the file has no result for it. Open the file in Excel, save it, and import again.';

      it('openpyxl: no result, or an empty one; Excel’s empty text result reads as empty', async () => {
        const file = standard(
          '<row r="1"><c r="A1"><f>SUM(D1:E1)</f><v></v></c><c r="B1"><f>1+1</f></c><c r="C1" t="str"><f>IF(1,"","")</f><v></v></c><c r="D1"><f>2*3</f><v>6</v></c><c r="E1" t="b"><f>TRUE()</f><v/></c></row>',
        );
        const { rows, problems } = await read(file);
        expect(rows).toEqual([['', '', '', '6', '']]);
        expect(problems).toEqual([
          { row: 1, column: 0, message: notCalculated },
          { row: 1, column: 1, message: notCalculated },
          { row: 1, column: 4, message: notCalculated },
        ]);
      });

      it('xlsxwriter: 0 in a workbook calculated on load is no result; a plain 0 and a result given are', async () => {
        const file = standard(
          '<row r="1"><c r="A1"><f>SUM(B1:C1)</f><v>0</v></c><c r="B1"><v>0</v></c><c r="C1"><f>B1+5</f><v>5</v></c></row>',
          {
            'xl/workbook.xml': book('<sheet name="Data" sheetId="1" r:id="rId1"/>').replace(
              '</workbook>',
              '<calcPr calcId="124519" fullCalcOnLoad="1"/></workbook>',
            ),
          },
        );
        const { rows, problems } = await read(file);
        expect(rows).toEqual([['', '0', '5']]);
        expect(problems).toEqual([{ row: 1, column: 0, message: notCalculated }]);
      });

      it('a formula’s 0 is its result in a workbook Excel calculated', async () => {
        const file = standard('<row r="1"><c r="A1"><f>B1*0</f><v>0</v></c></row>');
        expect(await read(file)).toMatchObject({ rows: [['0']], problems: [] });
      });
    });

    it('identifiers: an integer under General or Text reads whole, never as 9.19877E+11', async () => {
      const numbers = [
        '919876543210',
        '9.1987654321E+11',
        '-919876543210',
        '123456789012345',
        '1234.5',
        '0.30000000000000004',
      ];
      const file = standard(
        `<row r="1">${numbers.map((v, i) => `<c r="${String.fromCharCode(65 + i)}1"><v>${v}</v></c>`).join('')}</row>` +
          '<row r="2"><c r="A2" s="1"><v>919876543210</v></c><c r="B2" s="2"><v>919876543210</v></c><c r="C2" s="3"><v>560001</v></c></row>',
        { styles: styles('<numFmt numFmtId="164" formatCode="0"/>', [0, 49, 164, 3]) },
      );
      const { rows, problems } = await read(file);
      expect(rows).toEqual([
        ['919876543210', '919876543210', '-919876543210', '123456789012345', '1234.5', '0.3'],
        ['919876543210', '919876543210', '560,001'],
      ]);
      expect(problems).toEqual([]);
    });

    it('a number of more than 15 digits, whose last digits Excel has lost, is the cell’s problem', async () => {
      const file = standard(
        '<row r="1"><c r="A1"><v>4111111111111111</v></c><c r="B1"><v>4111111111111110</v></c><c r="C1" s="1"><v>12345678901234567890</v></c><c r="D1"><v>-1.5E+16</v></c></row>',
        { styles: styles('<numFmt numFmtId="164" formatCode="0"/>', [0, 164]) },
      );
      const { rows, problems } = await read(file);
      expect(rows).toEqual([['', '', '', '']]);
      expect(problems.map((p) => p.message)).toEqual(
        ['4111111111111111', '4111111111111110', '12345678901234567890', '-1.5E+16'].map(
          (written) =>
            `The number ${written} has more than 15 digits, and Excel keeps only 15: the digits after the 15th are lost (Excel turns them into zeros). Format the column as Text in Excel, type the numbers again, and import again.`,
        ),
      );
    });

    it('1904 dates', async () => {
      const file = standard('<row r="1"><c r="A1" s="1"><v>0</v></c><c r="B1" s="1"><v>43962</v></c></row>', {
        styles: styles('', [0, 14]),
        'xl/workbook.xml': book('<sheet name="Data" sheetId="1" r:id="rId1"/>', '<workbookPr date1904="1"/>'),
      });
      expect((await read(file)).rows).toEqual([['01-01-1904', '12-05-2024']]);
    });

    it('1904 dates in a workbook of Excel 2013 and later: the x15:workbookPr in extLst changes nothing', async () => {
      const extension =
        '<extLst><ext uri="{140A7794-F4F9-4B5E-A3BA-CC21C3D6E59E}" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main"><x15:workbookPr chartTrackingRefBase="1"/></ext></extLst>';
      const file = standard('<row r="1"><c r="A1" s="1"><v>43962</v></c></row>', {
        styles: styles('', [0, 14]),
        'xl/workbook.xml': book(
          '<sheet name="Data" sheetId="1" r:id="rId1"/>',
          '<workbookPr date1904="1"/>',
        ).replace('</workbook>', `${extension}</workbook>`),
      });
      expect((await read(file)).rows).toEqual([['12-05-2024']]);
    });
  });

  describe('malformed XML in any part: refused, naming the part', () => {
    const broken = '<unclosed><still>';
    it.each([
      [
        '[Content_Types].xml',
        { '[Content_Types].xml': broken },
        /\[Content_Types\]\.xml is not well-formed XML/,
      ],
      [
        '_rels/.rels',
        { '_rels/.rels': '<Relationships><Relationship Id="a" Target="x"></Relationships>' },
        /_rels\/\.rels is not well-formed XML/,
      ],
      [
        'the workbook',
        { 'xl/workbook.xml': `<workbook xmlns="${MAIN}"><sheets><sheet name='a"/></sheets></workbook>` },
        /xl\/workbook\.xml is not well-formed XML/,
      ],
      [
        'the workbook’s relationships',
        { 'xl/_rels/workbook.xml.rels': `${rels(['rId1', 'worksheet', 'worksheets/sheet1.xml'])}<extra/>` },
        /xl\/_rels\/workbook\.xml\.rels is not well-formed XML/,
      ],
      [
        'the styles',
        { styles: '<cellXfs><xf numFmtId="0"></cellXfs>' },
        /xl\/styles\.xml is not well-formed XML/,
      ],
      ['the shared strings', { strings: '<si><t>a</si>' }, /xl\/sharedStrings\.xml is not well-formed XML/],
      [
        'the sheet: tags that do not match',
        { 'xl/worksheets/sheet1.xml': sheetOf('<row r="1"><c r="A1"><v>1</c></v></row>') },
        /xl\/worksheets\/sheet1\.xml is not well-formed XML/,
      ],
      [
        'the sheet: cut short',
        { 'xl/worksheets/sheet1.xml': sheetOf('<row r="1"><c r="A1"><v>1</v></c></row>').slice(0, -30) },
        /xl\/worksheets\/sheet1\.xml is not well-formed XML/,
      ],
      [
        'the sheet: text after the root',
        { 'xl/worksheets/sheet1.xml': `${sheetOf('')}junk` },
        /xl\/worksheets\/sheet1\.xml is not well-formed XML/,
      ],
      [
        'the sheet: a raw control character',
        {
          'xl/worksheets/sheet1.xml': sheetOf(
            '<row r="1"><c r="A1" t="inlineStr"><is><t>a\u0001b</t></is></c></row>',
          ),
        },
        /sheet1\.xml is not well-formed XML \(disallowed character\)/,
      ],
    ])('%s', async (_, parts, message) => {
      const defaults = { '[Content_Types].xml': undefined as string | undefined };
      const { strings, styles: styleXml, ...replaced } = parts as Record<string, string>;
      await refused(
        standard(`<row r="1">${s(0, 'A1')}</row>`, {
          strings: strings ?? '<si><t>a</t></si>',
          styles: styleXml ?? '<cellXfs><xf numFmtId="0"/></cellXfs>',
          ...defaults,
          ...replaced,
        }),
        message,
      );
    });
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
