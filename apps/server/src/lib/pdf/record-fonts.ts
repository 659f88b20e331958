import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type * as PdfLibModule from 'pdf-lib';
import type {
  PDFArray,
  PDFContext,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFObject,
  PDFRef,
  PDFStream,
} from 'pdf-lib';
import {
  glyphBits,
  glyphIds,
  renamedPrefix,
  rewriteContent,
  UnreadableContent,
  type ContentFont,
  type ContentVisitor,
  type GlyphBits,
} from './content-stream.ts';
import {
  componentsOf,
  facesNamed,
  sourceFont,
  subsetFont,
  subsetTag,
  type SourceFont,
} from './font-subset.ts';
import type { BundledFace } from './fonts.ts';

type PdfLib = typeof PdfLibModule;

/**
 * A record's pages as they would be had Chromium printed that record alone, whatever else shared its
 * document. Chromium embeds one subset of each font for the whole document, names resources after
 * object numbers (`/F12`) and picks which widths to leave to a default from every glyph printed. So
 * each record gets, for each bundled font it uses, a font made afresh from the glyphs its own pages
 * show (font-subset.ts), with widths and ToUnicode entries for those glyphs only, and content streams
 * whose resources are named in the order the stream first uses them.
 *
 * Anything this does not follow (an inline image, a font that is not one of ours in a way we read,
 * text with no font set) leaves the record as printed: still correct, only not independent of its batch.
 */

/** One of our fonts as the batch's document embeds it: a Type0 font over a TrueType CIDFont. */
interface BatchFont {
  type0: PDFDict;
  cid: PDFDict;
  descriptor: PDFDict;
  postscriptName: string;
  faces: BundledFace[];
  /** The width of each glyph the batch printed, as written. */
  widths: Map<number, PDFNumber | number>;
  defaultWidth: number;
  /** The text each glyph stands for, as hex UTF-16BE. */
  unicode: Map<number, string> | undefined;
  /** Glyph outlines of the batch's subset, to tell apart faces that share a name (read when needed). */
  embedded?: (gid: number) => Buffer | undefined;
  /** Whether each glyph the batch printed is the same in a bundled file. */
  matches: Map<SourceFont, Map<number, boolean>>;
  fontFile: PDFStream;
}

/**
 * Deflated on libuv's threads, not the event loop: a page's contents are tens of kilobytes (Chromium
 * positions each glyph with an operator of its own), and deflating them is most of what a record costs.
 */
const deflate = promisify(zlib.deflate);

/** Font programs and ToUnicode maps, deflated, by face and glyph ids. */
const subsets = new Map<string, Promise<{ data: Buffer; length: number }>>();
const toUnicodes = new Map<string, Promise<Buffer>>();
/**
 * Glyph sets kept per cache, the oldest dropped first: a batch's records mostly share the template's
 * glyphs and differ by a name's, and a deflated subset is 2–50 KB (at most ~15 MB kept).
 */
const CACHE_LIMIT = 300;

function remember<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(key, value);
  }
  return value;
}

/** What a batch's records share: its fonts, read once. */
export class BatchFonts {
  private readonly fonts = new Map<PDFRef, BatchFont | null>();
  /** Fonts already made for a glyph set, so records of the batch with the same glyphs share them. */
  readonly made = new Map<string, { ref: PDFRef; ready: Promise<unknown> }>();

  constructor(
    readonly lib: PdfLib,
    readonly context: PDFContext,
  ) {}

  font(ref: PDFRef): BatchFont | null {
    let font = this.fonts.get(ref);
    if (font === undefined) {
      try {
        font = this.read(ref);
      } catch {
        font = null;
      }
      this.fonts.set(ref, font);
    }
    return font;
  }

