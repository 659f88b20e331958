import fs from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { chromium, type Browser, type Download, type Page } from 'playwright-core';
import { chromiumArgs } from '../../server/src/lib/pdf/no-network.ts';
import { startServerProcess, type ServerProcess } from '../../server/src/test/server-process.ts';

const webDist = path.resolve(import.meta.dirname, '../dist');

/** The real server serving the built web app, on SQLite in a fresh DATA_DIR, as `npm start` runs it. */
export async function startProduct(env: Record<string, string> = {}): Promise<ServerProcess> {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    throw new Error('The web app is not built: run `npm test` (it builds it) or `npm run build`.');
  }
  return startServerProcess(env);
}

/**
 * Debian's Chromium, headless, with the flags the renderer's own takes: the run's shared one
 * (server/src/test/shared-browser.ts) when there is one, each caller in contexts of its own.
 */
export function launchBrowser(): Promise<Browser> {
  const shared = process.env.TEST_CHROMIUM_WS_ENDPOINT;
  if (shared) return chromium.connect(shared);
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    // The printing browser's flags (no host name resolves but 127.0.0.1, where the product runs).
    args: chromiumArgs,
  });
}

/** Records any dialog or uncaught page error, so a script that should never run is noticed. */
export function watchForSurprises(page: Page): string[] {
  const surprises: string[] = [];
  page.on('dialog', (dialog) => {
    surprises.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => surprises.push(`page error: ${error.message}`));
  return surprises;
}

/** A download's bytes, read through the browser's connection (a shared browser has no local path). */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  return buffer(await download.createReadStream());
}
