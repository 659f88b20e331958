import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import pino from 'pino';
import { PdfRenderer } from '../../lib/pdf/renderer.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { pdfPagesText } from '../../test/pdf-text.ts';
import { creditCardKind, noticeKind } from '../records/record-kinds.ts';
import { sharedBrowserEndpoint } from '../../test/shared-browser.ts';

let t: TestApp;
let admin: SignedIn;
let user: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  admin = await signUp(t.app, 'admin');
  user = await signUp(t.app, 'user');
});
afterEach(async () => t.close());

const sample = (fields: readonly { key: string }[], tag: string) =>
  Object.fromEntries(fields.map((f) => [f.key, `${f.key}-${tag}`]));

async function createNotice(who: SignedIn, fields: Record<string, string>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/notices',
    headers: who.headers,
    payload: fields,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ _id: string }>();
}

async function pdfLinkOf(who: SignedIn, url = '/api/notices/by-user-id') {
  const list = (await t.app.inject({ method: 'GET', url, headers: who.headers })).json();
  return `${list.pdfUrl}${list.items[0].pdfLink}`;
}

async function editTemplate(key: string, html: string) {
  const items = (
    await t.app.inject({ method: 'GET', url: '/api/emailTemplates/getdata', headers: admin.headers })
  ).json().items;
  const template = items.find((i: { key: string }) => i.key === key);
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/emailTemplates/update/${template._id}`,
    headers: admin.headers,
    payload: { html },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('notice PDFs behind signed links', () => {
  it('opens without a bearer header and holds the record’s merged values, none of another record’s', async () => {
    await createNotice(user, sample(noticeKind.fields, 'other'));
    await createNotice(user, {
      ...sample(noticeKind.fields, 'mine'),
      custName: 'Asha <b>Kumar</b> <img src=x onerror=alert(1)>',
    });
    const link = await pdfLinkOf(user);
    expect(link).toMatch(/^\/api\/pdf\/notice\/[0-9a-f-]{36}\?expires=\d+&signature=/);
    const res = await t.app.inject({ method: 'GET', url: link });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = (await pdfPagesText(res.rawPayload)).join(' ');
    expect(text).toContain('loanNo-mine');
    expect(text).toContain('Asha <b>Kumar</b> <img src=x onerror=alert(1)>');
    expect(text).toContain('Section 62 of the Arbitration and Conciliation Act, 1996');
    expect(text).not.toContain('other');
  });

  it('refuses a tampered or expired link, or one grafted onto another user’s record, with 403', async () => {
    await createNotice(user, sample(noticeKind.fields, 'a'));
    const link = await pdfLinkOf(user);
    const other = await createNotice(user, sample(noticeKind.fields, 'b'));
    const anotherUsers = await createNotice(admin, sample(noticeKind.fields, 'theirs'));
    const tampered = [
      link.replace(/signature=./, (m) => `${m.slice(0, -1)}${m.endsWith('A') ? 'B' : 'A'}`),
      link.replace(/expires=(\d+)/, (_, e) => `expires=${Number(e) + 3600}`),
      link.replace(/notice\/[0-9a-f-]{36}/, `notice/${other._id}`),
      link.replace(/notice\/[0-9a-f-]{36}/, `notice/${anotherUsers._id}`),
      link.replace('/notice/', '/credit-card/'),
    ];
    for (const url of tampered)
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(403);
    const expired = link.replace(/expires=\d+/, 'expires=1000');
    expect((await t.app.inject({ method: 'GET', url: expired })).statusCode).toBe(403);
  });

  it('renders again after a template edit, and reuses the PDF while nothing changed', async () => {
    await createNotice(user, sample(noticeKind.fields, 'a'));
    const link = await pdfLinkOf(user);
    const first = await t.app.inject({ method: 'GET', url: link });
    const again = await t.app.inject({ method: 'GET', url: link });
    expect(Buffer.compare(first.rawPayload, again.rawPayload)).toBe(0);
    await editTemplate('notice-default', '<h1>Revised notice for {{custName}}</h1>');
    const revised = (await pdfPagesText((await t.app.inject({ method: 'GET', url: link })).rawPayload)).join(
      ' ',
    );
    expect(revised).toContain('Revised notice for custName-a');
  });

  it('prints a credit card with the activity template its Activity names, ignoring case and spaces', async () => {
    const card = { ...sample(creditCardKind.fields, 'c'), activity: 'dln  PERFORMA' };
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/credit-cards', headers: user.headers, payload: card }))
        .statusCode,
    ).toBe(201);
    const text = (
      await pdfPagesText(
        (await t.app.inject({ method: 'GET', url: await pdfLinkOf(user, '/api/credit-cards/by-user-id') }))
          .rawPayload,
      )
    ).join(' ');
    expect(text).toContain('DEMAND LEGAL NOTICE');
  });

  it('lets an ADMIN preview a template as a PDF', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/emailTemplates/preview',
      headers: admin.headers,
      payload: { kind: 'notice', html: '<p>Hello {{custName}}</p>' },
    });
    expect(res.statusCode).toBe(200);
    expect((await pdfPagesText(res.rawPayload)).join(' ')).toContain('Hello [Customer Name]');
    const denied = await t.app.inject({
      method: 'POST',
      url: '/api/emailTemplates/preview',
      headers: user.headers,
      payload: { kind: 'notice', html: '<p>x</p>' },
    });
    expect(denied.statusCode).toBe(403);
  });

  it('refuses a preview naming a prototype property as a placeholder, for either kind, with 400', async () => {
    const names = ['{{constructor}}', '{{__proto__}}', '{{toString}}', '{{hasOwnProperty}}', '{{ valueOf }}'];
    for (const kind of ['notice', 'credit-card'])
      for (const name of names) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/emailTemplates/preview',
          headers: admin.headers,
          payload: { kind, html: `<p>Dear {{custName}}, ${name}</p>` },
        });
        expect(res.statusCode, `${kind} ${name}: ${res.body}`).toBe(400);
        expect(res.json().error.html).toContain(`{{${name.replace(/[{}\s]/g, '')}}} names no field of a`);
      }
  });
});

describe('rendering hostile templates', () => {
  let listener: http.Server;
  let hits: string[];
  let port: number;
  beforeAll(async () => {
    hits = [];
    listener = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('x');
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    port = (listener.address() as AddressInfo).port;
  });
  // Closes only once no connection is open: Chromium opens none, not even ahead of a request (lib/pdf/no-network.ts).
  afterAll(() => new Promise((r) => listener.close(r)));

  it('runs no script and fetches nothing a template names', async () => {
    const origin = `http://127.0.0.1:${port}`;
    await editTemplate(
      'notice-default',
      `<style>@import url('${origin}/import.css'); body { background: url('${origin}/bg.png'); }</style>
       <link rel="stylesheet" href="${origin}/link.css">
       <h1 id="t">Static {{custName}}</h1>
       <script>document.getElementById('t').textContent = 'SCRIPT RAN'; fetch('${origin}/fetch');</script>
       <img src="${origin}/img.png" onerror="document.body.innerHTML='ONERROR RAN'">
       <iframe src="${origin}/frame"></iframe>
       <object data="${origin}/object"></object>
       <p style="background-image:url(${origin}/inline.png)">end</p>`,
    );
    await createNotice(user, sample(noticeKind.fields, 'x'));
    const res = await t.app.inject({ method: 'GET', url: await pdfLinkOf(user) });
    expect(res.statusCode).toBe(200);
    const text = (await pdfPagesText(res.rawPayload)).join(' ');
    expect(text).toContain('Static custName-x');
    expect(text).not.toContain('RAN');
    await new Promise((r) => setTimeout(r, 200));
    expect(hits).toEqual([]);
  });
});

