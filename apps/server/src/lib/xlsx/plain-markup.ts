/**
 * The markup of a worksheet as spreadsheet programs write it, read in about two thirds of the time
 * saxes takes (docs/benchmarks.md, where an import's time goes): start and end tags with ASCII names and quoted attributes, and text with the five
 * predefined entities and character references. That is all a sheet or a shared-string table holds.
 *
 * It reads only what it can read exactly as saxes does. At the first thing that is anything else (a
 * comment, CDATA, a processing instruction, a DOCTYPE, a name outside ASCII, an unknown entity, a
 * character XML forbids, a tag that does not match, a second root) it stops before it, and says where:
 * the caller hands the rest of the part to saxes, which reads it or says why it is not XML. So a part
 * is either read as saxes reads it or refused with saxes's own words, and the speed costs no
 * correctness. xml.test.ts holds the two readers to the same events over hostile inputs.
 */

/** Names as written (`x:c`). */
export interface PlainMarkupHandlers {
  open(name: string, attributes: Record<string, string>): void;
  close(name: string): void;
  text(text: string): void;
}

/** Where reading stopped: at `at`, because what follows is not plain markup (or is broken). */
interface Stopped {
  at: number;
}

/** The most an unfinished tail may hold: each chunk reads it again, so past this saxes takes over. */
const MAX_TAIL = 1 << 20;

const GT = 0x3e;
const SLASH = 0x2f;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

/** XML's white space: space, tab, LF, CR. */
const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;

/** An ASCII name start: letters, '_' and ':' (names are not split at colons: xmlns is off). */
const isNameStart = (code: number) =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f || code === 0x3a;

