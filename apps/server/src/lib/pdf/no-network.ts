/**
 * What keeps a printing Chromium off the network. The renderer refuses every request a page makes
 * (renderer.ts routes them all), but Chromium opens connections no request handler sees: when a frame,
 * an `<object>` or a meta refresh starts to navigate it connects to the address ahead of the request,
 * a `<link rel=dns-prefetch>` looks its host up, and the browser's own services look up Google's
 * hosts. Such a connection carries no request, but it tells the host that a notice is printing, and
 * when, and it reaches hosts inside the network (no-network.test.ts counted one per frame, object and
 * refresh before these settings).
 *
 * - No host name resolves (`--host-resolver-rules`; in this Chromium the rule holds for IP literals
 *   too): nothing is looked up, on the network or in /etc/hosts, so nothing connects by name and no
 *   DNS query names a host a template wrote (`//{{custName}}.example.com` would carry a customer's
 *   name to any DNS server on the way). 127.0.0.1 is left out, for the tests' shared browser also
 *   browses the app under test there (the web e2e files).
 * - Every printing context goes through `proxyToNowhere`, whose name never resolves: whatever the
 *   rules let through (127.0.0.1, or every address in a browser server started without them) is
 *   reached through it, that is never. Playwright sends loopback addresses through it too.
 *
 * The page itself needs no network: its fonts are data: URLs and its content is set, not loaded.
 */

/**
 * The flags every Chromium that prints starts with: the renderer's own, and the one the tests share
 * (test/shared-browser.ts). A browser server given in CHROMIUM_WS_ENDPOINT must be started with them.
 */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/**
 * The proxy of every printing context: a name that is never looked up under chromiumArgs, and that no
 * DNS server answers (.invalid) where a browser runs without them.
 */
export const proxyToNowhere = { server: 'http://no-network.invalid:9' } as const;