describe('the batch renderer', () => {
  const renderer = new PdfRenderer({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    wsEndpoint: sharedBrowserEndpoint(),
    log: pino({ level: 'silent' }),
  });
  afterAll(() => renderer.close());

  it('gives each record exactly its own pages, also when one runs to two pages', async () => {
    const long = '<p>Paragraph of the long notice.</p>'.repeat(70);
    const pdfs = await renderer.renderMany([
      '<h1>Record A</h1>',
      `<h1>Record B</h1>${long}<p>End of B</p>`,
      '<h1>Record C</h1>',
    ]);
    const pages = await Promise.all(pdfs.map(async (pdf) => (await PDFDocument.load(pdf)).getPageCount()));
    expect(pages[0]).toBe(1);
    expect(pages[1]).toBeGreaterThanOrEqual(2);
    expect(pages[2]).toBe(1);
    const texts = await Promise.all(pdfs.map((pdf) => pdfPagesText(pdf)));
    expect(texts[0]!.join(' ')).toContain('Record A');
    expect(texts[1]![0]).toContain('Record B');
    expect(texts[1]!.at(-1)).toContain('End of B');
    expect(texts[2]!.join(' ')).toContain('Record C');
    expect(texts.flat().join(' ')).not.toMatch(/record-start/);
  });

  it('says clearly when Chromium is missing, and the rest keeps working', async () => {
    const missing = new PdfRenderer({ executablePath: '/nowhere/chromium', log: pino({ level: 'silent' }) });
    await expect(missing.render('<p>x</p>')).rejects.toThrow(
      'PDF rendering is unavailable. Chromium was not found at /nowhere/chromium.',
    );
  });
});
