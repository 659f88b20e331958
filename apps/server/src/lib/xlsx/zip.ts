import fs from 'node:fs/promises';
import { pipeline, Transform, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { XlsxError } from './xlsx-error.ts';
import { xmlText } from './xml-encoding.ts';
import { shorten } from './xml.ts';

/**
 * Bytes the inflater hands on at a time. yauzl's own inflater uses zlib's default, 16 KB: a
 * 140 MB sheet then comes in 9,900 pieces, and inflating it took 2.1–3.1 s against 0.6–1.4 s in
 * 256 KB pieces (the bench sheet, measured on a loaded machine, docs/benchmarks.md).
 */
const INFLATE_CHUNK = 256 * 1024;

/** The entries of a zip file, read lazily, each inflated under a byte budget shared by the whole file. */
export class ZipArchive {
  private inflated = 0;
  /** Entry names by their lower-case form: part names are case-insensitive (OPC, ECMA-376 part 2 §6.2.2.3). */
  private readonly byFoldedName = new Map<string, string>();

  private constructor(
    private readonly zip: ZipFile,
    readonly entries: Map<string, Entry>,
    private readonly maxInflatedBytes: number,
  ) {
    for (const name of entries.keys()) {
      const folded = foldPartName(name);
      if (!this.byFoldedName.has(folded)) this.byFoldedName.set(folded, name);
    }
  }

  static async open(file: string, maxInflatedBytes: number): Promise<ZipArchive> {
    await refuseKnownNonXlsx(file);
    const zip = await new Promise<ZipFile>((resolve, reject) =>
      yauzl.open(file, { lazyEntries: true, autoClose: false, strictFileNames: false }, (err, z) =>
        err || !z ? reject(err) : resolve(z),
      ),
    ).catch((err: Error) => {
      throw new XlsxError(
        `The file is not an .xlsx workbook: it is not a readable zip archive (${err.message}).`,
      );
    });
    const entries = new Map<string, Entry>();
    const folded = new Map<string, string>();
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        const name = entry.fileName.replace(/^\//, '');
        // Which of two parts of one name a program reads is its own choice: the file is refused, not guessed at.
        const twin = name.endsWith('/') ? undefined : folded.get(foldPartName(name));
        if (twin !== undefined) {
          reject(repeatedPart(twin, name));
          return;
        }
        folded.set(foldPartName(name), name);
        entries.set(name, entry);
        zip.readEntry();
      });
      zip.on('end', resolve);
      zip.on('error', (err: Error) => reject(new XlsxError(`The .xlsx file is damaged: ${err.message}.`)));
      zip.readEntry();
    }).catch((err: unknown) => {
      zip.close();
      throw err;
    });
    return new ZipArchive(zip, entries, maxInflatedBytes);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry a part name refers to, matched without regard to case (a `\` read as `/`). */
  find(partName: string): string | undefined {
    return this.entries.has(partName) ? partName : this.byFoldedName.get(foldPartName(partName));
  }

  /** A stream of the entry's inflated bytes; it errors once the whole file has inflated past the budget. */
  async stream(name: string): Promise<Readable> {
    const entry = this.entries.get(name);
    if (!entry) throw new XlsxError(`The .xlsx file has no ${name}.`);
    if (this.inflated + entry.uncompressedSize > this.maxInflatedBytes) throw this.tooBig();
    // Deflated entries are inflated here, in larger pieces than yauzl would (INFLATE_CHUNK).
    const deflated = entry.compressionMethod === 8;
    const raw = await new Promise<Readable>((resolve, reject) =>
      this.zip.openReadStream(entry, { decompress: deflated ? false : null }, (err, s) =>
        err || !s ? reject(err) : resolve(s),
      ),
    ).catch((err: Error) => {
      throw new XlsxError(`The .xlsx file is damaged: ${err.message}.`);
    });
    const stream = deflated ? inflated(raw, entry.uncompressedSize) : raw;
    stream.on('data', (chunk: Buffer) => {
      this.inflated += chunk.length;
      if (this.inflated > this.maxInflatedBytes) stream.destroy(this.tooBig());
    });
    return stream;
  }

  /** An XML part as text, read in the encoding it declares. */
  async text(name: string): Promise<string> {
    return xmlText(await this.bytes(name), name);
  }

  async bytes(name: string, maxBytes = Infinity, tooBig?: () => XlsxError): Promise<Buffer> {
    const entry = this.entries.get(name);
    if (tooBig && entry && entry.uncompressedSize > maxBytes) throw tooBig();
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of await this.stream(name)) {
        size += (chunk as Buffer).length;
        // The declared size may lie: the bytes themselves are counted.
        if (tooBig && size > maxBytes) throw tooBig();
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      throw damaged(err);
    }
    return Buffer.concat(chunks);
  }

  compressedSize(name: string): number {
    return this.entries.get(name)?.compressedSize ?? 0;
  }

  close(): void {
    this.zip.close();
  }

  private tooBig(): XlsxError {
    const mb = Math.round(this.maxInflatedBytes / 1024 / 1024);
    return new XlsxError(
      `The workbook unpacks to more than ${mb} MB, the most an import may unpack; split it into smaller files.`,
    );
  }
}

/**
 * A deflated entry's bytes, inflated; an error when they are more or fewer than the zip declares, as
 * yauzl's own inflater checks (a declared size that lies would defeat the budget).
 */
function inflated(raw: Readable, declared: number): Readable {
  let size = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > declared)
        done(new Error(`too many bytes in the stream. expected ${declared}. got at least ${size}`));
      else done(null, chunk);
    },
    flush(done) {
      done(
        size < declared
          ? new Error(`not enough bytes in the stream. expected ${declared}. got only ${size}`)
          : null,
      );
    },
  });
  return pipeline(raw, zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK }), counted, () => undefined);
}

function repeatedPart(first: string, second: string): XlsxError {
  const also = first === second ? '' : ` (also written ${shorten(second, 80)})`;
  return new XlsxError(
    `The file holds two parts named ${shorten(first, 80)}${also}, and a part name may appear once only, whatever its capitals: which of the two holds the workbook cannot be told. The file is damaged or was not written by a spreadsheet program; save the workbook again from the program that made it, and import the new file.`,
  );
}

function foldPartName(name: string): string {
  return name.replace(/\\/g, '/').replace(/^\//, '').toLowerCase();
}

/** An error of the inflate stream (a bad CRC, more bytes than declared …) as the file's problem. */
export function damaged(err: unknown): unknown {
  if (err instanceof XlsxError || (err as NodeJS.ErrnoException | undefined)?.code?.startsWith('E'))
    return err;
  return new XlsxError(`The .xlsx file is damaged: ${err instanceof Error ? err.message : String(err)}.`);
}

/** Old .xls, encrypted workbooks and text files renamed to .xlsx each get a message that says what they are. */
export async function refuseKnownNonXlsx(file: string): Promise<void> {
  const handle = await fs.open(file, 'r');
  const head = Buffer.alloc(8);
  try {
    await handle.read(head, 0, 8, 0);
  } finally {
    await handle.close();
  }
  if (head.readUInt32BE(0) === 0xd0cf11e0) {
    throw new XlsxError(
      'The file is an Excel 97-2003 (.xls) workbook or a password-protected workbook: save it as an unprotected .xlsx and try again.',
    );
  }
  if (head.readUInt32BE(0) !== 0x504b0304) {
    const printable = [...head].every(
      (b) => b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127) || b >= 0xc0,
    );
    throw new XlsxError(
      printable
        ? 'The file is text (CSV or similar) renamed to .xlsx: open it in Excel and save it as an .xlsx workbook.'
        : 'The file is not an .xlsx workbook.',
    );
  }
}