  private read(ref: PDFRef): BatchFont | null {
    const { PDFArray, PDFDict, PDFName, PDFNumber, PDFStream } = this.lib;
    const name = (key: string) => PDFName.of(key);
    const type0 = this.context.lookup(ref);
    if (!(type0 instanceof PDFDict)) return null;
    if (type0.get(name('Subtype')) !== name('Type0') || type0.get(name('Encoding')) !== name('Identity-H'))
      return null;
    const descendants = type0.lookup(name('DescendantFonts'));
    const cid =
      descendants instanceof PDFArray && descendants.size() === 1 ? descendants.lookup(0) : undefined;
    if (!(cid instanceof PDFDict) || cid.get(name('Subtype')) !== name('CIDFontType2')) return null;
    const map = cid.get(name('CIDToGIDMap'));
    if (map !== undefined && map !== name('Identity')) return null;
    const descriptor = cid.lookup(name('FontDescriptor'));
    if (!(descriptor instanceof PDFDict)) return null;
    const fontFile = descriptor.lookup(name('FontFile2'));
    if (!(fontFile instanceof PDFStream)) return null;
    const base = cid.get(name('BaseFont'));
    const postscriptName = base instanceof PDFName ? base.decodeText().replace(/^[A-Z]{6}\+/, '') : '';
    const faces = facesNamed(postscriptName);
    if (faces.length === 0) return null;

    const widths = new Map<number, PDFNumber | number>();
    const w = cid.lookup(name('W'));
    if (w instanceof PDFArray) {
      const items = w.asArray().map((item) => this.context.lookup(item));
      for (let i = 0; i < items.length;) {
        const first = items[i];
        const next = items[i + 1];
        if (!(first instanceof PDFNumber)) return null;
        if (next instanceof PDFArray) {
          next.asArray().forEach((width, k) => {
            const value = this.context.lookup(width);
            if (value instanceof PDFNumber) widths.set(first.asNumber() + k, value);
          });
          i += 2;
        } else {
          const last = items[i + 1];
          const width = items[i + 2];
          if (!(last instanceof PDFNumber) || !(width instanceof PDFNumber)) return null;
          for (let gid = first.asNumber(); gid <= last.asNumber(); gid++) widths.set(gid, width);
          i += 3;
        }
      }
    }
    const dw = cid.lookup(name('DW'));
    const toUnicode = type0.lookup(name('ToUnicode'));
    return {
      type0,
      cid,
      descriptor,
      postscriptName,
      faces,
      widths,
      defaultWidth: dw instanceof PDFNumber ? dw.asNumber() : 1000,
      unicode: toUnicode instanceof PDFStream ? readToUnicode(decoded(this.lib, toUnicode)) : undefined,
      fontFile,
      matches: new Map(),
    };
  }
}

/** A stream's data, inflated if it is deflated; throws for any other filter. */
function decoded(lib: PdfLib, stream: PDFStream): Buffer {
  const filter = stream.dict.lookup(lib.PDFName.of('Filter'));
  const filters = filter instanceof lib.PDFArray ? filter.asArray() : filter ? [filter] : [];
  if (stream.dict.has(lib.PDFName.of('DecodeParms'))) throw new UnreadableContent('decode parameters');
  let data = Buffer.from(stream.getContents());
  for (const f of filters) {
    if (f !== lib.PDFName.of('FlateDecode')) throw new UnreadableContent(`a ${f.toString()} stream`);
    data = zlib.inflateSync(data);
  }
  return data;
}

/** A ToUnicode CMap's mappings (bfchar and bfrange) of two-byte codes. */
function readToUnicode(cmap: Buffer): Map<number, string> {
  const text = cmap.toString('latin1');
  const map = new Map<number, string>();
  for (const [, block] of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const [, code, dst] of block!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]*)>/g))
      map.set(parseInt(code!, 16), dst!.toUpperCase());
  for (const [, block] of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, lo, hi, dst, list] of block!.matchAll(
      /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(?:<([0-9a-fA-F]+)>|\[([^\]]*)\])/g,
    )) {
      const first = parseInt(lo!, 16);
      const last = parseInt(hi!, 16);
      if (dst !== undefined) {
        const start = BigInt(`0x${dst}`);
        for (let code = first; code <= last; code++)
          map.set(code, (start + BigInt(code - first)).toString(16).toUpperCase().padStart(dst.length, '0'));
      } else {
        const items = [...list!.matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]!.toUpperCase());
        items.forEach((item, k) => first + k <= last && map.set(first + k, item));
      }
    }
  }
  return map;
}

