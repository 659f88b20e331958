import { chromium, type BrowserServer } from 'playwright-core';
import { chromiumArgs } from '../lib/pdf/no-network.ts';

/**
 * Vitest's global setup for the server and e2e projects: one Chromium for the whole run, which every
 * test's renderer and every server process a test starts prints in (CHROMIUM_WS_ENDPOINT), each in
 * contexts of its own, instead of launching one per app (about 50 launches a pass). Tests that kill
 * or miss Chromium name CHROMIUM_PATH and launch their own (sharedBrowserEnv).
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.TEST_CHROMIUM_WS_ENDPOINT) return async () => {};
  const server: BrowserServer = await chromium.launchServer({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    // The flags the renderer launches its own with: the tests print as production does.
    args: chromiumArgs,
  });
  // Read by the workers, which start after this and inherit the environment.
  process.env.TEST_CHROMIUM_WS_ENDPOINT = server.wsEndpoint();
  return async () => {
    delete process.env.TEST_CHROMIUM_WS_ENDPOINT;
    await server.close();
  };
}

/**
 * The shared browser for an app or server process a test starts, unless the test names a Chromium of
 * its own (CHROMIUM_PATH or CHROMIUM_WS_ENDPOINT): empty outside Vitest (benchmarks launch their own).
 */
export function sharedBrowserEnv(env: Record<string, string | undefined> = {}): Record<string, string> {
  const endpoint = process.env.TEST_CHROMIUM_WS_ENDPOINT;
  if (!endpoint || env.CHROMIUM_PATH !== undefined || env.CHROMIUM_WS_ENDPOINT !== undefined) return {};
  return { CHROMIUM_WS_ENDPOINT: endpoint };
}

/** The shared browser's address for a renderer a test makes itself (undefined outside Vitest). */
export const sharedBrowserEndpoint = (): string | undefined => process.env.TEST_CHROMIUM_WS_ENDPOINT;
