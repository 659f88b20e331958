import {
  ANNOTATION_FLAGS,
  DEFAULT_BYTE_RANGE_PLACEHOLDER,
  PDFKitReferenceMock,
  PDFObject,
  removeTrailingNewLine,
  SIG_FLAGS,
} from '@signpdf/utils';

export interface PlaceholderOptions {
  reason: string;
  contactInfo: string;
  name: string;
  location: string;
  signingTime: Date;
  /** Room for the CMS, in bytes. */
  signatureLength: number;
  subFilter: string;
  appName: string;
}

/**
 * @signpdf/placeholder-plain's incremental update (the signature dictionary, its widget, the
 * AcroForm, the catalog and the first page written again, an xref section and a trailer after the
 * file's last byte), the same bytes, written in one piece. The library decodes the whole file as
 * UTF-8 to look for an /AcroForm (0.35 ms for a 26 KB notice; latin1 takes 8 µs) and copies the file
 * once for each object it adds: more than half of a notice's signing (docs/benchmarks.md). The
 * objects are @signpdf/utils's PDFObject's, in the library's order and layout; the file is read as
 * latin1, and only its trailer, xref sections, catalog and page. One difference: a reason, place or
 * signer's name outside ASCII goes in as PDFObject writes it (UTF-16); the library encodes that
 * string again as UTF-8, which garbles it. Undefined for a file this reading does not know (an xref
 * stream, a catalog with an /AcroForm already, an object it cannot find): the caller hands it to the
 * library. `signatures.test.ts` and `signed-notices.test.ts` compare the bytes with the library's.
 */
export function appendSignaturePlaceholder(
  pdfBuffer: Buffer,
  options: PlaceholderOptions,
): Buffer | undefined {
  const pdf = removeTrailingNewLine(pdfBuffer);
  const text = pdf.toString('latin1');
  const trailerAt = text.lastIndexOf('trailer');
  if (trailerAt < 0) return undefined;
  const trailer = text.slice(trailerAt, text.length - 6);
  const startXref = parseInt(trailer.slice(trailer.lastIndexOf('startxref') + 10), 10);
  const offsets = xrefOffsets(text, startXref);
  const rootRef = trailerValue(trailer, '/Root');
  const infoRef = trailerValue(trailer, '/Info');
  if (!offsets || !rootRef) return undefined;
  const objectOf = (ref: string) => {
    const offset = offsets.get(parseInt(ref, 10));
    if (offset === undefined) return undefined;
    const body = text.slice(offset, text.indexOf('endobj', offset));
    return body.slice(body.indexOf('<<') + 2, body.lastIndexOf('>>'));
  };
  const root = objectOf(rootRef);
  if (root === undefined || /\/AcroForm\s+(\d+\s\d+\sR)/.test(root)) return undefined;
  const pagesRef = /\/Pages\s+(\d+\s+\d+\s+R)/.exec(root)?.[1];
  const pages = pagesRef && objectOf(pagesRef);
  if (!pages) return undefined;
  const kidsAt = pages.indexOf('/Kids');
  const kids = pages
    .slice(pages.indexOf('[', kidsAt) + 1, pages.indexOf(']', kidsAt))
    .trim()
    .split(' ', 3);
  const pageRef = kids.join(' ');
  const pageIndex = parseInt(pageRef, 10);
  const page = objectOf(pageRef);
  if (page === undefined) return undefined;

  let maxIndex = Math.max(...offsets.keys());
  const rootIndex = parseInt(rootRef, 10);
  const added = new Map<number, number>();
  const parts: string[] = [];
  let length = pdf.length;
  const append = (index: number, body: string) => {
    added.set(index, length + 1);
    const part = `\n${index} 0 obj\n${body}endobj\n`;
    parts.push(part);
    length += part.length;
  };
  // As @signpdf/placeholder-pdfkit010 makes them, through its PDFKit mock.
  const ref = (object: object) => {
    maxIndex += 1;
    append(maxIndex, `${PDFObject.convert(object)}\n`);
    return new PDFKitReferenceMock(maxIndex);
  };
  const signature = ref({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: options.subFilter,
    ByteRange: [0, ...Array<string>(3).fill(DEFAULT_BYTE_RANGE_PLACEHOLDER)],
    Contents: Buffer.alloc(options.signatureLength),
    Reason: new String(options.reason),
    M: options.signingTime,
    ContactInfo: new String(options.contactInfo),
    Name: new String(options.name),
    Location: new String(options.location),
    Prop_Build: { Filter: { Name: 'Adobe.PPKLite' }, App: { Name: options.appName } },
  });
  const widget = ref({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    Rect: [0, 0, 0, 0],
    V: signature,
    T: new String('Signature1'),
    F: ANNOTATION_FLAGS.PRINT,
    P: new PDFKitReferenceMock(pageIndex),
  });
  const form = ref({
    Type: 'AcroForm',
    SigFlags: SIG_FLAGS.SIGNATURES_EXIST | SIG_FLAGS.APPEND_ONLY,
    Fields: [widget],
  });
  append(rootIndex, `<<\n${root}\n/AcroForm ${form}\n>>\n`);
  const annotsAt = page.indexOf('/Annots');
  const annotsEnd = annotsAt < 0 ? page.length : page.indexOf(']', annotsAt);
  const annots = annotsAt < 0 ? '/Annots [' : page.slice(annotsAt, annotsEnd);
  append(
    pageIndex,
    `<<\n${page.slice(0, annotsAt < 0 ? page.length : annotsAt)}${annots} ${widget}]${page.slice(annotsEnd + 1)}\n\n>>\n`,
  );

  const rows = ['0000000000 65535 f '];
  for (const [index, offset] of [...added].sort(([a], [b]) => a - b))
    rows.push(`${index} 1\n${String(offset).padStart(10, '0')} 00000 n `);
  parts.push(
    `\nxref\n0 1\n${rows.join('\n')}\ntrailer\n<<\n/Size ${maxIndex + 1}\n/Root ${rootRef}\n` +
      // startxref names the newline before `xref`, as the library writes it (readers allow the space).
      `${infoRef ? `/Info ${infoRef}\n` : ''}/Prev ${startXref}\n>>\nstartxref\n${length}\n%%EOF`,
  );
  return Buffer.concat([pdf, Buffer.from(parts.join(''), 'latin1')]);
}

