import net from 'node:net';
import { chromium } from 'playwright-core';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBrowserEndpoint } from '../../test/shared-browser.ts';
import { PdfRenderer } from './renderer.ts';

/**
 * Printing a template opens no connection at all, not only no request: Chromium connects ahead of a
 * request (a frame's or a refresh's navigation, a preconnect hint) where no request handler sees it,
 * and such a connection tells a host that a notice is printing, and when (no-network.ts). Each way a
 * page can make Chromium connect early names a listener of its own on 127.0.0.1, by the IP literal
 * (which the resolver rule leaves to the proxy) and by a host name, and every listener must stay
 * unconnected. Before no-network.ts, frames, objects and a meta refresh each connected one to three
 * times, in the shared document and alone.
 */

/** Each way a page names an address; `at(path)` is the address. */
const namings: Record<string, (at: (path: string) => string) => string> = {
  'link rel=preconnect': (at) =>
    `<link rel="preconnect" href="${at('')}"><link rel="preconnect" href="${at('')}" crossorigin>`,
  'link rel=dns-prefetch': (at) => `<link rel="dns-prefetch" href="${at('')}">`,
  'link rel=preload': (at) =>
    `<link rel="preload" as="image" href="${at('/p.png')}"><link rel="preload" as="style" href="${at('/p.css')}">` +
    `<link rel="preload" as="font" crossorigin href="${at('/p.woff2')}">`,
  'link rel=prefetch, prerender, modulepreload': (at) =>
    `<link rel="prefetch" href="${at('/prefetch')}"><link rel="prerender" href="${at('/prerender')}">` +
    `<link rel="modulepreload" href="${at('/m.js')}">`,
  'link rel=icon': (at) => `<link rel="icon" href="${at('/i.ico')}">`,
  'img src and srcset': (at) =>
    `<img src="${at('/i.png')}"><img srcset="${at('/s.png')} 1x"><picture><source srcset="${at('/p.png')}"><img></picture>`,
  'css url()': (at) =>
    `<style>p{background:url('${at('/bg.png')}')}</style><p style="border-image:url(${at('/b.png')}) 1">url()</p>`,
  'a href (hover, prerender)': (at) => `<a href="${at('/next')}">the next page</a>`,
  iframe: (at) => `<iframe src="${at('/frame')}"></iframe>`,
  'object and embed': (at) => `<object data="${at('/object')}"></object><embed src="${at('/embed')}">`,
  'meta http-equiv=refresh': (at) => `<meta http-equiv="refresh" content="0;url=${at('/refresh')}">`,
  'svg image, input image, base': (at) =>
    `<base href="${at('/')}"><svg><image href="${at('/svg.png')}" width="9" height="9"/></svg>` +
    `<input type="image" src="${at('/input.png')}"><img src="relative.png">`,
  'speculation rules and script': (at) =>
    `<script type="speculationrules">{"prerender":[{"source":"list","urls":["${at('/spec')}"]}]}</script>` +
    `<script src="${at('/s.js')}"></script>`,
};

/**
 * Ways that make a batch print one document per record (record-isolation.ts; @font-face rules that
 * differ between records): never printed in a shared document, though built in one first.
 */
const namingsAlone: Record<string, (at: (path: string) => string) => string> = {
  'link rel=stylesheet': (at) => `<link rel="stylesheet" href="${at('/s.css')}">`,
  '@import': (at) => `<style>@import url('${at('/import.css')}');</style>`,
  '@font-face': (at) =>
    `<style>@font-face{font-family:Far;src:url('${at('/f.woff2')}')}h2{font-family:Far,serif}</style><h2>font</h2>`,
};

/** The IP literal, and a name Chromium would resolve to loopback without asking a DNS server. */
const hosts = ['127.0.0.1', 'notices.localhost'];

/**
 * A fixed box makes a batch print one document per record (record-isolation.ts): every way is printed
 * that way, in a document of its own, and those that can in the shared document of a batch.
 */
const fixedBox = '<div style="position:fixed;top:0">alone</div>';

/** What the renderer says when records of a batch print one per document. */
const printedApart = /one (record )?per document|one by one/;

interface Listener {
  name: string;
  server: net.Server;
  accepted: number;
}

