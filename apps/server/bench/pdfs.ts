import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import pino from 'pino';
import { noticeFields } from '@notice-desk/contract/notice';
import { loadConfig } from '../src/config/env.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { fontCss, fontNeeds } from '../src/lib/pdf/fonts.ts';
import { PdfRenderer } from '../src/lib/pdf/renderer.ts';
import { mergeTemplate } from '../src/modules/templates/placeholders.ts';
import { findEmailTemplateByKey } from '../src/modules/templates/templates.repository.ts';
import { withTreeMemory } from './process-stats.ts';

/** 2,000 notices; BENCH_PDF_COUNT prints fewer on a machine too busy for the full run. */
const COUNT = Number(process.env.BENCH_PDF_COUNT ?? 2000);
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const hindiNames = ['राजेश कुमार शर्मा', 'सुनीता देवी', 'श्रीकांत पाटील', 'प्रियंका त्रिपाठी', 'क्षितिज अग्रवाल'];
const hindiLine =
  '<p lang="hi">आपके ऋण खाते पर बकाया राशि का भुगतान इस सूचना की प्राप्ति के पंद्रह दिनों के भीतर करें, अन्यथा हमारे मुवक्किल विधिक कार्यवाही प्रारंभ करेंगे।</p>';

/**
 * The seeded notice template merged with 2,000 generated records: Latin values, or Devanagari names
 * and addresses with a Hindi paragraph (there is no Hindi template yet; the fonts and shaping are what count).
 */
export async function noticeDocuments(language: 'latin' | 'hindi'): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pdf-'));
  const { db } = await openDatabase(loadConfig({ DATA_DIR: dir }));
  await migrateToLatest(db);
  const template = (await findEmailTemplateByKey(db, 'notice-default'))!.html;
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
  return Array.from({ length: COUNT }, (_, i) => {
    const fields = Object.fromEntries(noticeFields.map((f) => [f.key, `${f.label} ${i}`]));
    if (language === 'latin') return mergeTemplate(template, fields, 'html');
    const hindi = {
      ...fields,
      custName: `${hindiNames[i % hindiNames.length]} ${i}`,
      address: `मकान संख्या ${i}, गांधी नगर`,
      city: 'जयपुर',
      state: 'राजस्थान',
    };
    return mergeTemplate(template, hindi, 'html').replace(
      '<p>Dear Sir / Madam,</p>',
      `<p>Dear Sir / Madam,</p>${hindiLine}`,
    );
  });
}

export interface PdfFigures {
  way: string;
  'PDFs/s': number;
  seconds: number;
  'browser peak MB': number;
}

/** Chromium alone, one document per record, as a plain script would print: the baseline of the ratios. */
async function printOneByOne(documents: string[], head = ''): Promise<number> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  const start = performance.now();
  for (const html of documents) {
    await page.setContent(head + html);
    await page.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
  }
  const seconds = (performance.now() - start) / 1000;
  await browser.close();
  return seconds;
}

export interface PdfRatios {
  latin: number;
  hindi: number;
}

export async function benchPdfs(): Promise<{ figures: PdfFigures[]; ratios: PdfRatios }> {
  const renderer = new PdfRenderer({ executablePath: chromiumPath, log: pino({ level: 'warn' }) });
  await renderer.render('<p>warm up</p>');
  const timed = (htmls: string[]) =>
    withTreeMemory(async () => {
      const start = performance.now();
      const pdfs = await renderer.renderMany(htmls);
      if (pdfs.length !== htmls.length) throw new Error('wrong number of PDFs');
      return (performance.now() - start) / 1000;
    });
  const row = (way: string, run: { result: number; peakMb: number }): PdfFigures => ({
    way,
    'PDFs/s': Math.round(COUNT / run.result),
    seconds: Number(run.result.toFixed(1)),
    'browser peak MB': run.peakMb,
  });

  const figures: PdfFigures[] = [];
  const ratios: PdfRatios = { latin: 0, hindi: 0 };
  for (const language of ['latin', 'hindi'] as const) {
    const documents = await noticeDocuments(language);
    const naive = await withTreeMemory(() => printOneByOne(documents));
    // What inlining the bundled fonts costs a page printed on its own: the same baseline, with the
    // @font-face rules of the subsets the text needs in every page.
    const { subsets } = fontNeeds(documents[0]!);
    const withFonts = await withTreeMemory(() =>
      printOneByOne(documents, `<style>${fontCss(subsets)}</style>`),
    );
    const batched = await timed(documents);
    // A fixed footer repeats on every page of its own document, so such a template prints one document per record.
    const alone = await timed(
      documents.map((html) => `${html}<div style="position:fixed;bottom:0">Page footer</div>`),
    );
    figures.push(
      row(`${language}: one print per record (host fonts)`, naive),
      row(`${language}: one print per record, bundled fonts inlined`, withFonts),
      row(`${language}: project renderer (batched, split)`, batched),
      row(`${language}: project renderer, one document per record (fixed footer)`, alone),
    );
    ratios[language] = Number((naive.result / batched.result).toFixed(1));
  }
  await renderer.close();
  return { figures, ratios };
}