const isNameChar = (code: number) =>
  isNameStart(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e;

/** Text that needs no work: no reference, no CR, no ']' (of ']]>'), no character XML forbids, no surrogate. */
// eslint-disable-next-line no-control-regex -- matching the characters XML forbids is the point
const PLAIN_TEXT = /^[^&\r\]\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]*$/;
/** A character XML 1.0 does not allow (a lone surrogate is one). */
const NOT_XML_CHAR = /[^\t\n\r\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;
const REFERENCE = /&(?:(amp|lt|gt|quot|apos)|#([0-9]+)|#x([0-9a-fA-F]+));/g;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** An attribute value that needs no work: none of '<', '&', tab, LF, CR, or a character XML forbids. */
// eslint-disable-next-line no-control-regex -- as above
const PLAIN_VALUE = /^[^<&\t\n\r\x00-\x1f\ud800-\udfff\ufffe\uffff]*$/;
/** The XML declaration as writers write it; any other is saxes's to read. */
const DECLARATION =
  /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.0\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\3)?[ \t\r\n]*\?>/;

/**
 * One part's plain markup, chunk by chunk. `write` reads what it can and answers, when it met
 * something else, the text from there on: saxes's to read, after `takeOver()`.
 */
export class PlainMarkupReader {
  /** Names of the open elements, as written. */
  private readonly open: string[] = [];
  private sawRoot = false;
  private started = false;
  /** Whether anything of the part was read (the XML declaration included). */
  private consumed = false;
  private tail = '';

  constructor(private readonly handlers: PlainMarkupHandlers) {}

  /** Reads `text` after the tail held from the last chunk; answers the rest when saxes must read on. */
  write(text: string): string | undefined {
    const data = this.tail + text;
    const read = this.read(data);
    const at = typeof read === 'number' ? read : read.at;
    if (at > 0) this.consumed = true;
    if (typeof read === 'number' && data.length - at <= MAX_TAIL) {
      this.tail = data.slice(at);
      return undefined;
    }
    this.tail = '';
    return data.slice(at);
  }

  /** The end of the part: the unfinished tail saxes must read and judge, or undefined when the document is whole. */
  end(): string | undefined {
    const whole = this.sawRoot && this.open.length === 0 && /^[ \t\r\n]*$/.test(this.tail);
    if (!whole) return this.tail;
    // White space after the root is text to saxes too.
    if (this.tail) this.handlers.text(this.tail.replace(/\r\n?/g, '\n'));
    return undefined;
  }

  /**
   * Markup that brings a fresh saxes parser to where this reader stopped, for it to read on from there
   * (its events muted): past the start of the document, in the same open elements.
   */
  takeOver(): string {
    const declaration = this.consumed ? '<?xml version="1.0"?>' : '';
    if (this.open.length === 0) return declaration + (this.sawRoot ? '<_/>' : '');
    return declaration + this.open.map((name) => `<${name}>`).join('');
  }

  /** How far `data` was read (the rest is an unfinished tail), or where reading stopped. */
  private read(data: string): number | Stopped {
    let i = 0;
    if (!this.started) {
      if (data.length < 6 && '<?xml '.startsWith(data)) return 0; // too little to tell
      if (data.startsWith('<?xml')) {
        const end = data.indexOf('?>');
        if (end < 0) return data.length > 1024 ? { at: 0 } : 0;
        const declaration = DECLARATION.exec(data);
        if (!declaration || declaration[0].length !== end + 2) return { at: 0 };
        i = end + 2;
      }
      this.started = true;
    }
    const { open, handlers } = this;
    const length = data.length;
    while (i < length) {
      const lt = data.indexOf('<', i);
      if (lt < 0) return i; // text whose end has not come yet
      if (lt > i) {
        const stopped = this.text(data.slice(i, lt));
        if (stopped) return { at: i };
      }
      i = lt;
      if (lt + 1 >= length) return i;
      const next = data.charCodeAt(lt + 1);
      if (next === SLASH) {
        // An end tag: the name of the element open last, white space, '>'.
        const name = open[open.length - 1];
        if (name === undefined) return { at: lt };
        let p = lt + 2;
        if (p + name.length >= length) return i;
        if (!data.startsWith(name, p)) return { at: lt };
        p += name.length;
        while (p < length && isSpace(data.charCodeAt(p))) p++;
        if (p >= length) return i;
        if (data.charCodeAt(p) !== GT) return { at: lt };
        open.pop();
        handlers.close(name);
        i = p + 1;
        continue;
      }
      if (!isNameStart(next)) return { at: lt }; // '<!', '<?', or not markup
      if (open.length === 0 && this.sawRoot) return { at: lt }; // a second root
      // A start tag: a name, then attributes each after white space, then '>' or '/>'.
      let p = lt + 2;
      while (p < length && isNameChar(data.charCodeAt(p))) p++;
      if (p >= length) return i;
      const name = data.slice(lt + 1, p);
      // A literal, not Object.create(null) as saxes makes them: V8 keeps it fast, and an attribute
      // named like a property of every object is left to saxes (below).
      const attributes: Record<string, string> = {};
      let selfClosing = false;
      for (;;) {
        const before = p;
        while (p < length && isSpace(data.charCodeAt(p))) p++;
        if (p >= length) return i;
        const code = data.charCodeAt(p);
        if (code === GT) break;
        if (code === SLASH) {
          if (p + 1 >= length) return i;
          if (data.charCodeAt(p + 1) !== GT) return { at: lt };
          selfClosing = true;
          p++;
          break;
        }
        if (p === before || !isNameStart(code)) return { at: lt };
        const nameStart = p;
        while (p < length && isNameChar(data.charCodeAt(p))) p++;
        const attribute = data.slice(nameStart, p);
        while (p < length && isSpace(data.charCodeAt(p))) p++;
        if (p >= length) return i;
        if (data.charCodeAt(p) !== EQUALS) return { at: lt };
        p++;
        while (p < length && isSpace(data.charCodeAt(p))) p++;
        if (p >= length) return i;
        const quote = data.charCodeAt(p);
        if (quote !== QUOTE && quote !== APOSTROPHE) return { at: lt };
        const close = data.indexOf(quote === QUOTE ? '"' : "'", p + 1);
        if (close < 0) return i;
        const value = data.slice(p + 1, close);
        if (!PLAIN_VALUE.test(value) || attribute in attributes) return { at: lt };
        attributes[attribute] = value;
        p = close + 1;
      }
      this.sawRoot = true;
      handlers.open(name, attributes);
      if (selfClosing) handlers.close(name);
      else open.push(name);
      i = p + 1;
    }
    return i;
  }

  /** Text between two tags, whole; true when it is not plain (saxes reads it from its start). */
  private text(raw: string): boolean {
    if (this.open.length === 0 && !/^[ \t\r\n]*$/.test(raw)) return true; // outside the root: white space only
    if (PLAIN_TEXT.test(raw)) {
      this.handlers.text(raw);
      return false;
    }
    if (NOT_XML_CHAR.test(raw) || raw.includes(']]>')) return true;
    // Line ends first: a CR written as a reference (&#13;) is a CR, not a line end.
    const text = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
    if (!text.includes('&')) {
      this.handlers.text(text);
      return false;
    }
    let unknown = false;
    const decoded = text.replace(REFERENCE, (_, named: string, decimal: string, hex: string) => {
      if (named) return PREDEFINED[named]!;
      const code = decimal ? Number(decimal) : parseInt(hex, 16);
      if (!isXmlChar(code)) unknown = true;
      return unknown ? '' : String.fromCodePoint(code);
    });
    // A reference that is no character, or an '&' that starts none: saxes says which.
    if (unknown || text.replace(REFERENCE, '').includes('&')) return true;
    this.handlers.text(decoded);
    return false;
  }
}

/** XML 1.0's Char production. */
export function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}
