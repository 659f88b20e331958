import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { isXmlChar, PlainMarkupReader } from './plain-markup.ts';
import { XlsxError } from './xlsx-error.ts';

/** What a part's reader does with its markup; names are local (`x:c` is `c`). */
export interface XmlHandlers {
  open?(name: string, attributes: Record<string, string>): void;
  close?(name: string): void;
  /**
   * Character data (text and CDATA, references resolved, line ends normalised to LF), in pieces.
   * `badReference` is a character reference in this piece that names no character XML allows
   * (&#0;, &#xD800;, &#x110000;): saxes leaves it as written. Only with `badReferences: 'report'`.
   */
  text?(text: string, badReference?: string): void;
}

export interface XmlOptions {
  /**
   * 'refuse' (the default): a reference to a character XML does not allow makes the part not XML, as
   * the standard says. 'report': it is the problem of the text that holds it (a cell), so one bad
   * cell is reported in the row report instead of refusing the whole file.
   */
  badReferences?: 'refuse' | 'report';
  /**
   * Line and column in messages. Off for the big parts (the sheet, the shared strings), which are then
   * read by PlainMarkupReader as far as it can and by saxes from there: positions would cost time on
   * every character, and after a hand-over they would count from it.
   */
  position?: boolean;
}

const MALFORMED_REFERENCE = 'malformed character entity.';

/**
 * A streaming XML tokenizer (saxes, the one exceljs uses) for one part of a workbook: well-formedness
 * is checked as the XML standard says, so CDATA, comments, processing instructions, either quote and
 * any namespace prefix read as any XML reader reads them. Namespaces are not resolved (xmlns: false):
 * SpreadsheetML's elements are told apart by local name, which is the same in transitional and strict
 * OOXML and whatever prefix a writer chose, and it is twice as fast. A DOCTYPE is refused, as the
 * packaging standard (OPC) requires: no entity of a document type can then be expanded.
 */
export class XmlTokenizer {
  private readonly parser: SaxesParser<{ xmlns: false; position: boolean }>;
  private badReference = false;
  /** Reads first, where `position` is off; until it meets something that is saxes's to read. */
  private plain: PlainMarkupReader | undefined;
  /** While saxes is brought to where the plain reader stopped: its events are not the part's. */
  private muted = false;

  constructor(
    readonly part: string,
    handlers: XmlHandlers,
    options: XmlOptions = {},
  ) {
    const report = options.badReferences === 'report';
    const position = options.position ?? true;
    this.parser = new SaxesParser({ xmlns: false, position });
    this.parser.on('error', (err) => {
      if (report && err.message.endsWith(MALFORMED_REFERENCE)) this.badReference = true;
      else throw this.notWellFormed(err.message);
    });
    this.parser.on('doctype', () => {
      throw new XlsxError(
        `The workbook's ${part} has a DOCTYPE declaration, which no part of an .xlsx file may have: the file was not written by a spreadsheet program.`,
      );
    });
    const { open, close, text } = handlers;
    this.parser.on('opentag', (tag: SaxesTagPlain) => {
      if (this.muted) return;
      // A bad reference in an attribute value: no cell holds it, so it is the part's problem.
      if (this.badReference) throw this.notWellFormed(MALFORMED_REFERENCE);
      open?.(localName(tag.name), tag.attributes as Record<string, string>);
    });
    if (close) {
      this.parser.on('closetag', (tag: SaxesTagPlain) => {
        if (!this.muted) close(localName(tag.name));
      });
    }
    if (text) {
      this.parser.on('text', (data) => {
        if (this.badReference) {
          this.badReference = false;
          text(data, firstBadReference(data));
        } else {
          text(data);
        }
      });
      this.parser.on('cdata', (data) => text(data));
    }
    if (!position) {
      this.plain = new PlainMarkupReader({
        open: (name, attributes) => open?.(localName(name), attributes),
        close: (name) => close?.(localName(name)),
        text: (data) => text?.(data),
      });
    }
  }

  write(text: string): void {
    if (!this.plain) {
      this.parser.write(text);
      return;
    }
    const rest = this.plain.write(text);
    if (rest !== undefined) this.handOver(rest);
  }

  /** The end of the part: anything left open makes it not well-formed. */
  end(): void {
    if (this.plain) {
      const rest = this.plain.end();
      if (rest === undefined) return;
      this.handOver(rest);
    }
    this.parser.close();
  }

  /** Saxes reads on from where the plain reader stopped: brought there first, with its events muted. */
  private handOver(rest: string): void {
    const plain = this.plain!;
    this.plain = undefined;
    this.muted = true;
    this.parser.write(plain.takeOver());
    this.muted = false;
    this.parser.write(rest);
  }

  private notWellFormed(detail: string): XlsxError {
    return notWellFormed(this.part, detail.replace(/\.$/, ''));
  }
}

/** A whole (small) part through the tokenizer. */
export function parseXml(text: string, part: string, handlers: XmlHandlers): void {
  const tokenizer = new XmlTokenizer(part, handlers);
  tokenizer.write(text);
  tokenizer.end();
}

export function notWellFormed(part: string, detail: string): XlsxError {
  return new XlsxError(
    `The workbook's ${part} is not well-formed XML (${shorten(detail, 80)}): the file is damaged or was not written by a spreadsheet program.`,
  );
}

/** Raw NUL bytes are no XML; said in words of their own, as no other character is as common in broken files. */
export function nulInPart(part: string): XlsxError {
  return new XlsxError(
    `The workbook's ${part} holds a NUL character, which XML does not allow: the file is damaged or was not written by a spreadsheet program.`,
  );
}

/** 'x:c' -> 'c'. */
export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** An attribute by local name, whatever its prefix (`r:id`, `ns1:id`); prefixed ones first. */
export function attributeByLocalName(attributes: Record<string, string>, name: string): string | undefined {
  let plain: string | undefined;
  for (const [key, value] of Object.entries(attributes)) {
    if (key === name) plain = value;
    else if (key.endsWith(`:${name}`) && !key.startsWith('xmlns')) return value;
  }
  return plain;
}

/** Text from the file shown in a message: hostile files have megabyte-long attributes. */
export function shorten(text: string, length = 24): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

/** The first character reference in text that saxes left as written because it names no allowed character. */
function firstBadReference(text: string): string | undefined {
  for (const m of text.matchAll(/&#(x[0-9a-f]+|[0-9]+);/gi)) {
    const digits = m[1]!;
    const code = digits[0] === 'x' || digits[0] === 'X' ? parseInt(digits.slice(1), 16) : Number(digits);
    if (!isXmlChar(code)) return m[0];
  }
  return undefined;
}