async function listener(name: string): Promise<Listener> {
  const counted: Listener = { name, server: net.createServer(), accepted: 0 };
  counted.server.on('connection', (socket) => {
    counted.accepted += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => counted.server.listen(0, '127.0.0.1', resolve));
  return counted;
}

const connected = (listeners: Listener[]) =>
  listeners.filter((l) => l.accepted > 0).map((l) => `${l.name}: ${l.accepted}`);

/** The renderer's debug lines, to tell a batch printed in a shared document. */
const said: string[] = [];
const log = pino({ level: 'debug' }, { write: (line: string) => void said.push(line) });
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Where a renderer prints: its wsEndpoint (undefined: it launches Chromium itself), and how to stop it. */
interface PrintingBrowser {
  wsEndpoint: string | undefined;
  close(): Promise<void>;
}

const browsers: [string, () => Promise<PrintingBrowser>][] = [
  ['the shared test browser', async () => ({ wsEndpoint: sharedBrowserEndpoint(), close: async () => {} })],
  ['a browser the renderer launches', async () => ({ wsEndpoint: undefined, close: async () => {} })],
  [
    // CHROMIUM_WS_ENDPOINT run without chromiumArgs: the context's proxy alone keeps every connection in.
    'a browser server started without the renderer’s flags',
    async () => {
      const server = await chromium.launchServer({ executablePath, headless: true, args: ['--no-sandbox'] });
      return { wsEndpoint: server.wsEndpoint(), close: () => server.close() };
    },
  ],
];

describe.each(browsers)('printing in %s', (_, start) => {
  let browser: PrintingBrowser;
  let renderer: PdfRenderer;
  const listeners: Listener[] = [];
  /** Each host's document for the shared document of a batch, and its document printed alone. */
  const shared: string[] = [];
  const alone: string[] = [];
  beforeAll(async () => {
    browser = await start();
    renderer = new PdfRenderer({ executablePath, wsEndpoint: browser.wsEndpoint, log });
    for (const host of hosts) {
      /** Each way of `ways` in one document, each at a listener of its own. */
      const named = async (ways: typeof namings, where: string) => {
        const parts = await Promise.all(
          Object.entries(ways).map(async ([naming, page]) => {
            const counted = await listener(`${naming} at ${host}, ${where}`);
            listeners.push(counted);
            const { port } = counted.server.address() as net.AddressInfo;
            return page((path) => `http://${host}:${port}${path}`);
          }),
        );
        return `${parts.join('\n')}<p>Printed ${where} naming ${host}.</p>`;
      };
      shared.push(await named(namings, 'in a shared document'));
      alone.push(fixedBox + (await named({ ...namings, ...namingsAlone }, 'alone')));
    }
  });
  afterAll(async () => {
    await renderer.close();
    await browser.close();
    await Promise.all(listeners.map((l) => new Promise((resolve) => l.server.close(resolve))));
  });

  it('opens no connection to any address a template names, during the print or after it', async () => {
    said.length = 0;
    const outcomes = await renderer.renderEach(shared);
    expect(said.filter((line) => printedApart.test(line))).toEqual([]);
    outcomes.push(...(await renderer.renderEach(alone)));
    expect(outcomes.filter((outcome) => !(outcome instanceof Buffer))).toEqual([]);
    expect(connected(listeners).join('\n')).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(connected(listeners).join('\n')).toBe('');
  }, 120_000);
});

describe('a browser started with chromiumArgs', () => {
  it('resolves no host name, not even one that names this machine', async () => {
    const counted = await listener('a page opened by name');
    const { port } = counted.server.address() as net.AddressInfo;
    const browser = await chromium.connect(sharedBrowserEndpoint()!);
    try {
      // A plain context: no proxy, nothing refused, so only the flags stand between the page and the host.
      const page = await (await browser.newContext()).newPage();
      for (const host of ['localhost', 'notices.localhost'])
        await expect(page.goto(`http://${host}:${port}/`)).rejects.toThrow('net::ERR_NAME_NOT_RESOLVED');
      expect(counted.accepted).toBe(0);
    } finally {
      await browser.close();
      counted.server.close();
    }
  });
});
