import { createHash } from 'node:crypto';
import type * as PdfLibModule from 'pdf-lib';
import type { PDFContext, PDFDocument, PDFName, PDFObject, PDFPage, PDFPageLeaf, PDFRef } from 'pdf-lib';
import { BatchFonts, recordEntries, type RecordPages } from './record-fonts.ts';

// pdf-lib loads on the first render, not at start: a process that never prints (an API process, a
// worker busy with imports) does not carry it. The import is kept: each `import()` resolves the
// module again (0.4 ms under tsx), which a split paid for every record.
type PdfLib = typeof PdfLibModule;
let pdfLibLoading: Promise<PdfLib> | undefined;
export const pdfLib = () => (pdfLibLoading ??= import('pdf-lib'));

/**
 * Splits a batch's PDF where each record's marker sits; null unless every record's marker is found,
 * once, each on a later page than the one before, the first on the first page.
 */
export async function splitAtMarkers(
  pdf: Uint8Array,
  records: number,
  prefix: string,
): Promise<Buffer[] | null> {
  const lib = await pdfLib();
  // Read at once: pdf-lib would otherwise pause on a 1 ms timer every 100 objects.
  const doc = await lib.PDFDocument.load(pdf, { parseSpeed: Infinity });
  const pages = doc.getPages();
  const markers = pages.map((page) => markerLinks(lib, page, prefix));
  const starts: number[] = [];
  for (const [index, found] of markers.entries()) {
    for (const { record } of found) {
      if (record !== starts.length || starts.at(-1) === index) return null;
      starts.push(index);
    }
  }
  if (starts.length !== records || starts[0] !== 0) return null;
  // Off the batch's pages before copying: a copied page brings every object it names, and a marker
  // (with the batch's nonce) left in a record's file would make its bytes differ from print to print.
  pages.forEach((page, index) => removeMarkers(lib, page, markers[index]!));
  const shared = new WeakMap<PDFObject, string>();
  const fonts = new BatchFonts(lib, doc.context);
  // Every record read first, its streams deflating on libuv's threads meanwhile; then written.
  const prepared: RecordPages[] = [];
  for (let r = 0; r < records; r++) {
    const to = r + 1 < records ? starts[r + 1]! : pages.length;
    prepared.push(recordPages(lib, fonts, pages.slice(starts[r], to)));
    // The event loop gets its turn between records: a batch takes tens of milliseconds to split.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const out: Buffer[] = [];
  for (const record of prepared) {
    await record.ready;
    const written = new RecordFile(lib, doc.context, shared).write(record.pages);
    if (!written) return null;
    out.push(withContentId(written));
  }
  return out;
}

/** A record's pages as its file will hold them: made independent of the batch where they can be. */
function recordPages(
  lib: PdfLib,
  fonts: BatchFonts,
  pages: PDFPage[],
): RecordPages & { independent: boolean } {
  const entries = pages.map((page) => pageEntries(lib, page.node));
  const independent = recordEntries(fonts, entries);
  return independent
    ? { ...independent, independent: true }
    : { pages: entries, ready: Promise.resolve(), independent: false };
}

/**
 * The same template and record give the same bytes on any day: no dates (Chromium stamps the time of
 * printing), a fixed producer instead of the browser's version, and a document id made from the content.
 * A document in our fonts is written as a record split from a batch is, so that a record printed alone
 * and one printed among others give the same bytes. Any other is saved by pdf-lib without object
 * streams, as Chromium writes its own, so the trailer is a plain dictionary after the cross-reference
 * table: the id goes into it without moving any object (no second save).
 */
export async function reproducible(doc: PDFDocument): Promise<Buffer> {
  const lib = await pdfLib();
  const { PDFDict, PDFName } = lib;
  // With our fonts, written as a record split from a batch is, so that both give the same bytes.
  const record = recordPages(lib, new BatchFonts(lib, doc.context), doc.getPages());
  await record.ready;
  const written = record.independent && new RecordFile(lib, doc.context, new WeakMap()).write(record.pages);
  if (written) return withContentId(written);
  doc.setProducer(PRODUCER);
  const info = doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);
  // The title too: a shared document has none, and one printed alone says `about:blank`.
  for (const key of ['CreationDate', 'ModDate', 'Creator', 'Title']) info.delete(PDFName.of(key));
  // Written at once: pdf-lib would otherwise pause on a 1 ms timer every 50 objects.
  return withContentId(Buffer.from(await doc.save({ useObjectStreams: false, objectsPerTick: Infinity })));
}

const PRODUCER = 'Notice Desk';