/** A content stream, form or pattern with the resources it names, as read from the batch. */
interface Scope {
  resources: PDFDict | undefined;
  /** Per category: old name → new name, in the order first used. */
  names: Map<string, Map<string, string>>;
  /** Forms, patterns and soft masks it draws: their scopes by original object. */
  children: Map<PDFObject, Scope>;
  stream?: PDFStream;
  content: Buffer[];
  /** The font each name sets, resolved once. */
  fonts: Map<string, ContentFont>;
  /** The fonts in force when it was drawn (a form drawn with another is read again for its glyphs). */
  drawnWith: Set<ContentFont>;
}

/** A record's pages made independent of the batch: their entries, once `ready` (streams deflated). */
export interface RecordPages {
  pages: [PDFName, PDFObject][][];
  ready: Promise<unknown>;
}

/**
 * The pages' entries with their resources and contents made independent of the batch, or null when
 * the pages use none of our fonts (the record is written as printed) or hold something not followed.
 */
export function recordEntries(batch: BatchFonts, pages: [PDFName, PDFObject][][]): RecordPages | null {
  try {
    const record = new RecordFonts(batch);
    const entries = record.entries(pages);
    return entries && { pages: entries, ready: Promise.all(record.pending) };
  } catch (err) {
    if (err instanceof UnreadableContent) return null;
    throw err;
  }
}

class RecordFonts {
  /** Glyph ids shown with each of our fonts, on every page of the record. */
  private readonly glyphs = new Map<PDFRef, GlyphBits>();
  private readonly scopes = new Map<PDFObject, Scope>();
  private readonly built = new Map<Scope, PDFRef>();
  private readonly fonts = new Map<PDFRef, PDFRef>();
  /** Streams still being deflated. */
  readonly pending: Promise<unknown>[] = [];
  private readonly lib: PdfLib;
  private readonly context: PDFContext;

  constructor(private readonly batch: BatchFonts) {
    this.lib = batch.lib;
    this.context = batch.context;
  }

  entries(pages: [PDFName, PDFObject][][]): [PDFName, PDFObject][][] | null {
    const { PDFArray, PDFDict, PDFName, PDFStream } = this.lib;
    const resourcesKey = PDFName.of('Resources');
    const contentsKey = PDFName.of('Contents');
    const read = pages.map((entries) => {
      const map = new Map(entries);
      const resources = this.context.lookup(map.get(resourcesKey));
      const contents = map.get(contentsKey);
      const refs = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
      const streams = refs.map((ref) => {
        const stream = this.context.lookup(ref);
        if (!(stream instanceof PDFStream)) throw new UnreadableContent('contents that are not a stream');
        return stream;
      });
      const scope = this.scope(resources instanceof PDFDict ? resources : undefined);
      let font: ContentFont = undefined;
      for (const stream of streams) font = this.read(scope, decoded(this.lib, stream), font);
      return { entries, scope, array: contents instanceof PDFArray };
    });
    if (this.glyphs.size === 0) return null;
    return read.map(({ entries, scope, array }) => {
      const contents = scope.content.map((data) => this.stream(data));
      return entries.map(([key, value]): [PDFName, PDFObject] => {
        if (key === resourcesKey) return [key, this.resources(scope)];
        if (key === contentsKey) return [key, array ? this.context.obj(contents) : contents[0]!];
        return [key, value];
      });
    });
  }

  private scope(resources: PDFDict | undefined, stream?: PDFStream): Scope {
    return {
      resources,
      names: new Map(),
      children: new Map(),
      stream,
      content: [],
      fonts: new Map(),
      drawnWith: new Set(),
    };
  }

