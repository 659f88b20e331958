import { createHash } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { bundledFaces, packageFile, type BundledFace } from './fonts.ts';

/**
 * TrueType subsets of the bundled fonts that keep every glyph's id (what hb-subset calls retain-gids):
 * a PDF's content streams name glyphs by id, so the glyphs a record draws can be re-embedded on their
 * own without touching its pages. The result depends on the face and the glyph ids alone, never on
 * what else Chromium printed in the same document.
 *
 * Why our own: the only TrueType subsetter installed (fontkit's) renumbers glyphs, and the bundled
 * files are WOFF2, whose glyf table is stored transformed (WOFF2 §5). Decoding it is the part of the
 * format a subset needs; the other tables are copied as the font has them.
 */

/** One bundled font file, decoded once per process. */
export interface SourceFont {
  face: BundledFace;
  tables: Map<string, Buffer>;
  /** Each glyph as a TrueType glyf entry (empty for a glyph with no outline). */
  glyphs: Buffer[];
  /** Advance width and left side bearing of each glyph, in font units. */
  metrics: [number, number][];
}

const sources = new Map<string, SourceFont>();

/** The decoded font of a bundled file. */
export function sourceFont(face: BundledFace): SourceFont {
  const key = `${face.pkg}/${face.file}`;
  let font = sources.get(key);
  if (!font) {
    font = decodeWoff2(face, fs.readFileSync(packageFile(face.pkg, face.file)));
    sources.set(key, font);
  }
  return font;
}

/** The bundled faces a PDF font name (without its subset tag) may be. */
export function facesNamed(postscriptName: string): BundledFace[] {
  return bundledFaces.filter((face) => face.postscriptName === postscriptName);
}

const knownTags = [
  'cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca', 'prep',
  'CFF ', 'VORG', 'EBDT', 'EBLC', 'gasp', 'hdmx', 'kern', 'LTSH', 'PCLT', 'VDMX', 'vhea', 'vmtx', 'BASE',
  'GDEF', 'GPOS', 'GSUB', 'EBSC', 'JSTF', 'MATH', 'CBDT', 'CBLC', 'COLR', 'CPAL', 'SVG ', 'sbix', 'acnt',
  'avar', 'bdat', 'bloc', 'bsln', 'cvar', 'fdsc', 'feat', 'fmtx', 'fvar', 'gvar', 'hsty', 'just', 'lcar',
  'mort', 'morx', 'opbd', 'prop', 'trak', 'Zapf', 'Silf', 'Glat', 'Gloc', 'Feat', 'Sill',
]; // prettier-ignore

/** A byte reader over a buffer. */
class Reader {
  constructor(
    readonly data: Buffer,
    public pos = 0,
  ) {}
  u8() {
    return this.data[this.pos++]!;
  }
  u16() {
    const v = this.data.readUInt16BE(this.pos);
    this.pos += 2;
    return v;
  }
  i16() {
    const v = this.data.readInt16BE(this.pos);
    this.pos += 2;
    return v;
  }
  u32() {
    const v = this.data.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }
  bytes(length: number) {
    const v = this.data.subarray(this.pos, this.pos + length);
    if (v.length !== length) throw new Error('WOFF2: data ends early');
    this.pos += length;
    return v;
  }
  base128() {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = this.u8();
      value = value * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) return value;
    }
    throw new Error('WOFF2: bad UIntBase128');
  }
  u255() {
    const code = this.u8();
    if (code === 253) return this.u16();
    if (code === 255) return this.u8() + 253;
    if (code === 254) return this.u8() + 253 * 2;
    return code;
  }
}