/** A trailer's value as @signpdf reads it: up to the next name or the dictionary's end. */
function trailerValue(trailer: string, key: string): string | undefined {
  const at = trailer.indexOf(key);
  if (at < 0) return undefined;
  const rest = trailer.slice(at);
  let end = rest.indexOf('/', 1);
  if (end < 0) end = rest.indexOf('>', 1);
  return rest.slice(key.length + 1, end).trim();
}

/** Each object's offset, from the classic xref table at `position` and those its /Prev names. */
function xrefOffsets(text: string, position: number): Map<number, number> | undefined {
  const offsets = new Map<number, number>();
  let at: number | undefined = position;
  for (let hops = 0; at !== undefined; hops++) {
    if (!Number.isInteger(at) || hops > 100 || !/^\s*xref/.test(text.slice(at, at + 40))) return undefined;
    const end = text.indexOf('%%EOF', at);
    if (end < 0) return undefined;
    const [table = '', trailer = '']: string[] = text
      .slice(text.indexOf('xref', at) + 4, end)
      .split('trailer');
    let index = 0;
    let left = 0;
    for (const line of table.slice(table.indexOf('\n') + 1).split('\n')) {
      const fields = line.split(' ');
      if (line === '') continue;
      if (fields.length === 2) {
        [index, left] = fields.map(Number) as [number, number];
        continue;
      }
      if (left-- <= 0 || !/^\d+$/.test(fields[0]!.trim())) return undefined;
      const use = fields[2]?.trim();
      if (use !== 'n' && use !== 'f') return undefined;
      // The newest section is read first: its entry wins over an older one's.
      if (use === 'n' && !offsets.has(index)) offsets.set(index, Number(fields[0]));
      index += 1;
    }
    const prev: string | undefined = /Prev (\d+)/.exec(trailer)?.[1];
    at = prev === undefined ? undefined : Number(prev);
  }
  return offsets.size > 0 ? offsets : undefined;
}