  /** Reads one content stream of the scope; answers the font in force at its end. */
  private read(scope: Scope, data: Buffer, font: ContentFont): ContentFont {
    const { PDFNumber, PDFName, PDFStream } = this.lib;
    const visitor: ContentVisitor = {
      rename: (category, name) => this.rename(scope, category, name),
      font: (name) => {
        if (scope.fonts.has(name)) return scope.fonts.get(name);
        const ref = this.resourceRef(scope, 'Font', name);
        let found: ContentFont;
        if (ref === undefined) found = undefined;
        else if (!this.batch.font(ref)) found = null;
        else {
          found = this.glyphs.get(ref);
          if (!found) this.glyphs.set(ref, (found = glyphBits()));
        }
        scope.fonts.set(name, found);
        return found;
      },
      use: (category, name, inherited) => {
        const target = this.resource(scope, category, name);
        if (!(target instanceof PDFStream)) return;
        // Forms and tiling patterns draw content of their own; images and shadings do not.
        const patternType = target.dict.lookup(PDFName.of('PatternType'));
        const isForm =
          category === 'XObject'
            ? target.dict.get(PDFName.of('Subtype')) === PDFName.of('Form')
            : patternType instanceof PDFNumber && patternType.asNumber() === 1;
        if (isForm) this.child(scope, target, inherited);
      },
    };
    const { content, font: last } = rewriteContent(data, visitor, font);
    scope.content.push(content ?? data);
    return last;
  }

  /** A form, pattern or soft mask drawn by a scope: read once per record (and per font it inherits). */
  private child(parent: Scope, target: PDFStream, font: ContentFont): void {
    const { PDFDict, PDFName } = this.lib;
    let scope = this.scopes.get(target);
    if (!scope) {
      const resources = target.dict.lookup(PDFName.of('Resources'));
      scope = this.scope(resources instanceof PDFDict ? resources : undefined, target);
      this.scopes.set(target, scope);
    }
    if (!scope.drawnWith.has(font)) {
      scope.drawnWith.add(font);
      scope.content.length = 0;
      this.read(scope, decoded(this.lib, target), font);
    }
    parent.children.set(target, scope);
  }

  private resourceRef(scope: Scope, category: string, name: string): PDFRef | undefined {
    const { PDFDict, PDFName, PDFRef } = this.lib;
    const dict = scope.resources?.lookup(PDFName.of(category));
    const ref = dict instanceof PDFDict ? dict.get(PDFName.of(name)) : undefined;
    return ref instanceof PDFRef ? ref : undefined;
  }

  private resource(scope: Scope, category: string, name: string): PDFObject | undefined {
    const { PDFDict, PDFName } = this.lib;
    const dict = scope.resources?.lookup(PDFName.of(category));
    return dict instanceof PDFDict ? this.context.lookup(dict.get(PDFName.of(name))) : undefined;
  }

  private rename(scope: Scope, category: string, name: string): string | undefined {
    const known = scope.names.get(category)?.get(name);
    if (known !== undefined) return known;
    const { PDFDict, PDFName, PDFStream } = this.lib;
    const dict = scope.resources?.lookup(PDFName.of(category));
    if (!(dict instanceof PDFDict) || !dict.has(PDFName.of(name))) return undefined;
    let names = scope.names.get(category);
    if (!names) scope.names.set(category, (names = new Map()));
    let renamed = names.get(name);
    if (renamed === undefined) {
      renamed = `${renamedPrefix[category]}${names.size + 1}`;
      names.set(name, renamed);
      if (category === 'ExtGState') {
        // A soft mask draws a form of its own.
        const state = this.context.lookup(dict.get(PDFName.of(name)));
        const mask = state instanceof PDFDict ? state.lookup(PDFName.of('SMask')) : undefined;
        const group = mask instanceof PDFDict ? mask.lookup(PDFName.of('G')) : undefined;
        if (group instanceof PDFStream) this.child(scope, group, undefined);
      }
    }
    return renamed;
  }

