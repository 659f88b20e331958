import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRef,
  PDFString,
  StandardFonts,
} from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { markerPrefix } from './record-isolation.ts';
import { reproducible, splitAtMarkers } from './split.ts';

const prefix = markerPrefix('0123456789abcdef01234567');

/**
 * A batch as Chromium could write it, with what a split has to carry over: three records of one,
 * two and one pages, each starting at a marker link; a shared font; resources and a media box some
 * pages inherit from the page tree; an internal link naming another page; a template's own link; a
 * reference to an object that does not exist.
 */
async function batch(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const { context } = doc;
  const starts = [0, 1, 3];
  const pages = Array.from({ length: 4 }, (_, i) => {
    const page = doc.addPage([595, 842]);
    page.drawText(`Record page ${i}`, { x: 50, y: 700, font, size: 12 });
    return page;
  });
  const annots = pages.map((page, i) => {
    const list: PDFRef[] = [];
    const record = starts.indexOf(i);
    if (record >= 0) {
      const action = context.obj({ S: 'URI', URI: PDFString.of(`${prefix}${record}`) });
      list.push(
        context.register(context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 0, 1, 1], A: action })),
      );
    }
    page.node.set(PDFName.of('Annots'), context.obj(list));
    return list;
  });
  // Page 2 (record 1) links to page 1, and to a site by a hex string.
  annots[2]!.push(
    context.register(
      context.obj({
        Type: 'Annot',
        Subtype: 'Link',
        Rect: [0, 0, 9, 9],
        Dest: [pages[1]!.ref, 'XYZ', 0, 0, 0],
      }),
    ),
    context.register(
      context.obj({
        Type: 'Annot',
        Subtype: 'Link',
        Rect: [0, 0, 9, 9],
        A: { S: 'URI', URI: PDFHexString.fromText('https://example.test/') },
      }),
    ),
  );
  pages[2]!.node.set(PDFName.of('Annots'), context.obj(annots[2]!));
  // Page 3 inherits its resources and media box from the page tree.
  const tree = doc.catalog.Pages();
  for (const key of ['Resources', 'MediaBox']) {
    tree.set(PDFName.of(key), pages[3]!.node.get(PDFName.of(key))!);
    pages[3]!.node.delete(PDFName.of(key));
  }
  // A reference to an object that does not exist.
  pages[0]!.node.set(PDFName.of('Missing'), PDFRef.of(9999));
  return doc.save({ useObjectStreams: false });
}

/** What the split gave before it had a writer of its own: pdf-lib's copyPages, addPage and save. */
async function throughPdfLib(pdf: Uint8Array, pageRanges: number[][]): Promise<Buffer[]> {
  const doc = await PDFDocument.load(pdf);
  for (const page of doc.getPages()) {
    const annots = page.node.lookup(PDFName.of('Annots'), PDFArray);
    for (let i = annots.size() - 1; i >= 0; i--) {
      const uri = annots.lookup(i, PDFDict).lookupMaybe(PDFName.of('A'), PDFDict)?.lookup(PDFName.of('URI'));
      if (uri instanceof PDFString && uri.decodeText().startsWith(prefix)) annots.remove(i);
    }
    if (annots.size() === 0) page.node.delete(PDFName.of('Annots'));
  }
  return Promise.all(
    pageRanges.map(async (range) => {
      const single = await PDFDocument.create({ updateMetadata: false });
      for (const page of await single.copyPages(doc, range)) single.addPage(page);
      return reproducible(single);
    }),
  );
}

describe('splitting a batch', () => {
  it('gives each record the bytes pdf-lib would write for its pages alone', async () => {
    const pdf = await batch();
    const split = await splitAtMarkers(pdf, 3, prefix);
    expect(split).toHaveLength(3);
    const reference = await throughPdfLib(pdf, [[0], [1, 2], [3]]);
    split!.forEach((file, i) => expect(file.equals(reference[i]!), `record ${i}`).toBe(true));
    for (const file of split!) expect(file.toString('latin1')).not.toContain('record-start');
    const [first, second, third] = await Promise.all(split!.map((file) => PDFDocument.load(file)));
    expect([first!.getPageCount(), second!.getPageCount(), third!.getPageCount()]).toEqual([1, 2, 1]);
  });

  it('refuses markers that do not add up', async () => {
    const pdf = await batch();
    expect(await splitAtMarkers(pdf, 2, prefix)).toBeNull();
    expect(await splitAtMarkers(pdf, 4, prefix)).toBeNull();
    expect(await splitAtMarkers(pdf, 3, markerPrefix('another-batch'))).toBeNull();
  });
});