/** The file with its id, a hash of its content, in the trailer. */
function withContentId(content: Buffer): Buffer {
  const end = content.lastIndexOf('>>\n\nstartxref');
  if (end < 0 || content.lastIndexOf('trailer') > end) throw new Error('pdf-lib wrote no plain trailer');
  const id = createHash('sha256').update(content).digest('hex').slice(0, 32);
  return Buffer.concat([
    content.subarray(0, end),
    Buffer.from(`/ID [ <${id}> <${id}> ]\n`),
    content.subarray(end),
  ]);
}

/** A stream inside another object: no PDF has one, and the record is then split by pdf-lib instead. */
class UnexpectedObject extends Error {}

/**
 * One record's pages as a file of their own, byte for byte what pdf-lib writes for
 * `PDFDocument.create()`, `copyPages`, `addPage` and `save({ useObjectStreams: false })` with the
 * producer set: the same numbering (page tree 1, catalog 2, then each object when first named, each
 * page after what it names, the info dictionary last), the same layout of every object. Pages that
 * show text in our fonts are written with their fonts, resources and contents made the record's own
 * first (record-fonts.ts): then the file depends on the record alone, not on its batch.
 *
 * Why not pdf-lib itself: it clones every object a page names, the fonts of the whole batch included,
 * for every record, and writes byte by byte. That took 0.7 ms a record, more than a quarter of the
 * Node process's time in a batch; this takes a fifth of it (docs/benchmarks.md). Objects are read
 * from the batch's document and never changed; parts with no reference in them (a font's widths,
 * a box) are written once a batch (`shared`).
 */
class RecordFile {
  /** Object numbers 1 and 2 are the page tree and the catalog, as PDFDocument.create() makes them. */
  private next = 3;
  private readonly numbers = new Map<PDFRef, number>();
  /** Direct dictionaries and arrays already written in this file, as pdf-lib copies each once. */
  private readonly written = new Map<PDFObject, string>();
  private readonly objects: (string | Uint8Array)[][] = [];
  private references = 0;

  constructor(
    private readonly lib: PdfLib,
    private readonly context: PDFContext,
    private readonly shared: WeakMap<PDFObject, string>,
  ) {}

  /** The file of these pages (their entries), or null if they hold something a split cannot carry over. */
  write(pages: [PDFName, PDFObject][][]): Buffer | null {
    const { PDFHeader, PDFCrossRefSection, PDFHexString, PDFRef } = this.lib;
    const kids: number[] = [];
    try {
      for (const page of pages) {
        const body = this.dict(page);
        const number = this.next++;
        this.objects[number] = [`${body.slice(0, -2)}/Parent 1 0 R\n>>`];
        kids.push(number);
      }
    } catch (err) {
      if (err instanceof UnexpectedObject) return null;
      throw err;
    }
    const info = this.next++;
    this.objects[1] = [
      `<<\n/Type /Pages\n/Kids [ ${kids.map((kid) => `${kid} 0 R `).join('')}]\n/Count ${kids.length}\n>>`,
    ];
    this.objects[2] = ['<<\n/Type /Catalog\n/Pages 1 0 R\n>>'];
    this.objects[info] = [`<<\n/Producer ${PDFHexString.fromText(PRODUCER).toString()}\n>>`];

    const chunks: (string | Uint8Array)[] = [`${PDFHeader.forVersion(1, 7).toString()}\n\n`];
    let offset = byteLength(chunks[0]!);
    const xref = PDFCrossRefSection.create();
    for (let number = 1; number < this.next; number++) {
      const object = this.objects[number];
      if (!object) continue; // a reference to nothing: numbered, never written, as pdf-lib does
      xref.addEntry(PDFRef.of(number), offset);
      const parts = [`${number} 0 obj\n`, ...object, '\nendobj\n\n'];
      for (const part of parts) offset += byteLength(part);
      chunks.push(...parts);
    }
    chunks.push(
      `${xref.toString()}\n`,
      `trailer\n<<\n/Size ${this.next}\n/Root 2 0 R\n/Info ${info} 0 R\n>>\n\n`,
      `startxref\n${offset}\n%%EOF`,
    );
    return Buffer.concat(
      chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk)),
    );
  }

  // An arrow, so that dictText and arrayText call it on this file.
  private readonly copy = (value: PDFObject): string => {
    const { PDFArray, PDFDict, PDFPageLeaf, PDFRef, PDFStream } = this.lib;
    if (value instanceof PDFRef) return this.reference(value);
    if (value instanceof PDFPageLeaf) return this.dict(pageEntries(this.lib, value));
    if (value instanceof PDFStream) throw new UnexpectedObject();
    if (!(value instanceof PDFDict || value instanceof PDFArray)) return leafText(this.lib, value);
    const known = this.written.get(value) ?? this.shared.get(value);
    if (known !== undefined) return known;
    const before = this.references;
    const text =
      value instanceof PDFDict ? this.dict(value.entries()) : arrayText(value.asArray(), this.copy);
    this.written.set(value, text);
    if (this.references === before) this.shared.set(value, text);
    return text;
  };

  private dict(entries: [PDFName, PDFObject][]): string {
    return dictText(entries, this.copy);
  }

  /** A reference's new number; the object it names is written the first time it is met. */
  private reference(ref: PDFRef): string {
    this.references++;
    let number = this.numbers.get(ref);
    if (number === undefined) {
      number = this.next++;
      this.numbers.set(ref, number);
      const target = this.context.lookup(ref);
      if (target) this.objects[number] = this.indirect(target);
    }
    return `${number} 0 R`;
  }

  private indirect(target: PDFObject): (string | Uint8Array)[] {
    const { PDFName, PDFStream } = this.lib;
    if (!(target instanceof PDFStream)) return [this.copy(target)];
    // pdf-lib copies every entry, then sets the length from the contents as it writes, in the
    // entry's place or last.
    const length = PDFName.of('Length');
    let text = '<<\n';
    for (const [key, value] of target.dict.entries()) {
      const copied = this.copy(value);
      text += `${key.toString()} ${key === length ? target.getContentsSize() : copied}\n`;
    }
    if (!target.dict.has(length)) text += `/Length ${target.getContentsSize()}\n`;
    return [`${text}>>\nstream\n`, target.getContents(), '\nendstream'];
  }
}