function decodeWoff2(face: BundledFace, file: Buffer): SourceFont {
  const header = new Reader(file);
  if (header.u32() !== 0x774f4632) throw new Error(`${face.file}: not WOFF2`);
  header.pos = 12;
  const numTables = header.u16();
  header.pos = 20;
  const compressedSize = header.u32();
  header.pos = 48;
  const entries: { tag: string; length: number; transformed: boolean }[] = [];
  for (let i = 0; i < numTables; i++) {
    const flags = header.u8();
    const tag = (flags & 0x3f) === 0x3f ? header.bytes(4).toString('latin1') : knownTags[flags & 0x3f]!;
    const version = flags >> 6;
    const origLength = header.base128();
    const transformed = tag === 'glyf' || tag === 'loca' ? version === 0 : version !== 0;
    const length = transformed ? header.base128() : origLength;
    entries.push({ tag, length, transformed });
  }
  if (file.readUInt32BE(4) === 0x74746366) throw new Error(`${face.file}: a collection`);
  const data = zlib.brotliDecompressSync(file.subarray(header.pos, header.pos + compressedSize));
  const tables = new Map<string, Buffer>();
  let offset = 0;
  let glyf: Buffer | undefined;
  for (const entry of entries) {
    const table = data.subarray(offset, offset + entry.length);
    offset += entry.length;
    if (entry.tag === 'glyf') {
      if (!entry.transformed) throw new Error(`${face.file}: glyf not transformed`);
      glyf = table;
    } else if (entry.tag !== 'loca') {
      if (entry.transformed) throw new Error(`${face.file}: ${entry.tag} is transformed`);
      tables.set(entry.tag, table);
    }
  }
  if (!glyf) throw new Error(`${face.file}: no glyf table`);
  const glyphs = decodeGlyf(glyf);
  const numGlyphs = tables.get('maxp')!.readUInt16BE(4);
  if (glyphs.length !== numGlyphs) throw new Error(`${face.file}: glyph count`);
  const hmtx = tables.get('hmtx')!;
  const longMetrics = tables.get('hhea')!.readUInt16BE(34);
  const metrics: [number, number][] = [];
  for (let gid = 0; gid < numGlyphs; gid++) {
    const long = Math.min(gid, longMetrics - 1);
    const advance = hmtx.readUInt16BE(long * 4);
    const lsb =
      gid < longMetrics
        ? hmtx.readInt16BE(gid * 4 + 2)
        : hmtx.readInt16BE(longMetrics * 4 + (gid - longMetrics) * 2);
    metrics.push([advance, lsb]);
  }
  return { face, tables, glyphs, metrics };
}