  /** A deflated stream of `data` with the entries of `dict`: its reference now, the stream once deflated. */
  private stream(data: Buffer, dict?: PDFDict): PDFRef {
    const { PDFName } = this.lib;
    const entries = dict ? new Map(dict.entries()) : new Map<PDFName, PDFObject>();
    entries.delete(PDFName.of('Length'));
    entries.delete(PDFName.of('DecodeParms'));
    entries.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
    const out = this.context.obj({});
    for (const [key, value] of entries) out.set(key, value);
    return this.later(out, deflate(data, { level: 3 }));
  }

  /** A reference to a stream whose data is still being made. */
  private later(dict: PDFDict, data: Promise<Buffer>): PDFRef {
    const ref = this.context.nextRef();
    this.pending.push(data.then((bytes) => this.context.assign(ref, this.lib.PDFRawStream.of(dict, bytes))));
    return ref;
  }

  /** The scope's resources: the names it uses, renamed, in order; what it does not use left out. */
  private resources(scope: Scope): PDFDict {
    const { PDFDict, PDFName, PDFRef, PDFStream } = this.lib;
    const out = this.context.obj({});
    if (!scope.resources) return out;
    for (const [key, value] of scope.resources.entries()) {
      const category = key.decodeText();
      if (!(category in renamedPrefix)) {
        out.set(key, value);
        continue;
      }
      const names = scope.names.get(category);
      const dict = this.context.lookup(value);
      if (!names || !(dict instanceof PDFDict)) continue;
      const renamed = this.context.obj({});
      for (const [old, name] of names) {
        const entry = dict.get(PDFName.of(old))!;
        const target = this.context.lookup(entry);
        let replaced: PDFObject = entry;
        if (category === 'Font' && entry instanceof PDFRef && this.batch.font(entry))
          replaced = this.font(entry);
        else if (target instanceof PDFStream && scope.children.has(target))
          replaced = this.form(scope.children.get(target)!);
        else if (category === 'ExtGState' && target instanceof PDFDict)
          replaced = this.softMask(scope, target);
        renamed.set(PDFName.of(name), replaced);
      }
      out.set(key, renamed);
    }
    return out;
  }

  private form(scope: Scope): PDFRef {
    let ref = this.built.get(scope);
    if (!ref) {
      const { PDFDict, PDFName } = this.lib;
      const dict = this.context.obj({});
      for (const [key, value] of scope.stream!.dict.entries())
        dict.set(key, key === PDFName.of('Resources') ? this.resources(scope) : value);
      if (!(dict instanceof PDFDict)) throw new UnreadableContent('a form');
      ref = this.stream(scope.content[0]!, dict);
      this.built.set(scope, ref);
    }
    return ref;
  }

  /** An ExtGState whose soft mask draws a form: a copy naming the form made for this record. */
  private softMask(scope: Scope, state: PDFDict): PDFObject {
    const { PDFDict, PDFName } = this.lib;
    const mask = state.lookup(PDFName.of('SMask'));
    const group = mask instanceof PDFDict ? mask.lookup(PDFName.of('G')) : undefined;
    const child = group ? scope.children.get(group) : undefined;
    if (!child || !(mask instanceof PDFDict)) return state;
    const newMask = this.context.obj({});
    for (const [key, value] of mask.entries())
      newMask.set(key, key === PDFName.of('G') ? this.form(child) : value);
    const newState = this.context.obj({});
    for (const [key, value] of state.entries())
      newState.set(key, key === PDFName.of('SMask') ? this.context.register(newMask) : value);
    return this.context.register(newState);
  }

  /** Our font made afresh from the glyphs the record shows with it. */
  private font(ref: PDFRef): PDFRef {
    const made = this.fonts.get(ref);
    if (made) return made;
    const font = this.batch.font(ref)!;
    const shown = this.glyphs.get(ref);
    const used = shown ? glyphIds(shown) : [];
    const source = this.source(font, used);
    const key = `${source.face.pkg}/${source.face.file}:${used.join(',')}`;
    let result = this.batch.made.get(`${ref.toString()}|${key}`);
    if (!result) {
      const before = this.pending.length;
      const made = this.build(font, source, used, key);
      result = { ref: made, ready: Promise.all(this.pending.slice(before)) };
      this.batch.made.set(`${ref.toString()}|${key}`, result);
    } else this.pending.push(result.ready);
    this.fonts.set(ref, result.ref);
    return result.ref;
  }

