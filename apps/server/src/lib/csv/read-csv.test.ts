import { describe, expect, it } from 'vitest';
import { importFileName, sheetFormat } from '../sheet-source.ts';
import { tempFiles } from '../../test/temp-files.ts';
import { XlsxError } from '../xlsx/xlsx-error.ts';
import { openCsv, type CsvReadOptions } from './read-csv.ts';
import { sniffDelimiter } from './sniff-delimiter.ts';
import { refuseNonText } from './text-encoding.ts';

const write = tempFiles('read-csv-');

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return Buffer.concat([Buffer.from([0xfe, 0xff]), le]);
};
const cp1252 = (text: string) => Buffer.from(text, 'latin1');

async function rows(bytes: Buffer | string, options?: CsvReadOptions) {
  const reader = await openCsv(write(bytes), options);
  const out: { rowNumber: number; cells: string[] }[] = [];
  for await (const row of reader.rows) out.push({ rowNumber: row.rowNumber, cells: row.cells });
  expect(reader.progress()).toBe(1);
  return out;
}
const cells = async (bytes: Buffer | string) => (await rows(bytes)).map((row) => row.cells);

async function refusal(bytes: Buffer | string, options?: CsvReadOptions): Promise<string> {
  const error = await rows(bytes, options).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(XlsxError);
  return (error as Error).message;
}

