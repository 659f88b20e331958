import { CellProblemError, TextRun } from './cell-text.ts';
import { XlsxError } from './xlsx-error.ts';
import { xmlDecoder } from './xml-encoding.ts';
import { nulInPart, XmlTokenizer } from './xml.ts';
import { damaged, type ZipArchive } from './zip.ts';

const RECENT = 4096;

/**
 * The shared-string table, kept as one buffer of UTF-8 text and each item's end offset, decoded only
 * when a cell asks: a sheet of a million distinct strings costs its text's size off the JS heap, not
 * a million strings on it (the reader's heap is capped).
 */
export class SharedStrings {
  constructor(
    private readonly text: Buffer,
    private readonly ends: Int32Array,
    readonly length: number,
    /** Items a cell cannot show as written (a bad character reference …), by index. */
    private readonly problems: Map<number, string>,
  ) {}

  /**
   * The last items decoded, one slot per index modulo the size: a column of repeated categories
   * (a branch, a state) decodes each of its strings once instead of once per row.
   */
  private readonly recent = new Array<string | undefined>(RECENT);
  private readonly recentIndex = new Int32Array(RECENT).fill(-1);

  /** The item's text; a CellProblemError when it holds a character a workbook may not. */
  get(index: number): string {
    if (!(index >= 0 && index < this.length)) return '';
    const slot = index & (RECENT - 1);
    if (this.recentIndex[slot] === index) return this.recent[slot]!;
    const problem = this.problems.get(index);
    if (problem !== undefined) throw new CellProblemError(problem);
    const text = this.text.toString('utf8', index === 0 ? 0 : this.ends[index - 1]!, this.ends[index]!);
    this.recent[slot] = text;
    this.recentIndex[slot] = index;
    return text;
  }
}

/**
 * Streams the part through the tokenizer: `<si>` items, each the text of its `<t>` elements (plain or
 * the runs of rich text), phonetic runs (`<rPh>`, furigana) left out as Excel leaves them out.
 */
export async function readSharedStrings(
  zip: ZipArchive,
  part: string,
  maxBytes: number,
): Promise<SharedStrings> {
  const tooBig = () =>
    new XlsxError(
      `The workbook's shared strings unpack to more than ${Math.round(maxBytes / 1024 / 1024)} MB, the most an import may hold in memory; split it into smaller files.`,
    );
  if ((zip.entries.get(part)?.uncompressedSize ?? 0) > maxBytes) throw tooBig();
  let text = Buffer.allocUnsafe(64 * 1024);
  let used = 0;
  let ends = new Int32Array(1024);
  let count = 0;
  const problems = new Map<number, string>();
  const append = (item: string) => {
    if (used + item.length * 3 > text.length) {
      if (used + Buffer.byteLength(item) > maxBytes) throw tooBig(); // grown in the move from UTF-16 to UTF-8
      const bigger = Buffer.allocUnsafe(
        Math.min(Math.max(text.length * 2, used + item.length * 3), 2 ** 31 - 1),
      );
      text.copy(bigger, 0, 0, used);
      text = bigger;
    }
    used += text.write(item, used, 'utf8');
    if (count === ends.length) {
      const more = new Int32Array(ends.length * 2);
      more.set(ends);
      ends = more;
    }
    ends[count++] = used;
  };

  let inItem = false;
  let phonetic = 0;
  const run = new TextRun();
  let problem: string | undefined;
  const tokenizer = new XmlTokenizer(
    part,
    {
      open(name, attributes) {
        if (name === 'si') {
          inItem = true;
          run.startItem();
          problem = undefined;
        } else if (name === 'rPh') phonetic += 1;
        else if (name === 't' && inItem && phonetic === 0) run.startText(attributes);
      },
      close(name) {
        if (name === 't') run.endText();
        else if (name === 'rPh') phonetic -= 1;
        else if (name === 'si' && inItem) {
          inItem = false;
          let item = '';
          try {
            item = run.endItem(problem);
          } catch (err) {
            if (!(err instanceof CellProblemError)) throw err;
            problems.set(count, err.message);
          }
          append(item);
        }
      },
      text(data, badReference) {
        if (!run.inText) return;
        if (badReference) problem ??= badReference;
        run.add(data);
      },
    },
    { badReferences: 'report', position: false },
  );
  let inflated = 0;
  let decoder: ReturnType<typeof xmlDecoder> | undefined;
  try {
    for await (const chunk of await zip.stream(part)) {
      inflated += (chunk as Buffer).length;
      // The declared size may lie: the bytes themselves are counted.
      if (inflated > maxBytes) throw tooBig();
      decoder ??= xmlDecoder((chunk as Buffer).subarray(0, 256), part);
      const data = decoder.write(chunk as Buffer);
      if (data.includes('\0')) throw nulInPart(part);
      tokenizer.write(data);
    }
    if (decoder) tokenizer.write(decoder.end());
    tokenizer.end();
  } catch (err) {
    throw damaged(err);
  }
  return new SharedStrings(text, ends, count, problems);
}