/** A page's entries as pdf-lib copies them: inherited ones made its own, without its parent. */
export function pageEntries({ PDFName, PDFPageLeaf }: PdfLib, leaf: PDFPageLeaf): [PDFName, PDFObject][] {
  const entries = new Map<PDFName, PDFObject>(leaf.entries());
  for (const key of PDFPageLeaf.InheritableEntries.map((name) => PDFName.of(name))) {
    const value = leaf.getInheritableAttribute(key);
    if (!entries.get(key) && value) entries.set(key, value);
  }
  entries.delete(PDFName.of('Parent'));
  return [...entries];
}

/** A number, name, string and the like, as pdf-lib writes it. */
export function leafText(lib: PdfLib, value: PDFObject): string {
  const { PDFBool, PDFHexString, PDFName, PDFNull, PDFNumber, PDFString } = lib;
  if ([PDFNumber, PDFName, PDFString, PDFHexString, PDFBool].some((type) => value instanceof type))
    return value.toString();
  if (value === PDFNull) return 'null';
  const bytes = new Uint8Array(value.sizeInBytes());
  value.copyBytesInto(bytes, 0);
  return Buffer.from(bytes).toString('latin1');
}

/** A dictionary as pdf-lib writes it, each value written by `copy` (which renumbers what it names). */
export function dictText(entries: [PDFObject, PDFObject][], copy: (value: PDFObject) => string): string {
  let text = '<<\n';
  for (const [key, value] of entries) text += `${key.toString()} ${copy(value)}\n`;
  return `${text}>>`;
}

/** An array as pdf-lib writes it, each item written by `copy`. */
export const arrayText = (items: PDFObject[], copy: (value: PDFObject) => string): string =>
  `[ ${items.map((item) => `${copy(item)} `).join('')}]`;

const byteLength = (chunk: string | Uint8Array) =>
  typeof chunk === 'string' ? chunk.length : chunk.byteLength;

/** The batch's record markers on a page: the annotation's index and the record it starts. */
function markerLinks(
  { PDFArray, PDFDict, PDFHexString, PDFName, PDFString }: PdfLib,
  page: PDFPage,
  prefix: string,
): { annotation: number; record: number }[] {
  const annots = page.node.lookup(PDFName.of('Annots'));
  const found: { annotation: number; record: number }[] = [];
  if (!(annots instanceof PDFArray)) return found;
  for (let i = 0; i < annots.size(); i++) {
    const annot = annots.lookup(i);
    const action = annot instanceof PDFDict ? annot.lookup(PDFName.of('A')) : undefined;
    const uri = action instanceof PDFDict ? action.lookup(PDFName.of('URI')) : undefined;
    if (!(uri instanceof PDFString || uri instanceof PDFHexString)) continue;
    const text = uri.decodeText();
    if (text.startsWith(prefix) && /^\d+$/.test(text.slice(prefix.length)))
      found.push({ annotation: i, record: Number(text.slice(prefix.length)) });
  }
  return found;
}

function removeMarkers(
  { PDFArray, PDFName }: PdfLib,
  page: PDFPage,
  markers: { annotation: number }[],
): void {
  const annots = page.node.lookup(PDFName.of('Annots'));
  if (!(annots instanceof PDFArray)) return;
  for (const { annotation } of markers.toReversed()) annots.remove(annotation);
  if (annots.size() === 0) page.node.delete(PDFName.of('Annots'));
}
