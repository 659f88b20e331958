import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { XlsxError } from './xlsx-error.ts';

/** Turns a part's bytes into text, chunk by chunk; a byte sequence its encoding forbids throws an XlsxError. */
export interface XmlTextDecoder {
  /** The encoding the part is read in, as TextDecoder names it. */
  readonly encoding: string;
  write(chunk: Buffer): string;
  end(): string;
}

/**
 * The decoder for one XML part, chosen from its first bytes as the XML standard says (appendix F): a
 * byte order mark, else UTF-16 by the shape of '<?', else the encoding its declaration names, else
 * UTF-8. Every encoding is read strictly: text that does not decode is refused, never replaced with
 * U+FFFD, so what the workbook says is imported as it says it or not at all.
 */
export function xmlDecoder(head: Buffer, part: string): XmlTextDecoder {
  const label = encodingOf(head, part);
  if (label === 'iso-8859-1') {
    // Not TextDecoder: for the WHATWG standard 'iso-8859-1' means windows-1252, which reads bytes
    // 0x80-0x9F as other characters than the ones ISO-8859-1 (and the XML standard) gives them.
    return { encoding: 'iso-8859-1', write: (chunk) => chunk.toString('latin1'), end: () => '' };
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    throw new XlsxError(
      `The workbook's ${part} is in the ${label} encoding, which imports do not read: open the file in Excel and save it again as .xlsx.`,
    );
  }
  const refuse = () =>
    new XlsxError(
      `The workbook's ${part} is not valid ${decoder.encoding.toUpperCase()} text (its bytes are in another encoding than it says): open the file in Excel and save it again as .xlsx.`,
    );
  return {
    encoding: decoder.encoding,
    write(chunk) {
      try {
        return decoder.decode(chunk, { stream: true });
      } catch {
        throw refuse();
      }
    },
    end() {
      try {
        return decoder.decode();
      } catch {
        throw refuse();
      }
    },
  };
}

/** A whole part's bytes as text, read in the encoding it declares. */
export function xmlText(bytes: Buffer, part: string): string {
  const decoder = xmlDecoder(bytes.subarray(0, 256), part);
  if (decoder.encoding === 'utf-8' && isUtf8(bytes)) return bytes.toString('utf8');
  return decoder.write(bytes) + decoder.end();
}

/**
 * A whole part's bytes as UTF-8 bytes (without a byte order mark), for readers that work on the bytes:
 * unchanged when they already are UTF-8, which is checked, without copying, at memory speed.
 */
export function xmlAsUtf8(bytes: Buffer, part: string): Buffer {
  const decoder = xmlDecoder(bytes.subarray(0, 256), part);
  if (decoder.encoding === 'utf-8') {
    if (!isUtf8(bytes)) decoder.write(bytes); // throws the refusal that names the part
    return bytes;
  }
  return Buffer.from(decoder.write(bytes) + decoder.end(), 'utf8');
}

const LATIN1 = new Set([
  'iso-8859-1',
  'iso8859-1',
  'iso_8859-1',
  'latin1',
  'l1',
  'latin-1',
  'cp819',
  'ibm819',
]);

function encodingOf(head: Buffer, part: string): string {
  const [a, b, c] = head;
  if (a === 0xef && b === 0xbb && c === 0xbf) return 'utf-8';
  if (a === 0xff && b === 0xfe) {
    if (head[2] === 0 && head[3] === 0) return unsupported('UTF-32', part);
    return 'utf-16le';
  }
  if (a === 0xfe && b === 0xff) return 'utf-16be';
  if (a === 0x3c && b === 0x00 && c === 0x3f) return 'utf-16le';
  if (a === 0x00 && b === 0x3c && c === 0x00) return 'utf-16be';
  if (a === 0x00 && b === 0x00) return unsupported('UTF-32', part);
  const declaration = /^<\?xml\s[^>]*?\bencoding\s*=\s*(["'])([A-Za-z0-9._:-]{1,40})\1/.exec(
    head.toString('latin1'),
  );
  const declared = declaration?.[2]?.toLowerCase();
  if (!declared) return 'utf-8';
  if (LATIN1.has(declared)) return 'iso-8859-1';
  // UTF-16 declared but the bytes are ASCII-shaped: the declaration is wrong, and reading either way would guess.
  if (declared.startsWith('utf-16') || declared.startsWith('ucs-2') || declared.startsWith('utf-32')) {
    throw new XlsxError(
      `The workbook's ${part} says it is ${declared.toUpperCase()} but its bytes are not: open the file in Excel and save it again as .xlsx.`,
    );
  }
  if (declared === 'us-ascii' || declared === 'ascii') return 'utf-8'; // a subset of UTF-8, checked as such
  return declared;
}

function unsupported(name: string, part: string): never {
  throw new XlsxError(
    `The workbook's ${part} is in the ${name} encoding, which imports do not read: open the file in Excel and save it again as .xlsx.`,
  );
}
