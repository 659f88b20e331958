import type { FastifyBaseLogger } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { PDFPage } from 'pdf-lib';

// playwright-core and pdf-lib load on the first render, not at start: a process that never prints
// (an API process, a worker busy with imports) does not carry them.
const pdfLib = () => import('pdf-lib');

/** PDF rendering cannot run (no browser, or it keeps failing): the message says why. */
export class RendererUnavailableError extends Error {}

export interface RendererOptions {
  executablePath: string;
  log: FastifyBaseLogger;
  /** Batches printed at the same time, each in its own tab. */
  concurrency?: number;
  /** Records printed as one document. */
  batchSize?: number;
}

const MARKER_HOST = 'record-start.invalid';
const launchArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * One warm headless Chromium shared by the server. Pages run with JavaScript off and every network
 * request refused (templates are staff-edited HTML: nothing they say may run or be fetched).
 *
 * Speed: records are printed in batches, one document per batch with a page break between records,
 * then split per record. Each record starts with an invisible link to a marker URL; Chromium keeps
 * links in the PDF, so the page holding each marker is exactly where that record starts. The markers
 * are removed from the split files. If a batch's markers do not add up, its records print one by one.
 */
export class PdfRenderer {
  private browser: Promise<{ browser: Browser; context: BrowserContext }> | undefined;
  private readonly idle: Page[] = [];
  private readonly waiting: ((page: Page) => void)[] = [];
  private open = 0;
  private readonly concurrency: number;
  private readonly batchSize: number;

  constructor(private readonly options: RendererOptions) {
    this.concurrency = options.concurrency ?? 2;
    this.batchSize = options.batchSize ?? 80;
  }

  /** One PDF per HTML document, in order. */
  async renderMany(documents: string[]): Promise<Buffer[]> {
    const batches: string[][] = [];
    for (let i = 0; i < documents.length; i += this.batchSize)
      batches.push(documents.slice(i, i + this.batchSize));
    const results = await Promise.all(batches.map((batch) => this.renderBatchWithRetry(batch)));
    return results.flat();
  }

  async render(html: string): Promise<Buffer> {
    return (await this.renderMany([html]))[0]!;
  }

  async close(): Promise<void> {
    const current = this.browser;
    this.browser = undefined;
    if (current) await (await current.catch(() => undefined))?.browser.close().catch(() => undefined);
  }

  private async renderBatchWithRetry(batch: string[]): Promise<Buffer[]> {
    try {
      return await this.renderBatch(batch);
    } catch (err) {
      if (err instanceof RendererUnavailableError) throw err;
      // The browser may have died under us: start afresh once.
      this.options.log.warn({ err }, 'PDF batch failed; restarting the browser and retrying');
      await this.close();
      try {
        return await this.renderBatch(batch);
      } catch (again) {
        throw new RendererUnavailableError(
          `PDF rendering failed: ${(again as Error).message.split('\n')[0]}`,
        );
      }
    }
  }

  private async renderBatch(batch: string[]): Promise<Buffer[]> {
    const page = await this.takePage();
    try {
      const pdf = await this.print(page, batch);
      const split = await splitAtMarkers(pdf, batch.length);
      if (split) return split;
      this.options.log.warn(
        { records: batch.length },
        'record markers did not add up; printing records one by one',
      );
      const singles: Buffer[] = [];
      for (const html of batch) singles.push(Buffer.from(await this.print(page, [html])));
      return singles;
    } finally {
      this.givePage(page);
    }
  }

  private async print(page: Page, documents: string[]): Promise<Uint8Array> {
    const sections = documents
      .map(
        (html, i) =>
          `<section class="nd-record"><a href="https://${MARKER_HOST}/${i}" style="font-size:1px;line-height:0;color:transparent;text-decoration:none">.</a>${html}</section>`,
      )
      .join('');
    await page.setContent(
      `<!doctype html><html><head><meta charset="utf-8"><style>.nd-record{break-after:page}.nd-record:last-child{break-after:auto}</style></head><body>${sections}</body></html>`,
      { waitUntil: 'load', timeout: 60_000 },
    );
    return page.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
  }