/** The glyf table, from its WOFF2 transform, as one TrueType entry per glyph. */
function decodeGlyf(table: Buffer): Buffer[] {
  const head = new Reader(table);
  head.u16(); // reserved
  const optionFlags = head.u16();
  const numGlyphs = head.u16();
  head.u16(); // indexFormat: loca is ours to write
  const sizes = Array.from({ length: 7 }, () => head.u32());
  const streams: Reader[] = [];
  let at = head.pos;
  for (const size of sizes) {
    streams.push(new Reader(table.subarray(at, at + size)));
    at += size;
  }
  const [
    nContourStream,
    nPointsStream,
    flagStream,
    glyphStream,
    compositeStream,
    bboxStream,
    instructionStream,
  ] = streams as [Reader, Reader, Reader, Reader, Reader, Reader, Reader];
  const overlap = optionFlags & 1 ? table.subarray(at, at + ((numGlyphs + 7) >> 3)) : undefined;
  const bitmapLength = ((numGlyphs + 31) >> 5) << 2;
  const bboxBitmap = bboxStream.bytes(bitmapLength);
  const glyphs: Buffer[] = [];
  for (let gid = 0; gid < numGlyphs; gid++) {
    const contours = nContourStream.i16();
    const explicitBox = (bboxBitmap[gid >> 3]! & (0x80 >> (gid & 7))) !== 0;
    if (contours === 0) {
      if (explicitBox) throw new Error('WOFF2: bounding box on an empty glyph');
      glyphs.push(Buffer.alloc(0));
    } else if (contours > 0) {
      const ends: number[] = [];
      let points = 0;
      for (let c = 0; c < contours; c++) {
        points += nPointsStream.u255();
        ends.push(points - 1);
      }
      const xs = new Int32Array(points);
      const ys = new Int32Array(points);
      const onCurve = new Uint8Array(points);
      readTriplets(flagStream, glyphStream, xs, ys, onCurve);
      const instructions = instructionStream.bytes(glyphStream.u255());
      let box: number[];
      if (explicitBox) box = [bboxStream.i16(), bboxStream.i16(), bboxStream.i16(), bboxStream.i16()];
      else box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
      const overlaps = overlap ? (overlap[gid >> 3]! & (0x80 >> (gid & 7))) !== 0 : false;
      glyphs.push(simpleGlyph(contours, box, ends, instructions, xs, ys, onCurve, overlaps));
    } else {
      if (!explicitBox) throw new Error('WOFF2: composite glyph without a bounding box');
      const box = [bboxStream.i16(), bboxStream.i16(), bboxStream.i16(), bboxStream.i16()];
      const start = compositeStream.pos;
      let flags: number;
      let instructed = false;
      do {
        flags = compositeStream.u16();
        compositeStream.pos += 2 + (flags & 0x0001 ? 4 : 2);
        if (flags & 0x0008) compositeStream.pos += 2;
        else if (flags & 0x0040) compositeStream.pos += 4;
        else if (flags & 0x0080) compositeStream.pos += 8;
        if (flags & 0x0100) instructed = true;
      } while (flags & 0x0020);
      const components = compositeStream.data.subarray(start, compositeStream.pos);
      const parts = [glyphHeader(-1, box), components];
      if (instructed) {
        const length = glyphStream.u255();
        const size = Buffer.alloc(2);
        size.writeUInt16BE(length);
        parts.push(size, instructionStream.bytes(length));
      }
      glyphs.push(Buffer.concat(parts));
    }
  }
  return glyphs;
}

function readTriplets(flags: Reader, data: Reader, xs: Int32Array, ys: Int32Array, onCurve: Uint8Array) {
  let x = 0;
  let y = 0;
  const signed = (flag: number, value: number) => (flag & 1 ? value : -value);
  for (let i = 0; i < xs.length; i++) {
    let flag = flags.u8();
    onCurve[i] = flag >> 7 ? 0 : 1;
    flag &= 0x7f;
    let dx: number;
    let dy: number;
    if (flag < 10) {
      dx = 0;
      dy = signed(flag, ((flag & 14) << 7) + data.u8());
    } else if (flag < 20) {
      dx = signed(flag, (((flag - 10) & 14) << 7) + data.u8());
      dy = 0;
    } else if (flag < 84) {
      const b0 = flag - 20;
      const b1 = data.u8();
      dx = signed(flag, 1 + (b0 & 0x30) + (b1 >> 4));
      dy = signed(flag >> 1, 1 + ((b0 & 0x0c) << 2) + (b1 & 0x0f));
    } else if (flag < 120) {
      const b0 = flag - 84;
      dx = signed(flag, 1 + (Math.floor(b0 / 12) << 8) + data.u8());
      dy = signed(flag >> 1, 1 + (((b0 % 12) >> 2) << 8) + data.u8());
    } else if (flag < 124) {
      const b1 = data.u8();
      const b2 = data.u8();
      const b3 = data.u8();
      dx = signed(flag, (b1 << 4) + (b2 >> 4));
      dy = signed(flag >> 1, ((b2 & 0x0f) << 8) + b3);
    } else {
      dx = signed(flag, data.u16());
      dy = signed(flag >> 1, data.u16());
    }
    x += dx;
    y += dy;
    xs[i] = x;
    ys[i] = y;
  }
}

function glyphHeader(contours: number, box: number[]): Buffer {
  const header = Buffer.alloc(10);
  header.writeInt16BE(contours, 0);
  box.forEach((value, i) => header.writeInt16BE(value, 2 + i * 2));
  return header;
}