  /**
   * The bundled file the font was made from: of the faces with its name (Latin and Latin Extended share
   * one), the first whose outlines are those of every glyph the record shows. Never the batch's other
   * glyphs, so the choice is the record's own; and a host font of the same name matches none.
   */
  private source(font: BatchFont, used: number[]): SourceFont {
    font.embedded ??= glyphReader(decoded(this.lib, font.fontFile));
    const match = font.faces.map(sourceFont).find((source) => {
      let known = font.matches.get(source);
      if (!known) font.matches.set(source, (known = new Map()));
      return used.every((gid) => {
        let same = known.get(gid);
        if (same === undefined) {
          const embedded = font.embedded!(gid);
          same =
            gid < source.glyphs.length &&
            embedded !== undefined &&
            sourceOutline(source, gid) === outline(embedded);
          known.set(gid, same);
        }
        return same;
      });
    });
    if (!match) throw new UnreadableContent(`glyphs of ${font.postscriptName} match no bundled file`);
    return match;
  }

  private build(font: BatchFont, source: SourceFont, used: number[], key: string): PDFRef {
    const { PDFName, PDFNumber } = this.lib;
    const subset = remember(subsets, key, async () => {
      const program = subsetFont(source, used);
      return { data: await deflate(program), length: program.length };
    });
    const name = PDFName.of(`${subsetTag(font.postscriptName, used)}+${font.postscriptName}`);
    // The program's length goes in the dictionary: the dictionary is made once the program is.
    const fontFile = this.context.nextRef();
    this.pending.push(
      subset.then(({ data, length }) =>
        this.context.assign(
          fontFile,
          this.lib.PDFRawStream.of(this.context.obj({ Length1: length, Filter: 'FlateDecode' }), data),
        ),
      ),
    );
    const descriptor = this.context.obj({});
    for (const [k, value] of font.descriptor.entries()) {
      if (k === PDFName.of('CIDSet')) continue;
      if (k === PDFName.of('FontName')) descriptor.set(k, name);
      else if (k === PDFName.of('FontFile2')) descriptor.set(k, fontFile);
      else descriptor.set(k, value);
    }
    // Widths of the glyphs shown, in runs of consecutive ids: [first [w w …] first [w …] …].
    const widths: PDFObject[] = [];
    let run: PDFArray | undefined;
    let previous = -2;
    for (const gid of used) {
      const width = font.widths.get(gid) ?? font.defaultWidth;
      const value = typeof width === 'number' ? PDFNumber.of(width) : width;
      if (gid !== previous + 1 || !run) {
        run = this.context.obj([]);
        widths.push(PDFNumber.of(gid), run);
      }
      run.push(value);
      previous = gid;
    }
    const cid = this.context.obj({});
    for (const [k, value] of font.cid.entries()) {
      if (k === PDFName.of('DW')) continue;
      if (k === PDFName.of('BaseFont')) cid.set(k, name);
      else if (k === PDFName.of('FontDescriptor')) cid.set(k, this.context.register(descriptor));
      else if (k === PDFName.of('W')) cid.set(k, this.context.obj(widths));
      else cid.set(k, value);
    }
    if (!font.cid.has(PDFName.of('W'))) cid.set(PDFName.of('W'), this.context.obj(widths));
    const type0 = this.context.obj({});
    for (const [k, value] of font.type0.entries()) {
      if (k === PDFName.of('BaseFont')) type0.set(k, name);
      else if (k === PDFName.of('DescendantFonts'))
        type0.set(k, this.context.obj([this.context.register(cid)]));
      else if (k === PDFName.of('ToUnicode') && font.unicode) {
        const unicode = font.unicode;
        const data = remember(toUnicodes, key, () => deflate(toUnicode(used, unicode)));
        type0.set(k, this.later(this.context.obj({ Filter: 'FlateDecode' }), data));
      } else type0.set(k, value);
    }
    return this.context.register(type0);
  }
}