describe('CSV encodings', () => {
  it('reads UTF-8 with and without a byte-order mark (the mark is not part of the first header)', async () => {
    const text = 'Name,City\nJosé,Bengaluru\nआशा,पुणे\n';
    expect(await cells(text)).toEqual([
      ['Name', 'City'],
      ['José', 'Bengaluru'],
      ['आशा', 'पुणे'],
    ]);
    expect(await cells(`\ufeff${text}`)).toEqual(await cells(text));
  });

  it("reads UTF-16LE with its mark, tab-separated (Excel's 'Unicode Text'), astral characters too", async () => {
    const text = 'Name\tNote\r\nआशा\t😀 ok\r\n"Ravi\tK"\tx\r\n';
    expect(await cells(utf16le(text))).toEqual([
      ['Name', 'Note'],
      ['आशा', '😀 ok'],
      ['Ravi\tK', 'x'],
    ]);
    expect(await cells(utf16be(text))).toEqual(await cells(utf16le(text)));
  });

  it('reads Windows-1252 when the bytes are not UTF-8 (Excel on Windows, plain CSV)', async () => {
    expect(await cells(cp1252('Name;Amount\nJos\xe9;\x80 5\nM\xfcller;\x93q\x94\n'))).toEqual([
      ['Name', 'Amount'],
      ['José', '€ 5'],
      ['Müller', '“q”'],
    ]);
  });

  it('decides on the whole file: a long ASCII start followed by a Windows-1252 name', async () => {
    const ascii = 'Name,Amount\n' + 'Asha Rao of Pune,1\n'.repeat(60_000); // past one 1 MB read
    const read = await cells(Buffer.concat([Buffer.from(ascii), cp1252('Jos\xe9,2\n')]));
    expect(read.at(-1)).toEqual(['José', '2']);
  });

  it('keeps a UTF-8 character split between two reads whole', async () => {
    const filler = 'a'.repeat(1024 * 1024 - 'Name\n'.length - 1);
    const read = await cells(`Name\n${filler}é\n`);
    expect(read[1]![0]!.endsWith('aé')).toBe(true);
  });

  it('refuses UTF-16 with a lone surrogate, naming its line', async () => {
    expect(await refusal(utf16le('Name\r\nAsha\r\nRa\ud83dvi\r\n'))).toMatch(
      /^Line 3 holds half of a character/,
    );
    expect(await refusal(utf16le('Name\r\n\ude00x\r\n'))).toMatch(/^Line 2 holds half of a character/);
    expect(await refusal(utf16le('Name\r\nAsha\ud800'))).toMatch(/^Line 2 /);
    expect(await refusal(Buffer.concat([utf16le('Name\r\n'), Buffer.from([0x41])]))).toMatch(
      /odd number of bytes/,
    );
  });

  it('refuses a surrogate written as UTF-8 (CESU-8, WTF-8), alone or among UTF-8 or 8-bit text', async () => {
    const surrogate = (code: number) =>
      Buffer.from([0xed, 0xa0 | ((code >> 6) & 0x1f), 0x80 | (code & 0x3f)]);
    const lone = surrogate(0xd800);
    // Alone, the bytes would read as Windows-1252 'í' and two symbols: never taken for that.
    expect(await refusal(Buffer.concat([Buffer.from('Name\nRa'), lone, Buffer.from('vi\n')]))).toMatch(
      /^Line 2 holds half of a character \(a UTF-16 surrogate written as UTF-8/,
    );
    const cesuPair = Buffer.concat([surrogate(0xd83d), surrogate(0xde00)]);
    expect(
      await refusal(Buffer.concat([Buffer.from('Name\nJosé\nAsha'), cesuPair, Buffer.from('\n')])),
    ).toMatch(/^Line 3 holds half of a character/);
    expect(
      await refusal(Buffer.concat([cp1252('Name\nJos\xe9\n'), Buffer.from('x\n'.repeat(300_000)), lone])),
    ).toMatch(/^Line 300,003 holds half of a character/);
    // Split between two reads of the file, it is still found.
    const split = Buffer.concat([
      Buffer.from('Name\n' + 'x'.repeat(1024 * 1024 - 6)),
      lone,
      Buffer.from('\n'),
    ]);
    expect(await refusal(split)).toMatch(/^Line 2 holds half of a character/);
    // A Windows-1252 'í' followed by ordinary text is still Windows-1252.
    expect(await cells(cp1252('Name\nMar\xeda\n'))).toEqual([['Name'], ['María']]);
  });

  it('refuses a file that mixes UTF-8 and other bytes, naming both lines, in either order', async () => {
    const utf8First = Buffer.concat([Buffer.from('Name\nJosé\nAsha\n'), cp1252('Jos\xe9\n')]);
    expect(await refusal(utf8First)).toMatch(/mixes two text encodings: line 2 is UTF-8 but line 4 is not/);
    const cp1252First = Buffer.concat([cp1252('Name\nJos\xe9\n'), Buffer.from('Asha\nJosé\n')]);
    expect(await refusal(cp1252First)).toMatch(/line 4 is UTF-8 but line 2 is not/);
    const far = Buffer.concat([Buffer.from('Name\nJosé\n' + 'x\n'.repeat(600_000)), cp1252('\xe9\n')]);
    expect(await refusal(far)).toMatch(/line 2 is UTF-8 but line 600,003 is not/);
  });

  it('refuses empty and binary files', async () => {
    expect(await refusal('')).toBe('The file is empty.');
    expect(await refusal('\ufeff')).toBe('The file is empty.');
    expect(await refusal(Buffer.from([0x41, 0x2c, 0x00, 0x01, 0x0a]))).toMatch(/not a text file/);
    expect(await refusal(utf16le('Name\r\n\0\r\n'))).toMatch(/not a text file/);
  });
});

describe('CSV structure', () => {
  it.each([
    [',', 'Name,Amount,City\n"Rao, K",1;5,"Pune|MH"\n'],
    [';', 'Name;Amount;City\n"Rao; K";1,5;Pune|MH\n'],
    ['\t', 'Name\tAmount\tCity\n"Rao\t K"\t1,5;x;y\tPune|MH\n'],
    ['|', 'Name|Amount|City\n"Rao| K"|1,5|Pune; MH\n'],
  ])('tells the delimiter %j from the lines, outside quotes', async (delimiter, text) => {
    const read = await cells(text);
    expect(read[0]).toEqual(['Name', 'Amount', 'City']);
    expect(read[1]).toHaveLength(3);
    expect(read[1]![0]).toBe(`Rao${delimiter} K`);
  });

  it('keeps cells as written: no numbers or dates read into them', async () => {
    expect((await cells('Loan No.,Amount,Date\n00123,"1,50,000.00",05/12/2024\n'))[1]).toEqual([
      '00123',
      '1,50,000.00',
      '05/12/2024',
    ]);
  });

  it('numbers rows as Excel shows them: a quoted line break stays in its row, CR LF becomes LF', async () => {
    const read = await rows('Name,Address\r\nAsha,"12 MG Road\r\nPune"\r\n\r\nRavi,"a ""quoted"" word"\r\n');
    expect(read).toEqual([
      { rowNumber: 1, cells: ['Name', 'Address'] },
      { rowNumber: 2, cells: ['Asha', '12 MG Road\nPune'] },
      { rowNumber: 3, cells: [''] },
      { rowNumber: 4, cells: ['Ravi', 'a "quoted" word'] },
    ]);
  });

  it('reads rows of differing lengths, a missing last line end, and quotes inside a bare cell', async () => {
    expect(await cells('a,b,c\n1\n1,2,3,4\n5" pipe,x')).toEqual([
      ['a', 'b', 'c'],
      ['1'],
      ['1', '2', '3', '4'],
      ['5" pipe', 'x'],
    ]);
  });

  it('refuses an unterminated quote, naming the row and line where it opens', async () => {
    expect(await refusal('Name,Address\nAsha,"12 MG Road\nPune\nRavi,x\n')).toMatch(
      /^Row 2 \(line 2 of the file\) opens a quoted cell that is never closed/,
    );
    expect(await refusal('Name,Address\nAsha,"a\nb"\nRavi,"x\n')).toMatch(/^Row 3 \(line 4 of the file\)/);
  });

  it('keeps text after a closing quote as written', async () => {
    expect((await cells('Name,City\n"Asha"x,Pune\n'))[1]).toEqual(['"Asha"x', 'Pune']);
  });

  it('stops soon after the first row past the limit, without reading the rest of a long file', async () => {
    const file = write('Name\n' + 'Asha\n\n'.repeat(400_000));
    const reader = await openCsv(file, { maxRows: 3 });
    const seen: number[] = [];
    const error = await (async () => {
      for await (const row of reader.rows) seen.push(row.rowNumber);
    })().catch((err: unknown) => err);
    expect((error as Error).message).toBe(
      'The sheet has more than 3 rows, the most one import takes; split it into smaller files.',
    );
    // 3 rows and 21 more with text (the header may be the 20th; the import counts below it), and the
    // blank rows between them.
    expect(seen).toEqual(Array.from({ length: 47 }, (_, i) => i + 1));
    expect(reader.progress()).toBeLessThan(0.2);
    // Rows above the header are not data rows: a title, a blank line, the header and 3 rows pass.
    expect(await rows('Allocation of March\n\nName\nA\nB\n\nC\n', { maxRows: 3 })).toHaveLength(7);
  });
});

describe('delimiter sniffing', () => {
  it('prefers the delimiter most lines hold equally often, then more columns, then a comma', () => {
    expect(sniffDelimiter('a;b;c\n1,5;2;3\n', true)).toBe(';');
    expect(sniffDelimiter('a,b,c,d\n1,2\n', true)).toBe(',');
    expect(sniffDelimiter('a|b\n"x,y,z"|1\n', true)).toBe('|');
    expect(sniffDelimiter('Name\nAsha\n', true)).toBe(',');
    expect(sniffDelimiter('a\tb\n1\t2\n3,4,5,6', false)).toBe('\t');
    // A title row above the header, and a row or two with a comma in an unquoted cell, do not decide.
    expect(sniffDelimiter('March allocation\nA;B;C\n1;2,5;3\n4;5;6\n7;8;9\n', true)).toBe(';');
    expect(sniffDelimiter('Allocation, March\nA\tB\tC\n1\t2\t3\n', true)).toBe('\t');
    expect(sniffDelimiter('Name\nAsha\n', true, '\t')).toBe('\t');
  });
});

describe('which reader, which names', () => {
  it('reads a zip as a workbook whatever its name, and text by its name', async () => {
    expect(await sheetFormat(write('PK\u0003\u0004rest'), 'notices.csv')).toBe('xlsx');
    expect(await sheetFormat(write('a,b\n'), 'notices.CSV')).toBe('csv');
    expect(await sheetFormat(write('a\tb\n'), 'notices.tsv')).toBe('csv');
    expect(await sheetFormat(write('a,b\n'), 'notices.xlsx')).toBe('xlsx');
  });

  it('takes .xlsx, .csv and .tsv names; tells .xls and .ods how to save them', () => {
    const otherwise = 'Please upload an Excel file (.xlsx).';
    expect(importFileName('March.CSV', otherwise)).toEqual({ ending: 'csv' });
    expect(importFileName('march.tsv', otherwise)).toEqual({ ending: 'tsv' });
    expect(importFileName('march.xlsx', otherwise)).toEqual({ ending: 'xlsx' });
    expect(importFileName('march.pdf', otherwise)).toEqual({ refusal: otherwise });
    expect(importFileName('march.xls', otherwise)).toEqual({
      refusal:
        'Excel 97-2003 (.xls) workbooks cannot be imported. Save the file as .xlsx or .csv and import it again.',
    });
    expect(importFileName('march.ods', otherwise)).toEqual({
      refusal:
        'OpenDocument (.ods) spreadsheets cannot be imported. Save the file as .xlsx or .csv and import it again.',
    });
  });

  it('checks an upload’s first bytes: empty, an .xls renamed .csv, binary', async () => {
    await expect(refuseNonText(write(''))).rejects.toThrow('The file is empty.');
    await expect(refuseNonText(write(Buffer.from('d0cf11e0a1b11ae1', 'hex')))).rejects.toThrow(
      /\(\.xls\) workbook/,
    );
    await expect(refuseNonText(write(Buffer.from([1, 0, 2])))).rejects.toThrow(/not a text file/);
    await expect(refuseNonText(write(utf16le('a\tb\r\n')))).resolves.toBeUndefined();
  });
});