/** A simple glyph as TrueType writes it: short coordinates where they fit, repeated flags folded. */
function simpleGlyph(
  contours: number,
  box: number[],
  ends: number[],
  instructions: Buffer,
  xs: Int32Array,
  ys: Int32Array,
  onCurve: Uint8Array,
  overlaps: boolean,
): Buffer {
  const flags: number[] = [];
  const xBytes: number[] = [];
  const yBytes: number[] = [];
  const coordinate = (delta: number, short: number, same: number, out: number[]) => {
    if (delta === 0) return same;
    if (delta > -256 && delta < 256) {
      out.push(Math.abs(delta));
      return short | (delta > 0 ? same : 0);
    }
    out.push((delta >> 8) & 0xff, delta & 0xff);
    return 0;
  };
  for (let i = 0; i < xs.length; i++) {
    let flag = onCurve[i]!;
    if (i === 0 && overlaps) flag |= 0x40;
    flag |= coordinate(xs[i]! - (i ? xs[i - 1]! : 0), 0x02, 0x10, xBytes);
    flag |= coordinate(ys[i]! - (i ? ys[i - 1]! : 0), 0x04, 0x20, yBytes);
    flags.push(flag);
  }
  const packed: number[] = [];
  for (let i = 0; i < flags.length;) {
    let run = 1;
    while (i + run < flags.length && flags[i + run] === flags[i] && run < 256) run++;
    if (run > 1) packed.push(flags[i]! | 0x08, run - 1);
    else packed.push(flags[i]!);
    i += run;
  }
  const body = Buffer.alloc(ends.length * 2 + 2);
  ends.forEach((end, i) => body.writeUInt16BE(end, i * 2));
  body.writeUInt16BE(instructions.length, ends.length * 2);
  return Buffer.concat([
    glyphHeader(contours, box),
    body,
    instructions,
    Buffer.from(packed),
    Buffer.from(xBytes),
    Buffer.from(yBytes),
  ]);
}

/** The components a composite glyph draws. */
export function componentsOf(glyph: Buffer): number[] {
  if (glyph.length < 10 || glyph.readInt16BE(0) >= 0) return [];
  const found: number[] = [];
  let pos = 10;
  let flags: number;
  do {
    flags = glyph.readUInt16BE(pos);
    found.push(glyph.readUInt16BE(pos + 2));
    pos += 4 + (flags & 0x0001 ? 4 : 2);
    if (flags & 0x0008) pos += 2;
    else if (flags & 0x0040) pos += 4;
    else if (flags & 0x0080) pos += 8;
  } while (flags & 0x0020);
  return found;
}

/** The tables a PDF viewer reads from an embedded TrueType font for glyph ids (PDF 32000 §9.9). */
const copiedTables = ['OS/2', 'cvt ', 'fpgm', 'name', 'prep'];

/**
 * A TrueType font of `source` that has outlines for `used` (and what they are built from) only, every
 * glyph at its own id: glyphs after the last one used are left out, those before it kept empty.
 */
