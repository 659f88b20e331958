import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The text of each page of a PDF, as a reader would copy it out. */
export async function pdfPagesText(pdf: Uint8Array): Promise<string[]> {
  const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false })
    .promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' '),
    );
  }
  await doc.destroy();
  return pages;
}

/** The text pdftotext (poppler) reads from a PDF: what a person's tools see. */
export async function pdftotext(pdf: Uint8Array): Promise<string> {
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn('pdftotext', ['-layout', '-', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(Buffer.concat(out).toString('utf8'))
        : reject(new Error(`pdftotext exited ${code}: ${Buffer.concat(err).toString()}`)),
    );
    child.stdin.end(pdf);
  });
}

/**
 * pdftotext's text of each of many PDFs, read in one run: the PDFs' pages are copied into one document
 * (pdf-lib copies content streams and fonts as they are) and pdftotext ends every page with a form
 * feed, so the text splits back per PDF. One process instead of one per PDF.
 */
export async function pdftotextEach(pdfs: Uint8Array[]): Promise<string[]> {
  const { PDFDocument } = await import('pdf-lib');
  const merged = await PDFDocument.create();
  const pageCounts: number[] = [];
  for (const pdf of pdfs) {
    const doc = await PDFDocument.load(pdf);
    const pages = await merged.copyPages(doc, doc.getPageIndices());
    for (const page of pages) merged.addPage(page);
    pageCounts.push(pages.length);
  }
  const pages = (await pdftotext(await merged.save())).split('\f');
  let next = 0;
  return pageCounts.map((count) => {
    const text = pages.slice(next, next + count).join('\f');
    next += count;
    return text;
  });
}
