import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';
import type { ArticleAssignment, TrackingEvent } from '@notice-desk/contract/post';
import type { Config } from '../../config/env.ts';
import { badRequest } from '../../lib/errors.ts';
import { importFileName, openSheet } from '../../lib/sheet-source.ts';
import { postTimeOf } from './post.service.ts';

/** Most rows an article or tracking file takes. */
const MAX_ROWS = 50_000;

/** Headers squashed as a record import matches them: case, spaces, dots and underscores left out. */
const squash = (header: string) => header.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** The headers each column goes by in the files staff and post offices give. */
const columnNames = {
  loanNo: ['loanno', 'loannumber', 'loan', 'reference', 'referenceno', 'ref', 'refno', 'referenceloanno'],
  articleNumber: [
    'articlenumber',
    'articleno',
    'article',
    'barcode',
    'barcodeno',
    'barcodenumber',
    'consignmentno',
    'consignmentnumber',
    'trackingno',
    'trackingnumber',
    'itemno',
    'itemnumber',
  ],
  event: ['event', 'status', 'eventdescription', 'eventtype', 'trackingstatus', 'description', 'remarks'],
  office: ['office', 'officename', 'location', 'eventoffice', 'postoffice', 'place'],
  at: ['datetime', 'eventdatetime', 'date', 'eventdate', 'dateandtime', 'timestamp', 'eventtime'],
  time: ['time'],
} as const;
type Column = keyof typeof columnNames;

/** Reads a sheet's rows as objects of the columns wanted; a missing column is refused naming it. */
async function readColumns<C extends Column>(
  file: { name: string; data: Buffer },
  config: Pick<Config, 'importMaxUnpackedBytes' | 'importMaxSharedStringsBytes' | 'locale'>,
  wanted: readonly C[],
  optional: readonly Column[] = [],
): Promise<{ row: number; cells: Record<C, string> & Partial<Record<Column, string>> }[]> {
  const name = importFileName(file.name, 'The file must be .xlsx or .csv.');
  if ('refusal' in name) throw badRequest(name.refusal);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'post-'));
  const at = path.join(dir, `sheet.${name.ending}`);
  try {
    await fs.writeFile(at, file.data);
    const reader = await openSheet(
      at,
      file.name,
      {
        maxInflatedBytes: config.importMaxUnpackedBytes,
        maxSharedStringsBytes: config.importMaxSharedStringsBytes,
        locale: config.locale,
        maxRows: MAX_ROWS,
      },
      { in: 'thread' },
    );
    try {
      let columns: Partial<Record<Column, number>> | undefined;
      const out: { row: number; cells: Record<C, string> & Partial<Record<Column, string>> }[] = [];
      for await (const { rowNumber, cells } of reader.rows) {
        if (!columns) {
          const headers = cells.map(squash);
          columns = {};
          for (const column of [...wanted, ...optional]) {
            const index = headers.findIndex((h) => (columnNames[column] as readonly string[]).includes(h));
            if (index >= 0) columns[column] = index;
          }
          const missing = wanted.filter((c) => columns![c] === undefined);
          if (missing.length > 0)
            throw badRequest(
              `The first row must name the columns: no ${missing.map((c) => columnNames[c][0]).join(', ')} column was found (headers read: ${cells.slice(0, 12).join(', ') || 'none'}).`,
            );
          continue;
        }
        if (cells.every((cell) => cell.trim() === '')) continue;
        const record = {} as Record<Column, string>;
        for (const [column, index] of Object.entries(columns))
          record[column as Column] = (cells[index] ?? '').trim();
        out.push({ row: rowNumber, cells: record });
        if (out.length > MAX_ROWS) throw badRequest(`The file has more than ${MAX_ROWS} rows.`);
      }
      if (!columns) throw badRequest('The file is empty: its first row must name the columns.');
      return out;
    } finally {
      reader.close();
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Loan number → article number rows of an .xlsx/.csv file. */
export async function readArticleSheet(
  file: { name: string; data: Buffer },
  config: Pick<Config, 'importMaxUnpackedBytes' | 'importMaxSharedStringsBytes' | 'locale'>,
): Promise<ArticleAssignment[]> {
  const rows = await readColumns(file, config, ['loanNo', 'articleNumber']);
  if (rows.length === 0) throw badRequest('The file has no rows under its header.');
  return rows.map(({ cells }) => ({ loanNo: cells.loanNo, articleNumber: cells.articleNumber }));
}

/** A tracking export's events; a date no format here reads is refused with its row. */
export async function readTrackingSheet(
  file: { name: string; data: Buffer },
  config: Pick<Config, 'importMaxUnpackedBytes' | 'importMaxSharedStringsBytes' | 'locale' | 'timeZone'>,
): Promise<TrackingEvent[]> {
  const rows = await readColumns(file, config, ['articleNumber', 'event', 'at'], ['office', 'time']);
  if (rows.length === 0) throw badRequest('The file has no rows under its header.');
  return rows.map(({ row, cells }) => {
    const when = cells.time ? `${cells.at} ${cells.time}` : cells.at;
    const at = postTimeOf(when, config.timeZone);
    if (!at)
      throw badRequest(
        `Row ${row}: '${when.slice(0, 40)}' is not a date and time; write DD-MM-YYYY HH:mm:ss (${config.timeZone}) or ISO.`,
      );
    if (!cells.articleNumber) throw badRequest(`Row ${row}: the article number is empty.`);
    return { articleNumber: cells.articleNumber, event: cells.event, office: cells.office ?? '', at };
  });
}

/** Most files one zip of scans holds. */
const MAX_ENTRIES = 2000;

/** The files of a zip of scans (folders and hidden files left out); each at most `maxBytes`. */
export function unzipProofs(zipData: Buffer, maxBytes: number): Promise<{ name: string; data: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zipData, { lazyEntries: true, strictFileNames: false }, (err, zip) => {
      if (err || !zip) return reject(badRequest('The file is not a zip archive.'));
      const files: { name: string; data: Buffer }[] = [];
      const fail = (error: Error) => {
        zip.close();
        reject(error);
      };
      zip.on('error', () => fail(badRequest('The zip archive is damaged.')));
      zip.on('entry', (entry: yauzl.Entry) => {
        const base = entry.fileName.split('/').pop() ?? '';
        if (entry.fileName.endsWith('/') || base.startsWith('.') || base === '') return zip.readEntry();
        if (files.length >= MAX_ENTRIES)
          return fail(badRequest(`The zip holds more than ${MAX_ENTRIES} files.`));
        if (entry.uncompressedSize > maxBytes)
          return fail(badRequest(`${base} is larger than ${maxBytes / 1024 / 1024} MB.`));
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return fail(badRequest(`${base} cannot be read from the zip.`));
          const chunks: Buffer[] = [];
          let size = 0;
          stream.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes)
              stream.destroy(badRequest(`${base} is larger than ${maxBytes / 1024 / 1024} MB.`));
            else chunks.push(chunk);
          });
          stream.on('error', (error) => fail(error));
          stream.on('end', () => {
            files.push({ name: base, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () =>
        files.length === 0 ? reject(badRequest('The zip holds no files.')) : resolve(files),
      );
      zip.readEntry();
    });
  });
}
