import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { importFileName, sheetFormat } from '../sheet-source.ts';
import { tempFiles } from '../../test/temp-files.ts';
import { XlsxError } from '../xlsx/xlsx-error.ts';
import { openCsv } from './read-csv.ts';
import { refuseNonText } from './text-encoding.ts';

const write = tempFiles('text-formats-');

const utf16be = (text: string) => {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return le;
};

async function cells(file: string): Promise<string[][]> {
  const reader = await openCsv(file);
  const out: string[][] = [];
  for await (const row of reader.rows) out.push(row.cells);
  return out;
}

async function refusal(file: string): Promise<string> {
  const error = await cells(file).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(XlsxError);
  return (error as Error).message;
}

describe("Excel's 'Unicode Text' and UTF-16 without a byte-order mark", () => {
  const text = 'Loan No.\tName\r\nLN1\tJosé आशा\r\n';

  it('takes a .txt as tab-separated text, stored as .tsv, when its bytes are text', async () => {
    expect(importFileName('March.TXT', 'no')).toEqual({ ending: 'tsv' });
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(await sheetFormat(write(bytes, 'a.tsv'), 'March.txt')).toBe('csv');
    await expect(refuseNonText(write(bytes, 'b.tsv'))).resolves.toBeUndefined();
    expect(await cells(write(bytes, 'c.tsv'))).toEqual([
      ['Loan No.', 'Name'],
      ['LN1', 'José आशा'],
    ]);
    // A workbook renamed .txt is still read as a workbook.
    expect(await sheetFormat(write('PK\u0003\u0004rest', 'd.tsv'), 'March.txt')).toBe('xlsx');
  });

  it('reads UTF-16LE and UTF-16BE without a mark, told by their NUL bytes', async () => {
    for (const [i, bytes] of [Buffer.from(text, 'utf16le'), utf16be(text)].entries()) {
      const file = write(bytes, `u${i}.tsv`);
      await expect(refuseNonText(file)).resolves.toBeUndefined();
      expect(await cells(file)).toEqual([
        ['Loan No.', 'Name'],
        ['LN1', 'José आशा'],
      ]);
    }
  });

  it('still refuses a binary file whose NUL bytes fall on both sides', async () => {
    const binary = Buffer.from([0x41, 0x00, 0x00, 0x42, 0x43, 0x00, 0x00, 0x44, 0x01, 0x02]);
    await expect(refuseNonText(write(binary))).rejects.toThrow(/not a text file/);
  });
});

describe('Windows-1252 or Mac Roman (8-bit CSV from Excel on Windows or on a Mac)', () => {
  const macRoman = (text: string) => iconv.encode(text, 'macintosh');

  it('reads Mac Roman where Windows-1252 would misspell names or leave bytes without a character', async () => {
    const text = 'Name,City\nJosé Müller,Peña\nFrançoise Gómez,Zoë\n';
    expect(await cells(write(macRoman(text)))).toEqual([
      ['Name', 'City'],
      ['José Müller', 'Peña'],
      ['Françoise Gómez', 'Zoë'],
    ]);
    // Only the five bytes Windows-1252 has no character for: Å ç è ê ù.
    expect(await cells(write(macRoman('Name\nÅsa çèêù\n')))).toEqual([['Name'], ['Åsa çèêù']]);
  });

  it('reads Windows-1252 as before: accented names, curly quotes, an apostrophe, a dash, euros', async () => {
    const text = 'Name,Note\nJosé Müller,“paid” – €100\nD’Souza,Škoda\n';
    expect(await cells(write(Buffer.from(iconv.encode(text, 'win1252'))))).toEqual([
      ['Name', 'Note'],
      ['José Müller', '“paid” – €100'],
      ['D’Souza', 'Škoda'],
    ]);
  });

  it('refuses a file that reads wrong both ways, naming the lines and CSV UTF-8, never a silent U+FFFD', async () => {
    // Line 2 is Mac Roman (José), line 3 Windows-1252 (Müller): one of them is misspelled either way.
    const file = write(
      Buffer.concat([Buffer.from('Name\n'), macRoman('José\n'), iconv.encode('Müller\n', 'win1252')]),
    );
    expect(await refusal(file)).toBe(
      "The file's text encoding cannot be told: read as Windows-1252 (Excel on Windows), line 2 has letters no name holds, and read as Mac Roman (Excel on a Mac), line 3 has. Save the sheet again as CSV UTF-8 (Excel: File > Save As > CSV UTF-8) and import that file.",
    );
  });
});
