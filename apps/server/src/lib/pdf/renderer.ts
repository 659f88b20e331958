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

/** A launched browser, and a promise that rejects the moment it goes away. */
interface RunningBrowser {
  browser: Browser;
  context: BrowserContext;
  gone: Promise<never>;
}

/** A tab, with its browser and that browser's `gone`. */
interface Tab extends RunningBrowser {
  page: Page;
}

/** Longest a batch may take to print; past it the browser is taken for wedged and started afresh. */
const PRINT_DEADLINE_MS = 120_000;

class PrintDeadlineError extends Error {}

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
  private browser: Promise<RunningBrowser> | undefined;
  private readonly idle: Tab[] = [];
  /** Tabs that may print at once; callers beyond them wait their turn. */
  private free: number;
  private readonly waiting: (() => void)[] = [];
  private readonly batchSize: number;

  constructor(private readonly options: RendererOptions) {
    this.free = options.concurrency ?? 2;
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
    this.idle.length = 0;
    if (current) await (await current.catch(() => undefined))?.browser.close().catch(() => undefined);
  }

  private async renderBatchWithRetry(batch: string[]): Promise<Buffer[]> {
    try {
      return await this.renderBatch(batch);
    } catch (err) {
      if (err instanceof RendererUnavailableError) throw err;
      // The tab is gone, or the whole browser died under us (it is started afresh on the next use):
      // once more on a fresh tab. Other batches in flight recover on their own; this one closes nothing.
      this.options.log.warn({ err }, 'PDF batch failed; retrying on a fresh tab');
      try {
        return await this.renderBatch(batch);
      } catch (again) {
        if (again instanceof RendererUnavailableError) throw again;
        throw new RendererUnavailableError(
          `PDF rendering failed: ${(again as Error).message.split('\n')[0]}`,
        );
      }
    }
  }

  private async renderBatch(batch: string[]): Promise<Buffer[]> {
    const tab = await this.takeTab();
    let healthy = false;
    try {
      const pdf = await this.print(tab, batch);
      const split = await splitAtMarkers(pdf, batch.length);
      if (split) {
        healthy = true;
        return split;
      }
      this.options.log.warn(
        { records: batch.length },
        'record markers did not add up; printing records one by one',
      );
      const singles: Buffer[] = [];
      for (const html of batch) singles.push(Buffer.from(await this.print(tab, [html])));
      healthy = true;
      return singles;
    } catch (err) {
      // A browser that cannot print a batch in two minutes is wedged: it goes, the next use starts another.
      if (err instanceof PrintDeadlineError) void tab.browser.close().catch(() => undefined);
      throw err;
    } finally {
      if (healthy) this.giveTab(tab);
      else this.dropTab(tab);
    }
  }

  private async print({ page, gone }: Tab, documents: string[]): Promise<Uint8Array> {
    const sections = documents
      .map(
        (html, i) =>
          `<section class="nd-record"><a href="https://${MARKER_HOST}/${i}" style="font-size:1px;line-height:0;color:transparent;text-decoration:none">.</a>${html}</section>`,
      )
      .join('');
    const printing = (async () => {
      await page.setContent(
        `<!doctype html><html><head><meta charset="utf-8"><style>.nd-record{break-after:page}.nd-record:last-child{break-after:auto}</style></head><body>${sections}</body></html>`,
        { waitUntil: 'load', timeout: PRINT_DEADLINE_MS / 2 },
      );
      return page.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
    })();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PrintDeadlineError('Printing took too long.')), PRINT_DEADLINE_MS);
    });
    try {
      return await whileAlive(Promise.race([printing, deadline]), gone);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A warm tab of a live browser, once one of the `concurrency` turns is free. */
  private async takeTab(): Promise<Tab> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      for (let tab = this.idle.pop(); tab; tab = this.idle.pop()) if (usable(tab.page)) return tab;
      const running = await this.start();
      return { ...running, page: await whileAlive(running.context.newPage(), running.gone) };
    } catch (err) {
      this.release();
      throw err;
    }
  }

  private giveTab(tab: Tab): void {
    if (usable(tab.page)) this.idle.push(tab);
    this.release();
  }

  /** A tab that failed is not trusted again (nor waited on: a dead browser may never answer). */
  private dropTab(tab: Tab): void {
    void tab.page.close().catch(() => undefined);
    this.release();
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }

  /** The running browser, or a new one when there is none or it has died (killed, crashed, out of memory). */
  private async start(): Promise<RunningBrowser> {
    const launching = this.browser;
    if (launching) {
      const current = await launching;
      if (current.browser.isConnected()) return current;
      // Only the caller that finds this dead browser still current replaces it; the rest share the new one.
      if (this.browser === launching) this.browser = undefined;
    }
    this.browser ??= this.launch();
    return this.browser;
  }

  private launch(): Promise<RunningBrowser> {
    const run = async (): Promise<RunningBrowser> => {
      let browser: Browser;
      try {
        const { chromium } = await import('playwright-core');
        browser = await chromium.launch({
          executablePath: this.options.executablePath,
          headless: true,
          args: launchArgs,
        });
      } catch (err) {
        if (this.browser === launching) this.browser = undefined;
        const reason =
          (err as Error).message.includes("doesn't exist") || (err as Error).message.includes('ENOENT')
            ? `Chromium was not found at ${this.options.executablePath}. Install Debian's chromium package or set CHROMIUM_PATH.`
            : `Chromium did not start: ${(err as Error).message.split('\n')[0]}`;
        throw new RendererUnavailableError(`PDF rendering is unavailable. ${reason}`);
      }
      // Playwright leaves some calls (a tab being opened) pending for ever when the browser dies
      // under them; every call is raced against this instead.
      const gone = new Promise<never>((_, reject) =>
        browser.once('disconnected', () => reject(new Error('Chromium went away.'))),
      );
      gone.catch(() => undefined);
      browser.on('disconnected', () => {
        if (this.browser !== launching) return; // closed on purpose, or already replaced
        this.browser = undefined;
        this.options.log.warn('Chromium went away; a new one starts on the next render');
      });
      try {
        const context = await whileAlive(
          browser.newContext({ javaScriptEnabled: false, offline: true }),
          gone,
        );
        // Nothing a template names is fetched: images, styles, frames, fonts — all refused. data: URLs never reach here.
        await whileAlive(
          context.route('**/*', (route) => route.abort('blockedbyclient')),
          gone,
        );
        return { browser, context, gone };
      } catch (err) {
        if (this.browser === launching) this.browser = undefined;
        await browser.close().catch(() => undefined);
        throw err;
      }
    };
    // `run` checks `this.browser === launching` only after its first await, once this is assigned.
    const launching = run();
    return launching;
  }
}

/** The call's result, or the browser's death, whichever comes first. */
function whileAlive<T>(call: Promise<T>, gone: Promise<never>): Promise<T> {
  return Promise.race([call, gone]);
}

/** A tab that can print: open, in a browser that is still there. */
function usable(page: Page): boolean {
  return !page.isClosed() && page.context().browser()?.isConnected() === true;
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
