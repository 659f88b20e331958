import fs from 'node:fs';
import { browserRestarts, renderedDocuments } from '../metrics.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Browser, BrowserContext, CDPSession, Page, Route } from 'playwright-core';
import { randomBytes } from 'node:crypto';
import {
  bundledFontNames,
  fontCss,
  fontNeeds,
  fontStacks,
  uncoveredReason,
  useBundledFontsInPage,
} from './fonts.ts';
import {
  batchSkeleton,
  DEFAULT_PAGE_MARGINS_MM,
  defaultPageRule,
  buildBatchInPage,
  dropRecordsInPage,
  markerPrefix,
  proveRecordsInPage,
  type BatchLayout,
} from './record-isolation.ts';
import { chromiumArgs, proxyToNowhere } from './no-network.ts';
import { pdfLib, reproducible, splitAtMarkers } from './split.ts';

// playwright-core loads on the first render, not at start, as pdf-lib does (split.ts): a process that
// never prints (an API process, a worker busy with imports) does not carry it.

/** PDF rendering cannot run (no browser, or it keeps failing): the message says why. */
export class RendererUnavailableError extends Error {}

/** This one document cannot print as written (a character no bundled font covers): the message says why. */
export class UnprintableError extends Error {}

/** A document's PDF, or why that document alone could not print. */
export type PrintOutcome = Buffer | UnprintableError;

/** A document that passed the font check, with the font subsets its text needs. */
interface Printable {
  html: string;
  subsets: Set<string>;
}

export interface RendererOptions {
  executablePath: string;
  /**
   * A running Playwright browser server to print in (CHROMIUM_WS_ENDPOINT) instead of launching one:
   * this renderer's pages live in a context of its own, and closing it leaves the browser running.
   */
  wsEndpoint?: string | undefined;
  log: FastifyBaseLogger;
  /** Batches printed at the same time, each in its own tab. */
  concurrency?: number;
  /** Records printed as one document. */
  batchSize?: number;
}

/**
 * Chromium's print, asked directly (page.pdf's A4 and defaults, as playwright-core 1.65 sends them):
 * the PDF comes back once, as base64 in the answer, instead of through a stream read in pieces and
 * then encoded and decoded once more between playwright's client and server.
 */
const printParams = {
  transferMode: 'ReturnAsBase64',
  landscape: false,
  displayHeaderFooter: false,
  headerTemplate: '',
  footerTemplate: '',
  printBackground: true,
  scale: 1,
  paperWidth: 8.27,
  paperHeight: 11.7,
  marginTop: 0,
  marginBottom: 0,
  marginLeft: 0,
  marginRight: 0,
  pageRanges: '',
  preferCSSPageSize: true,
  generateTaggedPDF: false,
  generateDocumentOutline: false,
} as const;

/** A launched browser, and a promise that rejects the moment it goes away. */
interface RunningBrowser {
  browser: Browser;
  context: BrowserContext;
  gone: Promise<never>;
}

/** A tab, with its browser and that browser's `gone`. */
interface Tab extends RunningBrowser {
  page: Page;
  cdp: CDPSession;
  /**
   * The shared document the tab prints its batches in, while the page holds it: its nonce and the
   * font subsets whose @font-face rules it holds (buildBatchInPage). Unset until the first batch, and
   * again once the page printed a record alone.
   */
  shared?: { session: string; subsets: Set<string> };
  /** The viewport the tab lays batches out at (layOutAs), in print media; unset until the first proof. */
  viewport?: { width: number; height: number };
}

/** Longest a batch may take to print; past it the browser is taken for wedged and started afresh. */
const PRINT_DEADLINE_MS = 120_000;

class PrintDeadlineError extends Error {}

/**
 * One warm headless Chromium shared by the server. Pages run with JavaScript off, every network
 * request refused and no connection opened (templates are staff-edited HTML: nothing they say may run
 * or be fetched, and no host they name may learn of a print: no-network.ts).
 *
 * Speed: records are printed in batches, several to one document, then split per record at marker
 * links only this batch knows. Isolation: no record can reach another's pages, whatever its template
 * does (record-isolation.ts says how); a template that needs a document of its own prints one per record.
 *
 * Fonts: only the bundled ones (fonts.ts). A document with a character none of them covers is refused
 * before printing, and a PDF that embeds any other font (a host font the browser fell back to) is
 * refused after: its record fails with the reason, the others of its batch print.
 */
export class PdfRenderer {
  private browser: Promise<RunningBrowser> | undefined;
  private readonly idle: Tab[] = [];
  /** Tabs that may print at once; callers beyond them wait their turn. */
  private free: number;
  private readonly tabs: number;
  private readonly waiting: (() => void)[] = [];
  private readonly batchSize: number;

