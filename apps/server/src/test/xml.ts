import { SaxesParser } from 'saxes';
import { unzip } from './zip.ts';

/**
 * Every XML part of an Office file (.xlsx), each parsed with a strict XML parser (saxes reports any
 * well-formedness error: a character XML forbids, a broken tag, a bad reference), with its text content.
 * Throws, naming the part, at the first part that is not well-formed XML, as Excel would refuse it.
 */
export async function strictXmlParts(file: Buffer): Promise<{ name: string; text: string }[]> {
  const parts = (await unzip(file)).filter((entry) => /\.(xml|rels)$/.test(entry.name));
  return parts.map((part) => {
    const parser = new SaxesParser({ xmlns: true });
    let text = '';
    parser.on('text', (chunk) => (text += chunk));
    parser.on('error', (err) => {
      throw new Error(`${part.name} is not well-formed XML: ${err.message}`);
    });
    // fatal: a byte sequence that is not UTF-8 is an error too, never silently U+FFFD.
    parser.write(new TextDecoder('utf-8', { fatal: true }).decode(part.data)).close();
    return { name: part.name, text };
  });
}