  private async takePage(): Promise<Page> {
    const page = this.idle.pop();
    if (page && !page.isClosed()) return page;
    if (this.open < this.concurrency) {
      this.open += 1;
      try {
        const { context } = await this.start();
        return await context.newPage();
      } catch (err) {
        this.open -= 1;
        throw err;
      }
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private givePage(page: Page): void {
    if (page.isClosed()) {
      this.open -= 1;
      return;
    }
    const next = this.waiting.shift();
    if (next) next(page);
    else this.idle.push(page);
  }

  private start(): Promise<{ browser: Browser; context: BrowserContext }> {
    this.browser ??= (async () => {
      let browser: Browser;
      try {
        const { chromium } = await import('playwright-core');
        browser = await chromium.launch({
          executablePath: this.options.executablePath,
          headless: true,
          args: launchArgs,
        });
      } catch (err) {
        this.browser = undefined;
        const reason =
          (err as Error).message.includes("doesn't exist") || (err as Error).message.includes('ENOENT')
            ? `Chromium was not found at ${this.options.executablePath}. Install Debian's chromium package or set CHROMIUM_PATH.`
            : `Chromium did not start: ${(err as Error).message.split('\n')[0]}`;
        throw new RendererUnavailableError(`PDF rendering is unavailable. ${reason}`);
      }
      browser.on('disconnected', () => {
        this.browser = undefined;
        this.idle.length = 0;
        this.open = 0;
      });
      const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
      // Nothing a template names is fetched: images, styles, frames, fonts — all refused. data: URLs never reach here.
      await context.route('**/*', (route) => route.abort('blockedbyclient'));
      return { browser, context };
    })();
    return this.browser;
  }
}

/** Splits a batch's PDF at its record markers; null when they do not match the number of records. */
async function splitAtMarkers(pdf: Uint8Array, records: number): Promise<Buffer[] | null> {
  const lib = await pdfLib();
  const { PDFDocument } = lib;
  const doc = await PDFDocument.load(pdf);
  const pages = doc.getPages();
  const starts: number[] = [];
  pages.forEach((page, index) => {
    if (markerLinks(lib, page).length > 0) starts.push(index);
  });
  if (starts.length !== records || starts[0] !== 0) return null;
  const out: Buffer[] = [];
  for (let r = 0; r < records; r++) {
    const from = starts[r]!;
    const to = r + 1 < records ? starts[r + 1]! : pages.length;
    const single = await PDFDocument.create();
    const copied = await single.copyPages(
      doc,
      Array.from({ length: to - from }, (_, k) => from + k),
    );
    for (const page of copied) {
      removeMarkers(lib, page);
      single.addPage(page);
    }
    out.push(Buffer.from(await single.save()));
  }
  return out;
}

type PdfLib = Awaited<ReturnType<typeof pdfLib>>;

function markerLinks(
  { PDFArray, PDFDict, PDFHexString, PDFName, PDFString }: PdfLib,
  page: PDFPage,
): number[] {
  const annots = page.node.lookup(PDFName.of('Annots'));
  const found: number[] = [];
  if (!(annots instanceof PDFArray)) return found;
  for (let i = 0; i < annots.size(); i++) {
    const annot = annots.lookup(i);
    const action = annot instanceof PDFDict ? annot.lookup(PDFName.of('A')) : undefined;
    const uri = action instanceof PDFDict ? action.lookup(PDFName.of('URI')) : undefined;
    if ((uri instanceof PDFString || uri instanceof PDFHexString) && uri.decodeText().includes(MARKER_HOST))
      found.push(i);
  }
  return found;
}

function removeMarkers(lib: PdfLib, page: PDFPage): void {
  const { PDFArray, PDFName } = lib;
  const annots = page.node.lookup(PDFName.of('Annots'));
  if (!(annots instanceof PDFArray)) return;
  for (const index of markerLinks(lib, page).reverse()) annots.remove(index);
  if (annots.size() === 0) page.node.delete(PDFName.of('Annots'));
}
