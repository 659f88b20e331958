import fs from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noticeKind } from './modules/records/record-kinds.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from './test/app.ts';

/**
 * The headers every answer carries: a content security policy strict enough that injected markup
 * cannot run script, yet loose enough for the self-hosted TinyMCE editor (which injects its skin as
 * inline styles and shows pasted images as data: and blob: URLs); no sniffing; no framing; no
 * server version. apps/web/e2e/templates.e2e.ts and xss.e2e.ts run the editor under this policy in
 * Chromium and fail on any policy violation.
 */

const NOTICE_HTML = '<!doctype html><html><head><title>Notice</title></head><body></body></html>';

let t: TestApp;
let user: SignedIn;
let webDist: string;
beforeAll(async () => {
  // A stand-in for the built web app, so the HTML answers are tested without a build.
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  fs.mkdirSync(path.join(webDist, 'static', 'js'), { recursive: true });
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/static/js/app.js"></script></head><body></body></html>',
  );
  fs.writeFileSync(path.join(webDist, 'static', 'js', 'app.js'), 'console.log("app");');
  // The build writes each text file also compressed beside it (apps/web/vite.config.ts).
  fs.writeFileSync(
    path.join(webDist, 'static', 'js', 'app.js.br'),
    brotliCompressSync('console.log("app");'),
  );
  fs.writeFileSync(
    path.join(webDist, 'index.html.gz'),
    gzipSync(fs.readFileSync(path.join(webDist, 'index.html'))),
  );
  fs.writeFileSync(path.join(webDist, 'notice.html'), NOTICE_HTML);
  fs.writeFileSync(path.join(webDist, 'notice.html.br'), brotliCompressSync(NOTICE_HTML));
  fs.writeFileSync(path.join(webDist, 'notice.html.gz'), gzipSync(NOTICE_HTML));
  t = await createTestApp({ WEB_DIST: webDist });
  user = await signUp(t.app, 'asha');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

/** `default-src 'self'; img-src 'self' data:` → { 'default-src': ["'self'"], 'img-src': ["'self'", 'data:'] } */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

const answers: [string, () => Promise<{ headers: Record<string, unknown>; statusCode: number }>, RegExp][] = [
  ['the HTML page', () => t.app.inject({ method: 'GET', url: '/' }), /^text\/html/],
  ['a deep link to a screen', () => t.app.inject({ method: 'GET', url: '/forms/notice' }), /^text\/html/],
  ['a script of the web app', () => t.app.inject({ method: 'GET', url: '/static/js/app.js' }), /javascript/],
  [
    'an API answer',
    () => t.app.inject({ method: 'GET', url: '/api/notices/by-user-id', headers: user.headers }),
    /^application\/json/,
  ],
  [
    'an API error',
    () => t.app.inject({ method: 'GET', url: '/api/notices/by-user-id' }),
    /^application\/json/,
  ],
  ['an unknown API route', () => t.app.inject({ method: 'GET', url: '/api/nowhere' }), /^application\/json/],
  [
    'a signed PDF link',
    async () => {
      const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key} x`]));
      await t.app.inject({ method: 'POST', url: '/api/notices', headers: user.headers, payload: fields });
      const list = (
        await t.app.inject({ method: 'GET', url: '/api/notices/by-user-id', headers: user.headers })
      ).json();
      return t.app.inject({ method: 'GET', url: `${list.pdfUrl}${list.items[0].pdfLink}` });
    },
    /^application\/pdf/,
  ],
];

describe('the web app build', () => {
  it("is sent compressed to a browser that takes it, as the build's .br and .gz files, and plain to one that does not", async () => {
    const script = await t.app.inject({
      method: 'GET',
      url: '/static/js/app.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(script.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(script.rawPayload).toString()).toBe('console.log("app");');
    const page = await t.app.inject({
      method: 'GET',
      url: '/forms/notice',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(page.rawPayload).toString()).toMatch(/^<!doctype html>/);
    const plain = await t.app.inject({
      method: 'GET',
      url: '/static/js/app.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("app");');
  });

  it('sends the notice page (kept in memory) as the browser takes it, and 304 for the copy it has', async () => {
    const get = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/n/AbCdEfGhIjKlMnOpQrStUv?c=w', headers });
    const br = await get({ 'accept-encoding': 'gzip, br' });
    expect(br.headers).toMatchObject({
      'content-encoding': 'br',
      'cache-control': 'no-cache',
      vary: 'accept-encoding',
    });
    expect(br.headers['content-type']).toMatch(/^text\/html/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(NOTICE_HTML);
    const gzip = await get({ 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(NOTICE_HTML);
    // An encoding refused by name stays refused under `*`, and names are read in any case
    // (docs/decisions/0012: why this is not @fastify/accept-negotiator).
    expect((await get({ 'accept-encoding': 'br;q=0, *' })).headers['content-encoding']).toBe('gzip');
    expect((await get({ 'accept-encoding': 'GZIP' })).headers['content-encoding']).toBe('gzip');
    const plain = await get({ 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(NOTICE_HTML);
    const again = await get({ 'if-none-match': String(plain.headers.etag) });
    expect(again.statusCode).toBe(304);
    // The verification page is a view of the same entry.
    expect((await t.app.inject({ method: 'GET', url: '/v/AbCdEfGhIjKl' })).body).toBe(NOTICE_HTML);
  });
});

describe.each(answers)('%s', (_, request, contentType) => {
  let res: Awaited<ReturnType<typeof request>>;
  beforeAll(async () => {
    res = await request();
    expect(String(res.headers['content-type'])).toMatch(contentType);
  });

  it('carries a content security policy that runs no injected script and lets TinyMCE run', () => {
    const csp = directives(String(res.headers['content-security-policy']));
    expect(csp['default-src']).toEqual(["'self'"]);
    // Scripts only from the app itself: no inline script, no eval (TinyMCE needs neither), no inline handlers.
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['script-src-attr']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'self'"]);
    // TinyMCE injects its skin and content styles as <style> elements and style attributes.
    expect(csp['style-src']).toEqual(expect.arrayContaining(["'self'", "'unsafe-inline'"]));
    // Images pasted into a template are data: URLs; TinyMCE previews uploads as blob: URLs.
    expect(csp['img-src']).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:']));
    // Calls go to the app's own origin only (no TinyMCE cloud, no third party).
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    // Nothing anywhere is loaded from another origin.
    for (const [name, sources] of Object.entries(csp)) {
      expect(sources, name).not.toContain("'unsafe-eval'");
      expect(
        sources.filter((s) => /^(https?:|\*|wss?:)/.test(s)),
        name,
      ).toEqual([]);
    }
  });

  it('forbids sniffing and framing, and names no server software', () => {
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers.server).toBeUndefined();
  });
});
