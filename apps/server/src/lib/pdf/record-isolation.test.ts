import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { openDatabase } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { anyMark, hostile, mark, recordHtml } from '../../test/hostile-layouts.ts';
import { pdftotextEach } from '../../test/pdf-text.ts';
import { PdfRenderer } from './renderer.ts';
import { sharedBrowserEndpoint } from '../../test/shared-browser.ts';

/**
 * Records per layout when they share documents: the case where one record could reach another's pages.
 * The renderer here puts BATCH of them in a document (production: 80), so each layout prints several
 * shared documents, first, middle and last records among them, in a fraction of the time 200 records in
 * documents of 80 took (149 s of the server suite's 630 s on 29 Nov).
 */
const RECORDS = 40;
const BATCH = 10;
/**
 * Records per layout when the renderer prints each in a document of its own: separate documents cannot
 * share a page, so fewer records prove the same (and keep the suite's time for the shared case).
 */
const RECORDS_ALONE = 6;

/**
 * No notice ever shows another customer's data, whatever its template does: 200 records, each with
 * marker values of its own, under layouts that try to put one record's text on another's pages.
 */

/** The renderer's debug lines, to tell which layouts it printed one record per document. */
const said: string[] = [];
const renderer = new PdfRenderer({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  wsEndpoint: sharedBrowserEndpoint(),
  batchSize: BATCH,
  log: pino({ level: 'debug' }, { write: (line: string) => void said.push(line) }),
});

/** Whether the renderer prints this layout's records one per document (asked with two records). */
async function printsAlone(layout: string): Promise<boolean> {
  said.length = 0;
  await renderer.renderMany([recordHtml(layout, 0), recordHtml(layout, 1)]);
  return said.some((line) => line.includes('printing one record per document'));
}
afterAll(() => renderer.close());

// The renderer does not touch the database: the PostgreSQL pass of the server suite skips this file.
describe.skipIf(process.env.DATABASE_URL)('each record prints alone, whatever its template does', () => {
  for (const layout of Object.keys(hostile)) {
    it(`${layout}: ${RECORDS} records (${RECORDS_ALONE} when printed one per document), each PDF with its own markers and no other record's`, async () => {
      const count = (await printsAlone(layout)) ? RECORDS_ALONE : RECORDS;
      const pdfs = await renderer.renderMany(Array.from({ length: count }, (_, i) => recordHtml(layout, i)));
      expect(pdfs).toHaveLength(count);
      const read = await pdftotextEach(pdfs);
      read.forEach((text, i) => {
        expect(text, `record ${i}`).toContain(mark(i, 'OWN'));
        expect(text, `record ${i}`).toContain(mark(i, 'END'));
        const strangers = [...text.matchAll(anyMark)].filter((m) => Number(m[2]) !== i).map((m) => m[0]);
        expect(strangers, `record ${i} shows another record's data`).toEqual([]);
        // Nothing the renderer added: no marker dot, no marker link text.
        expect(text.trimStart().startsWith('.')).toBe(false);
        expect(text).not.toContain('record-start');
      });
    }, 180_000);
  }
});

// A tab keeps one shared document from batch to batch (its fonts stay loaded): a batch must find in
// it nothing of the batches before, neither their records nor the rules hoisted from their templates.
describe.skipIf(process.env.DATABASE_URL)('a tab that printed other batches before', () => {
  it('prints a batch to the same bytes as a fresh browser does', async () => {
    const plain = [0, 1, 2].map(
      (i) => `<h1>Notice for ${mark(i, 'OWN')}</h1><p>Closing ${mark(i, 'END')}</p>`,
    );
    // The last one's @page rule (A5, no margins) is hoisted to the shared document.
    const before = [
      'an @page margin box naming the record',
      'styles that carry the record into every element',
      'page-break tricks',
      '@page with its own size and margins',
    ];
    const used = new PdfRenderer({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      wsEndpoint: sharedBrowserEndpoint(),
      log: pino({ level: 'warn' }),
      concurrency: 1,
    });
    const fresh = new PdfRenderer({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      wsEndpoint: sharedBrowserEndpoint(),
      log: pino({ level: 'warn' }),
      concurrency: 1,
    });
    try {
      for (const layout of before) await used.renderMany([0, 1, 2].map((i) => recordHtml(layout, 100 + i)));
      const [reused, expected] = await Promise.all([used.renderMany(plain), fresh.renderMany(plain)]);
      reused.forEach((pdf, i) => expect(pdf.equals(expected[i]!), `record ${i}`).toBe(true));
    } finally {
      await Promise.all([used.close(), fresh.close()]);
    }
  }, 60_000);
});

/** A page as pdftoppm sees it: 8-bit grey pixels at 40 dpi. */
async function greyPages(pdf: Buffer): Promise<Buffer[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pages-'));
  try {
    fs.writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', '40', '-gray', path.join(dir, 'in.pdf'), path.join(dir, 'page')]);
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.pgm'))
      .sort()
      .map((f) => fs.readFileSync(path.join(dir, f)));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(process.env.DATABASE_URL)('the seeded templates', () => {
  it('print in a shared document exactly as each would print alone', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seeded-'));
    const { db } = await openDatabase(loadConfig({ DATA_DIR: dir }));
    await migrateToLatest(db);
    const templates = await db.selectFrom('email_templates').select(['key', 'html']).execute();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
    expect(templates.length).toBeGreaterThan(1);
    for (const { key, html } of templates) {
      const records = [0, 1, 2].map((i) =>
        html.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (_, field: string) => `${field} ${i}`),
      );
      const batched = await renderer.renderMany(records);
      const alone = await renderer.render(records[1]!);
      const [shared, single] = await Promise.all([greyPages(batched[1]!), greyPages(alone)]);
      expect(shared.length, key).toBe(single.length);
      shared.forEach((page, p) => {
        let differing = 0;
        for (let b = 0; b < page.length; b++) if (Math.abs(page[b]! - single[p]![b]!) > 32) differing++;
        expect(differing / page.length, `${key} page ${p + 1}`).toBeLessThan(0.001);
      });
    }
  }, 120_000);
});