  constructor(private readonly options: RendererOptions) {
    this.tabs = options.concurrency ?? 2;
    this.free = this.tabs;
    this.batchSize = options.batchSize ?? 80;
  }

  /**
   * One outcome per HTML document, in order: its PDF, or why it alone cannot print. A document whose
   * text has a character no bundled font covers is refused before printing, never printed with boxes.
   */
  async renderEach(documents: string[]): Promise<PrintOutcome[]> {
    const outcomes: PrintOutcome[] = new Array<PrintOutcome>(documents.length);
    const printable: { index: number; document: Printable }[] = [];
    documents.forEach((html, index) => {
      const { uncovered, subsets } = fontNeeds(html);
      if (uncovered.length > 0) outcomes[index] = new UnprintableError(uncoveredReason(uncovered));
      else printable.push({ index, document: { html, subsets } });
    });
    await Promise.all(
      inBatches(printable, this.batchSize, this.tabs).map(async (batch) => {
        const printed = await this.renderBatchWithRetry(batch.map((entry) => entry.document));
        batch.forEach((entry, i) => (outcomes[entry.index] = printed[i]!));
        renderedDocuments.inc(printed.filter((outcome) => outcome instanceof Buffer).length);
      }),
    );
    return outcomes;
  }

  /** One PDF per HTML document, in order; throws the first document's UnprintableError, if any. */
  async renderMany(documents: string[]): Promise<Buffer[]> {
    const outcomes = await this.renderEach(documents);
    const refused = outcomes.find((outcome) => outcome instanceof UnprintableError);
    if (refused) throw refused;
    return outcomes as Buffer[];
  }

  async render(html: string): Promise<Buffer> {
    return (await this.renderMany([html]))[0]!;
  }

  /**
   * For /api/ready: undefined when this renderer can print (its browser connected, or, before the
   * first render, Chromium's executable there to start), else why not. Starts nothing.
   */
  async problem(): Promise<string | undefined> {
    const current = await this.browser?.catch(() => undefined);
    if (current)
      return current.browser.isConnected()
        ? undefined
        : 'Chromium went away; it restarts on the next render.';
    if (this.options.wsEndpoint) return undefined;
    try {
      await fs.promises.access(this.options.executablePath, fs.constants.X_OK);
      return undefined;
    } catch {
      return `Chromium was not found at ${this.options.executablePath}.`;
    }
  }

  async close(): Promise<void> {
    const current = this.browser;
    this.browser = undefined;
    this.idle.length = 0;
    if (current) await (await current.catch(() => undefined))?.browser.close().catch(() => undefined);
  }

