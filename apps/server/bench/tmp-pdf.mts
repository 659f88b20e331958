import { chromium } from 'playwright-core';
import type { PDFString } from 'pdf-lib';
import { PDFDocument, PDFName, PDFDict, PDFArray } from 'pdf-lib';
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const context = await browser.newContext({ javaScriptEnabled: false });
await context.route('**/*', (r) => r.abort());
const page = await context.newPage();
const body = (i: number) =>
  `<a href="https://record.invalid/${i}" style="font-size:1px;color:transparent;text-decoration:none">.</a><h1>Notice ${i}</h1>` +
  '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit. Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>'.repeat(
    i % 10 === 3 ? 40 : 12,
  );
const N = 100;
const html = `<!doctype html><html><head><meta charset="utf-8"><style>@page{size:A4;margin:18mm 16mm} section{break-after:page} section:last-child{break-after:auto}</style></head><body>${Array.from({ length: N }, (_, i) => `<section>${body(i)}</section>`).join('')}</body></html>`;
let t = performance.now();
await page.setContent(html, { waitUntil: 'load' });
const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
console.log('print', (performance.now() - t) | 0, 'ms', pdf.length);
t = performance.now();
const doc = await PDFDocument.load(pdf);
const starts: number[] = [];
doc.getPages().forEach((p, idx) => {
  const annots = p.node.lookup(PDFName.of('Annots'));
  if (annots instanceof PDFArray)
    for (let k = 0; k < annots.size(); k++) {
      const a = annots.lookup(k) as PDFDict;
      const act = a.lookup(PDFName.of('A'));
      if (act instanceof PDFDict) {
        const uri = act.lookup(PDFName.of('URI'));
        if (uri && String((uri as PDFString).decodeText?.() ?? uri).includes('record.invalid'))
          starts.push(idx);
      }
    }
});
console.log('pages', doc.getPageCount(), 'starts', starts.length, starts.slice(0, 6));
const outs: Uint8Array[] = [];
for (let i = 0; i < starts.length; i++) {
  const out = await PDFDocument.create();
  const end = i + 1 < starts.length ? starts[i + 1]! : doc.getPageCount();
  const pages = await out.copyPages(
    doc,
    Array.from({ length: end - starts[i]! }, (_, k) => starts[i]! + k),
  );
  pages.forEach((p) => {
    p.node.delete(PDFName.of('Annots'));
    out.addPage(p);
  });
  outs.push(await out.save());
}
console.log('split', (performance.now() - t) | 0, 'ms', outs.length, outs[3]!.length);
await browser.close();