export function subsetFont(source: SourceFont, used: Iterable<number>): Buffer {
  const keep = new Set<number>([0]);
  const pending = [...used];
  while (pending.length) {
    const gid = pending.pop()!;
    if (gid >= source.glyphs.length || keep.has(gid)) continue;
    keep.add(gid);
    pending.push(...componentsOf(source.glyphs[gid]!));
  }
  const glyphs = [...keep].sort((a, b) => a - b);
  const count = glyphs.at(-1)! + 1;

  const parts: Buffer[] = [];
  const offsets = new Uint32Array(count + 1);
  let size = 0;
  for (let gid = 0; gid < count; gid++) {
    offsets[gid] = size;
    if (!keep.has(gid)) continue;
    const glyph = source.glyphs[gid]!;
    parts.push(glyph);
    size += glyph.length;
    if (glyph.length % 2) {
      parts.push(Buffer.alloc(1));
      size += 1;
    }
  }
  offsets[count] = size;
  const shortLoca = size <= 0x1fffe;
  const loca = Buffer.alloc((count + 1) * (shortLoca ? 2 : 4));
  offsets.forEach((offset, i) =>
    shortLoca ? loca.writeUInt16BE(offset / 2, i * 2) : loca.writeUInt32BE(offset, i * 4),
  );

  const hmtx = Buffer.alloc(count * 4);
  for (const gid of glyphs) {
    const [advance, lsb] = source.metrics[gid]!;
    hmtx.writeUInt16BE(advance, gid * 4);
    hmtx.writeInt16BE(lsb, gid * 4 + 2);
  }
  const head = Buffer.from(source.tables.get('head')!);
  head.writeUInt32BE(0, 8); // checkSumAdjustment, set once the file is whole
  head.writeInt16BE(shortLoca ? 0 : 1, 50);
  const hhea = Buffer.from(source.tables.get('hhea')!);
  hhea.writeUInt16BE(count, 34);
  const maxp = Buffer.from(source.tables.get('maxp')!);
  maxp.writeUInt16BE(count, 4);
  // Version 3: no glyph names (a viewer looks glyphs up by id).
  const post = Buffer.from(source.tables.get('post')!.subarray(0, 32));
  post.writeUInt32BE(0x00030000, 0);

  const tables = new Map<string, Buffer>([
    ['glyf', Buffer.concat(parts, size)],
    ['head', head],
    ['hhea', hhea],
    ['hmtx', hmtx],
    ['loca', loca],
    ['maxp', maxp],
    ['post', post],
  ]);
  for (const tag of copiedTables) {
    const table = source.tables.get(tag);
    if (table) tables.set(tag, table);
  }
  return sfnt(tables);
}

function checksum(data: Buffer): number {
  let sum = 0;
  const whole = data.length & ~3;
  for (let i = 0; i < whole; i += 4) sum = (sum + data.readUInt32BE(i)) >>> 0;
  if (whole < data.length) {
    const tail = Buffer.alloc(4);
    data.copy(tail, 0, whole);
    sum = (sum + tail.readUInt32BE(0)) >>> 0;
  }
  return sum;
}

/** The font file: the table directory (tags in order), each table padded to four bytes. */
function sfnt(tables: Map<string, Buffer>): Buffer {
  const tags = [...tables.keys()].sort();
  const count = tags.length;
  const power = 2 ** Math.floor(Math.log2(count));
  const directory = Buffer.alloc(12 + count * 16);
  directory.writeUInt32BE(0x00010000, 0);
  directory.writeUInt16BE(count, 4);
  directory.writeUInt16BE(power * 16, 6);
  directory.writeUInt16BE(Math.log2(power), 8);
  directory.writeUInt16BE(count * 16 - power * 16, 10);
  const parts: Buffer[] = [directory];
  let offset = directory.length;
  let headOffset = 0;
  tags.forEach((tag, i) => {
    const table = tables.get(tag)!;
    const at = 12 + i * 16;
    directory.write(tag, at, 'latin1');
    directory.writeUInt32BE(checksum(table), at + 4);
    directory.writeUInt32BE(offset, at + 8);
    directory.writeUInt32BE(table.length, at + 12);
    if (tag === 'head') headOffset = offset;
    parts.push(table);
    const padding = (4 - (table.length % 4)) % 4;
    if (padding) parts.push(Buffer.alloc(padding));
    offset += table.length + padding;
  });
  const file = Buffer.concat(parts, offset);
  file.writeUInt32BE((0xb1b0afba - checksum(file)) >>> 0, headOffset + 8);
  return file;
}

/** Six capital letters from the face's name and the glyph ids (PDF 32000 §9.6.4). */
export function subsetTag(name: string, glyphs: number[]): string {
  const digest = createHash('sha256')
    .update(`${name}:${glyphs.join(',')}`)
    .digest();
  let tag = '';
  for (let i = 0; i < 6; i++) tag += String.fromCharCode(65 + (digest[i]! % 26));
  return tag;
}