  private async renderBatchWithRetry(batch: Printable[]): Promise<PrintOutcome[]> {
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

  /**
   * One PDF per record. The batch's records (one alone too, so its bytes are those it has in any batch)
   * share one document, each isolated (record-isolation.ts), then the PDF is split at their markers; a batch whose template needs a document of its own, or whose
   * markers do not add up, prints one document per record.
   *
   * A tab goes back as soon as Chromium has printed: the split (or making a lone record's PDF
   * reproducible) is the Node process's work, and the next batch is built in the tab meanwhile.
   */
  private async renderBatch(batch: Printable[]): Promise<PrintOutcome[]> {
    const prefix = markerPrefix(randomBytes(12).toString('hex'));
    const shared = await this.withTab((tab) => this.printShared(tab, batch, prefix));
    const outcomes = new Array<PrintOutcome | undefined>(batch.length);
    let alone = batch.map((_, i) => i);
    if (shared) {
      const proven = alone.filter((i) => !shared.unproven.has(i));
      const split =
        foreignFonts(shared.pdf).length === 0
          ? await splitAtMarkers(shared.pdf, proven.length, prefix)
          : null;
      if (split) {
        proven.forEach((index, i) => (outcomes[index] = split[i]!));
        alone = [...shared.unproven];
      } else {
        this.options.log.warn(
          { records: batch.length },
          'record markers did not add up, or a font not bundled was used; printing records one by one',
        );
      }
    }
    if (alone.length > 0) {
      const pdfs = await this.withTab((tab) =>
        this.printAlone(
          tab,
          alone.map((i) => batch[i]!),
        ),
      );
      const { PDFDocument } = await pdfLib();
      for (const [i, pdf] of pdfs.entries()) {
        const foreign = foreignFonts(pdf);
        outcomes[alone[i]!] =
          foreign.length > 0
            ? new UnprintableError(`The notice asks for fonts that are not bundled: ${foreign.join(', ')}.`)
            : await reproducible(
                await PDFDocument.load(pdf, { updateMetadata: false, parseSpeed: Infinity }),
              );
      }
    }
    return outcomes as PrintOutcome[];
  }

  /** `use` with a warm tab, which goes back once it is done (or is dropped if it failed). */
  private async withTab<T>(use: (tab: Tab) => Promise<T>): Promise<T> {
    const tab = await this.takeTab();
    let healthy = false;
    try {
      const result = await use(tab);
      healthy = true;
      return result;
    } catch (err) {
      // A browser that cannot print a batch in two minutes is wedged: it goes, the next use starts another.
      if (err instanceof PrintDeadlineError) void tab.browser.close().catch(() => undefined);
      throw err;
    } finally {
      if (healthy) this.giveTab(tab);
      else this.dropTab(tab);
    }
  }

  /**
   * The batch's proven records printed as one document, with the indexes of those that are not proven
   * to stay inside their own box (they print one document each); null when every record must.
   */
  private async printShared(
    tab: Tab,
    batch: Printable[],
    prefix: string,
  ): Promise<{ pdf: Buffer; unproven: Set<number> } | null> {
    const subsets = new Set(batch.flatMap((record) => [...record.subsets]));
    let layout = await this.buildBatch(tab, batch, prefix, subsets);
    // The page went elsewhere since the last batch: once more in a fresh shared document.
    if (layout.stale) layout = await this.buildBatch(tab, batch, prefix, subsets, true);
    if (layout.stale) throw new Error('The shared document was replaced while a batch was built.');
    if (layout.alone || !layout.page) {
      this.options.log.debug(
        { records: batch.length, reason: layout.alone ?? 'its @page rules cannot be read' },
        'printing one record per document',
      );
      return null;
    }
    await this.layOutAs(tab, layout.page);
    const unproven = new Set(await this.step(tab, tab.page.evaluate<number[]>(`(${proveRecordsInPage})()`)));
    if (unproven.size === batch.length) {
      this.options.log.debug(
        { records: batch.length, reason: 'no record is proven to stay inside its own box' },
        'printing one record per document',
      );
      return null;
    }
    if (unproven.size > 0) {
      this.options.log.debug(
        { records: batch.length, unproven: unproven.size },
        'printing the records not proven to stay inside their own box one per document',
      );
      await this.step(
        tab,
        tab.page.evaluate(`(${dropRecordsInPage})(${JSON.stringify({ drop: [...unproven], prefix })})`),
      );
    }
    return { pdf: await this.print(tab), unproven };
  }

  /**
   * The tab laid out as print lays the batch out: print media, a viewport the size of the page's content
   * area (media queries, percentages and viewport units then read as they print).
   */
  private async layOutAs(tab: Tab, area: { width: number; height: number }): Promise<void> {
    const size = { width: Math.max(1, Math.ceil(area.width)), height: Math.max(1, Math.ceil(area.height)) };
    if (tab.viewport?.width === size.width && tab.viewport.height === size.height) return;
    if (!tab.viewport) await this.step(tab, tab.page.emulateMedia({ media: 'print' }));
    await this.step(tab, tab.page.setViewportSize(size));
    tab.viewport = size;
  }

  /** Each record printed as a document of its own, as Chromium gives it. */
  private async printAlone(tab: Tab, batch: Printable[]): Promise<Buffer[]> {
    const { page } = tab;
    tab.shared = undefined;
    const pdfs: Buffer[] = [];
    for (const record of batch) {
      await this.step(tab, page.setContent(standardsMode(record.html), { waitUntil: 'load' }));
      await this.step(
        tab,
        page.evaluate(
          `(async () => {
            const faces = document.createElement('style');
            // The default margins first: a template's own @page rule comes after them and wins.
            faces.textContent = ${JSON.stringify(defaultPageRule)} + ${JSON.stringify(fontCss(record.subsets))};
            document.head.prepend(faces);
            (${useBundledFontsInPage})(document, ${JSON.stringify(fontStacks)});
            await document.fonts.ready;
          })()`,
        ),
      );
      pdfs.push(await this.print(tab));
    }
    return pdfs;
  }

  /**
   * The batch built in the tab's shared document, set up first when the tab has none (or `fresh`):
   * only the font rules the document does not hold yet are sent, so a tab decodes each font once.
   */
  private async buildBatch(
    tab: Tab,
    batch: Printable[],
    prefix: string,
    subsets: Set<string>,
    fresh = false,
  ): Promise<BatchLayout> {
    if (fresh || !tab.shared) {
      tab.shared = undefined;
      const session = randomBytes(12).toString('hex');
      await this.step(tab, tab.page.setContent(batchSkeleton(session), { waitUntil: 'load' }));
      tab.shared = { session, subsets: new Set() };
    }
    const { session, subsets: loaded } = tab.shared;
    const missing = [...subsets].filter((subset) => !loaded.has(subset));
    const args = {
      documents: batch.map((record) => record.html),
      prefix,
      fontFaces: fontCss(missing),
      session,
      // top, right, bottom, left, as the skeleton's default @page rule sets them.
      defaultMargins: [
        DEFAULT_PAGE_MARGINS_MM.vertical,
        DEFAULT_PAGE_MARGINS_MM.horizontal,
        DEFAULT_PAGE_MARGINS_MM.vertical,
        DEFAULT_PAGE_MARGINS_MM.horizontal,
      ],
    };
    const layout = await this.step(
      tab,
      tab.page.evaluate<BatchLayout>(
        `(${buildBatchInPage})(${JSON.stringify(args)}, (root) => (${useBundledFontsInPage})(root, ${JSON.stringify(fontStacks)}))`,
      ),
    );
    if (layout.stale) tab.shared = undefined;
    else for (const subset of missing) loaded.add(subset);
    return layout;
  }

  /** The page printed to PDF (printParams). */
  private async print(tab: Tab): Promise<Buffer> {
    const { data } = await this.step(tab, tab.cdp.send('Page.printToPDF', printParams));
    return Buffer.from(data, 'base64');
  }

  /** A browser call, abandoned when the browser dies or the call passes the print deadline. */
  private async step<T>({ gone }: Tab, call: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PrintDeadlineError('Printing took too long.')), PRINT_DEADLINE_MS);
    });
    try {
      return await whileAlive(Promise.race([call, deadline]), gone);
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
      const page = await whileAlive(running.context.newPage(), running.gone);
      return { ...running, page, cdp: await whileAlive(running.context.newCDPSession(page), running.gone) };
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
        browserRestarts.inc();
        const { wsEndpoint } = this.options;
        browser = wsEndpoint
          ? await chromium.connect(wsEndpoint)
          : await chromium.launch({
              executablePath: this.options.executablePath,
              headless: true,
              args: chromiumArgs,
            });
      } catch (err) {
        if (this.browser === launching) this.browser = undefined;
        const message = (err as Error).message;
        const reason = this.options.wsEndpoint
          ? `The browser at CHROMIUM_WS_ENDPOINT did not answer: ${message.split('\n')[0]}`
          : message.includes("doesn't exist") || message.includes('ENOENT')
            ? `Chromium was not found at ${this.options.executablePath}. Install Debian's chromium package or set CHROMIUM_PATH.`
            : `Chromium did not start: ${message.split('\n')[0]}`;
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
        // No connection either, not even one opened ahead of a request (no-network.ts).
        const context = await whileAlive(
          browser.newContext({ javaScriptEnabled: false, offline: true, proxy: proxyToNowhere }),
          gone,
        );
        // Nothing a template names is fetched: images, styles, frames, fonts — all refused. data: URLs never reach here.
        await whileAlive(context.route('**/*', refuse), gone);
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

/**
 * Every request refused. A navigation of the tab itself (a template's meta refresh) is answered 204 No
 * Content, which leaves the page where it is: refused, it would put an error page in the tab, in place
 * of the document being printed.
 */
function refuse(route: Route): Promise<void> {
  const request = route.request();
  return request.isNavigationRequest() && request.frame().parentFrame() === null
    ? route.fulfill({ status: 204 })
    : route.abort('blockedbyclient');
}

/**
 * A template as a document in standards mode, as the editor shows it and as the shared document prints
 * it: without a doctype Chromium would print it in quirks mode (tables not inheriting font sizes).
 */
function standardsMode(html: string): string {
  return /^\s*<!doctype/i.test(html) ? html : `<!doctype html><meta charset="utf-8">${html}`;
}

/**
 * Batches of at most `size`, as even as they can be, as many as the tabs (or a multiple) once there
 * are more records than one batch holds: 2,000 records in 25 batches of 80 left one tab printing the
 * last batch while the other waited; 26 of 76 or 77 end together.
 */
function inBatches<T>(records: T[], size: number, tabs: number): T[][] {
  let count = Math.ceil(records.length / size);
  if (count > 1) count = Math.ceil(count / tabs) * tabs;
  return Array.from({ length: count }, (_, i) =>
    records.slice(Math.floor((i * records.length) / count), Math.floor(((i + 1) * records.length) / count)),
  );
}

/** The call's result, or the browser's death, whichever comes first. */
function whileAlive<T>(call: Promise<T>, gone: Promise<never>): Promise<T> {
  return Promise.race([call, gone]);
}

/** A tab that can print: open, in a browser that is still there. */
function usable(page: Page): boolean {
  return !page.isClosed() && page.context().browser()?.isConnected() === true;
}

/**
 * Fonts the PDF embeds that are not bundled (a host font the browser fell back to): their names.
 * Chromium writes font dictionaries uncompressed, so the names are found in the bytes.
 */
function foreignFonts(pdf: Uint8Array): string[] {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const found = new Set<string>();
  for (const [, name] of text.matchAll(/\/BaseFont\s*\/(?:[A-Z]{6}\+)?([^\s/<>[\]()]+)/g))
    if (!bundledFontNames.has(name!)) found.add(name!);
  return [...found];
}
