import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import type { FieldDefinition } from '@notice-desk/contract/record-fields';
import type { FastifyInstance } from 'fastify';

/** Writes a one-sheet workbook with exceljs (shared strings, as Excel writes them). */
export async function writeSheet(file: string, rows: (string | number | null)[][]): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
  const sheet = workbook.addWorksheet('Sheet1');
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
}

/** A header row of the fields' labels and `count` valid rows; row i's first field ends with i. */
export function recordSheet(fields: readonly FieldDefinition[], count: number, tag = 'r'): string[][] {
  return [
    fields.map((f) => f.label),
    // A language the templates know: any other value is noted in the import's row report.
    ...Array.from({ length: count }, (_, i) =>
      fields.map((f) => (f.key === 'language' ? 'English' : `${f.key} ${tag}${i}`)),
    ),
  ];
}

/** A multipart/form-data body, as a browser's FormData would send it. */
export function multipart(fields: Record<string, string>, file?: { name: string; data: Buffer }) {
  const boundary = `----form${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
          'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n',
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** An entry deflated beforehand (one too big to hold inflated in a test). */
export interface DeflatedEntry {
  name: string;
  deflated: Buffer;
  crc: number;
  /** Its inflated size, as the zip declares it. */
  size: number;
}

/**
 * `chunk` repeated `times` times, deflated without ever being whole in memory: a part that unpacks to
 * hundreds of MB from a few hundred KB, as a decompression bomb does.
 */
export async function deflatedRepeat(name: string, head: Buffer, chunk: Buffer, times: number, tail: Buffer) {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (data: Buffer) => out.push(data));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  let crc = zlib.crc32(head);
  deflate.write(head);
  for (let i = 0; i < times; i++) {
    crc = zlib.crc32(chunk, crc);
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  crc = zlib.crc32(tail, crc);
  deflate.end(tail);
  await done;
  const entry: DeflatedEntry = {
    name,
    deflated: Buffer.concat(out),
    crc,
    size: head.length + chunk.length * times + tail.length,
  };
  return entry;
}

/** A zip of the given entries, deflated, written by hand (for workbooks no spreadsheet program would write). */
export function zipOf(entries: ({ name: string; data: Buffer } | DeflatedEntry)[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const packed = 'deflated' in entry ? entry.deflated : zlib.deflateRawSync(entry.data, { level: 9 });
    const crc = 'deflated' in entry ? entry.crc : zlib.crc32 ? zlib.crc32(entry.data) : crc32(entry.data);
    const size = 'deflated' in entry ? entry.size : entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

function crc32(data: Buffer): number {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A minimal workbook whose only sheet is the given XML. */
/** The parts every hand-made workbook starts with: its workbook, naming one sheet S at worksheets/sheet1.xml. */
export function workbookParts(): { name: string; data: Buffer }[] {
  return [
    {
      name: 'xl/workbook.xml',
      data: Buffer.from('<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from(
        '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
    },
  ];
}

export function workbookWithSheet(sheetXml: Buffer): Buffer {
  return zipOf([...workbookParts(), { name: 'xl/worksheets/sheet1.xml', data: sheetXml }]);
}

/** The XML of a worksheet whose sheetData is the given rows' XML. */
export function sheetXml(
  rows: string,
  declaration = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
): string {
  return `${declaration}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;
}

/** A minimal workbook of the given parts (each XML as bytes or text): for what no spreadsheet program writes. */
export function workbookOf(parts: {
  sheet: Buffer | string | DeflatedEntry;
  sharedStrings?: Buffer | string | DeflatedEntry;
  styles?: Buffer | string;
}): Buffer {
  const entry = (name: string, data: Buffer | string | DeflatedEntry) =>
    typeof data === 'string'
      ? { name, data: Buffer.from(data) }
      : Buffer.isBuffer(data)
        ? { name, data }
        : { ...data, name };
  return zipOf([
    ...workbookParts(),
    entry('xl/worksheets/sheet1.xml', parts.sheet),
    ...(parts.sharedStrings ? [entry('xl/sharedStrings.xml', parts.sharedStrings)] : []),
    ...(parts.styles ? [entry('xl/styles.xml', parts.styles)] : []),
  ]);
}

/** 0 -> 'A', 36 -> 'AK' */
export const columnLetters = (i: number) =>
  (i < 26 ? '' : String.fromCharCode(64 + Math.floor(i / 26))) + String.fromCharCode(65 + (i % 26));

/**
 * A sheet of records written by hand, as no spreadsheet program would: a header row of the fields'
 * labels, then `rows` valid rows of inline strings (recordSheet's), in which `cell` may put its own
 * XML for a cell, given its reference and field key.
 */
export function handWrittenSheet(
  fields: readonly FieldDefinition[],
  rows: number,
  cell: (ref: string, key: string) => string | undefined = () => undefined,
  declaration?: string,
): string {
  const line = (r: number, values: string[]) =>
    `<row r="${r}">${values
      .map((v, i) => {
        const ref = `${columnLetters(i)}${r}`;
        return cell(ref, fields[i]!.key) ?? `<c r="${ref}" t="inlineStr"><is><t>${v}</t></is></c>`;
      })
      .join('')}</row>`;
  return sheetXml(
    recordSheet(fields, rows)
      .map((values, i) => line(i + 1, values))
      .join(''),
    declaration,
  );
}

/** An import's row report as read back: each line's cells after the first column (row, column, problem). */
export async function importReportLines(
  app: FastifyInstance,
  who: { headers: Record<string, string> },
  jobId: string,
  /** Keep the notes on rows imported with an address that cannot be served (left out by default). */
  { withServiceNotes = false } = {},
): Promise<string[][]> {
  const report = await app.inject({
    method: 'GET',
    url: `/api/imports/${jobId}/report`,
    headers: who.headers,
  });
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(report.rawPayload as unknown as ArrayBuffer);
  return workbook.worksheets[0]!.getSheetValues()
    .slice(2)
    .map((r) => (r as string[]).slice(1))
    .filter(([, , why]) => withServiceNotes || !String(why).startsWith('Imported, but not serviceable'));
}