/** A ToUnicode CMap for the glyphs shown that stand for text. */
function toUnicode(used: number[], unicode: Map<number, string>): Buffer {
  const entries = used.filter((gid) => unicode.has(gid));
  let body = '';
  for (let i = 0; i < entries.length; i += 100) {
    const chunk = entries.slice(i, i + 100);
    body += `${chunk.length} beginbfchar\n`;
    for (const gid of chunk)
      body += `<${gid.toString(16).toUpperCase().padStart(4, '0')}> <${unicode.get(gid)}>\n`;
    body += 'endbfchar\n';
  }
  return Buffer.from(
    '/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n' +
      '/CIDSystemInfo\n<< /Registry (Adobe)\n/Ordering (UCS)\n/Supplement 0\n>> def\n' +
      '/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n' +
      '1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n' +
      body +
      'endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend',
    'latin1',
  );
}

/** Each glyph of a TrueType font program by id. */
function glyphReader(program: Buffer): (gid: number) => Buffer | undefined {
  const count = program.readUInt16BE(4);
  const tables = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const offset = program.readUInt32BE(at + 8);
    tables.set(
      program.toString('latin1', at, at + 4),
      program.subarray(offset, offset + program.readUInt32BE(at + 12)),
    );
  }
  const head = tables.get('head');
  const loca = tables.get('loca');
  const glyf = tables.get('glyf');
  if (!head || !loca || !glyf) throw new UnreadableContent('an embedded font without glyf');
  const long = head.readInt16BE(50) === 1;
  const glyphs = long ? loca.length / 4 - 1 : loca.length / 2 - 1;
  const at = (i: number) => (long ? loca.readUInt32BE(i * 4) : loca.readUInt16BE(i * 2) * 2);
  return (gid) => (gid < glyphs ? glyf.subarray(at(gid), at(gid + 1)) : undefined);
}

const sourceOutlines = new WeakMap<SourceFont, string[]>();

/** A bundled glyph's outline, worked out once per process. */
function sourceOutline(source: SourceFont, gid: number): string {
  let outlines = sourceOutlines.get(source);
  if (!outlines) sourceOutlines.set(source, (outlines = []));
  return (outlines[gid] ??= outline(source.glyphs[gid]!));
}

/** A glyph's outline as text, whatever its encoding: contours, points on and off the curve, components. */
function outline(glyph: Buffer): string {
  if (glyph.length < 10) return '';
  const contours = glyph.readInt16BE(0);
  const box = [2, 4, 6, 8].map((at) => glyph.readInt16BE(at)).join(' ');
  if (contours < 0) return `${box} composite ${componentsOf(glyph).join(',')}`;
  let pos = 10;
  const ends: number[] = [];
  for (let c = 0; c < contours; c++, pos += 2) ends.push(glyph.readUInt16BE(pos));
  pos += 2 + glyph.readUInt16BE(pos);
  const points = ends.length ? ends.at(-1)! + 1 : 0;
  const flags: number[] = [];
  while (flags.length < points) {
    const flag = glyph[pos++]!;
    flags.push(flag);
    if (flag & 0x08) for (let r = glyph[pos++]!; r > 0; r--) flags.push(flag);
  }
  const coordinates = (short: number, same: number) => {
    const values: number[] = [];
    let value = 0;
    for (const flag of flags) {
      if (flag & short) value += glyph[pos++]! * (flag & same ? 1 : -1);
      else if (!(flag & same)) {
        value += glyph.readInt16BE(pos);
        pos += 2;
      }
      values.push(value);
    }
    return values;
  };
  const xs = coordinates(0x02, 0x10);
  const ys = coordinates(0x04, 0x20);
  let text = `${box} ${ends.join(',')}`;
  for (let i = 0; i < points; i++) text += ` ${flags[i]! & 1}:${xs[i]},${ys[i]}`;
  return text;
}
