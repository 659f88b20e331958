import type { PDFDocument, PDFObject, PDFRef } from 'pdf-lib';
import { arrayText, dictText, leafText, pageEntries, pdfLib } from './split.ts';

type PdfLib = Awaited<ReturnType<typeof pdfLib>>;

/** A4 in points: the blank pages a print file puts in so the next notice starts on a right-hand page. */
export const A4_POINTS = [595.28, 841.89] as const;

/**
 * Joins many PDFs into one, written as it goes: each document's pages are copied, with every object
 * they name renumbered, straight to `write`; only the object offsets and the page numbers are held, so
 * a print file of 10,000 notices takes the memory of one. The copying is split.ts's (RecordFile): the
 * same reading of pages (pageEntries, inherited entries made the page's own) and the same writing of
 * objects as pdf-lib writes them; here the objects go out at once instead of into one record's file.
 * Why not pdf-lib's copyPages: it keeps the whole joined document in memory until save
 * (docs/decisions/0010-streaming-pdf-join.md).
 */
export class PdfJoin {
  /** Object 1 is the page tree, 2 the catalog, both written last. */
  private next = 3;
  private offset = 0;
  private readonly offsets: number[] = [];
  private readonly kids: number[] = [];
  private lib: PdfLib | undefined;

  constructor(private readonly write: (chunk: Buffer) => Promise<void>) {}

  /** Pages written so far: the next page is a right-hand one when this is even. */
  get pageCount(): number {
    return this.kids.length;
  }

  private async emit(text: string | Uint8Array): Promise<void> {
    const chunk = typeof text === 'string' ? Buffer.from(text, 'latin1') : Buffer.from(text);
    this.offset += chunk.length;
    await this.write(chunk);
  }

  async start(): Promise<void> {
    this.lib = await pdfLib();
    // The second line's bytes above 127 tell tools the file is binary, as the PDF standard advises.
    await this.emit('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n\n');
  }

  /** Copies every page of the PDF (or those at `only`, 0-based) to the end of the joined file. */
  async addPdf(pdf: Uint8Array | PDFDocument, only?: readonly number[]): Promise<void> {
    const lib = this.lib!;
    const doc = pdf instanceof Uint8Array ? await lib.PDFDocument.load(pdf, { parseSpeed: Infinity }) : pdf;
    const copier = new DocumentCopier(lib, doc, () => this.next++);
    const pages = doc.getPages();
    for (const index of only ?? pages.map((_, i) => i)) {
      const page = pages[index];
      if (!page) continue;
      const number = copier.numberOf(page.ref);
      const body = copier.dict(pageEntries(lib, page.node));
      await this.object(number, [`${body.slice(0, -2)}/Parent 1 0 R\n>>`]);
      this.kids.push(number);
      for (let pending = copier.pending.shift(); pending; pending = copier.pending.shift())
        await this.object(pending.number, copier.indirect(pending.target));
    }
  }

  /** An empty page: the back of a sheet. */
  async addBlank([width, height]: readonly [number, number] = A4_POINTS): Promise<void> {
    const number = this.next++;
    await this.object(number, [
      `<<\n/Type /Page\n/MediaBox [ 0 0 ${width} ${height} ]\n/Resources <<\n>>\n/Parent 1 0 R\n>>`,
    ]);
    this.kids.push(number);
  }

  private async object(number: number, parts: (string | Uint8Array)[]): Promise<void> {
    this.offsets[number] = this.offset;
    await this.emit(`${number} 0 obj\n`);
    for (const part of parts) await this.emit(part);
    await this.emit('\nendobj\n\n');
  }

  /** The page tree, the catalog, the cross-reference table and the trailer. */
  async end(): Promise<void> {
    await this.object(1, [
      `<<\n/Type /Pages\n/Kids [ ${this.kids.map((kid) => `${kid} 0 R `).join('')}]\n/Count ${this.kids.length}\n>>`,
    ]);
    await this.object(2, ['<<\n/Type /Catalog\n/Pages 1 0 R\n>>']);
    const xrefAt = this.offset;
    const lines = ['xref\n', `0 ${this.next}\n`, '0000000000 65535 f \n'];
    for (let number = 1; number < this.next; number++) {
      const at = this.offsets[number];
      // A reference to nothing (numbered, never written) is a free entry.
      lines.push(at === undefined ? '0000000000 65535 f \n' : `${String(at).padStart(10, '0')} 00000 n \n`);
    }
    await this.emit(lines.join(''));
    await this.emit(`trailer\n<<\n/Size ${this.next}\n/Root 2 0 R\n>>\n\nstartxref\n${xrefAt}\n%%EOF\n`);
  }
}

/** One source document's objects as the joined file numbers them. */
class DocumentCopier {
  private readonly numbers = new Map<PDFRef, number>();
  readonly pending: { number: number; target: PDFObject }[] = [];

  constructor(
    private readonly lib: PdfLib,
    private readonly doc: PDFDocument,
    private readonly allocate: () => number,
  ) {}

  numberOf(ref: PDFRef): number {
    let number = this.numbers.get(ref);
    if (number === undefined) {
      number = this.allocate();
      this.numbers.set(ref, number);
    }
    return number;
  }

  private reference(ref: PDFRef): string {
    const known = this.numbers.has(ref);
    const number = this.numberOf(ref);
    if (!known) {
      const target = this.doc.context.lookup(ref);
      const { PDFPageLeaf } = this.lib;
      // Another page (a link's destination): not copied unless it is one of the pages joined.
      if (target && !(target instanceof PDFPageLeaf)) this.pending.push({ number, target });
    }
    return `${number} 0 R`;
  }

  copy = (value: PDFObject): string => {
    const { PDFArray, PDFDict, PDFRef, PDFStream } = this.lib;
    if (value instanceof PDFRef) return this.reference(value);
    if (value instanceof PDFDict) return this.dict(value.entries());
    if (value instanceof PDFArray) return arrayText(value.asArray(), this.copy);
    if (value instanceof PDFStream) throw new Error('a stream inside another object');
    return leafText(this.lib, value);
  };

  dict(entries: [PDFObject, PDFObject][]): string {
    return dictText(entries, this.copy);
  }

  indirect(target: PDFObject): (string | Uint8Array)[] {
    const { PDFName, PDFStream } = this.lib;
    if (!(target instanceof PDFStream)) return [this.copy(target)];
    const length = PDFName.of('Length');
    let text = '<<\n';
    for (const [key, value] of target.dict.entries())
      if (key !== length) text += `${key.toString()} ${this.copy(value)}\n`;
    text += `/Length ${target.getContentsSize()}\n`;
    return [`${text}>>\nstream\n`, target.getContents(), '\nendstream'];
  }
}
