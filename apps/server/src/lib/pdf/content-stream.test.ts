import { describe, expect, it } from 'vitest';
import {
  glyphBits,
  glyphIds,
  renamedPrefix,
  rewriteContent,
  UnreadableContent,
  type ContentFont,
  type ContentVisitor,
} from './content-stream.ts';

/** A visitor that renames every resource it knows in order of first use, per category, and marks glyphs per font. */
function reader(known: Record<string, string[]>) {
  const fonts = new Map<string, ContentFont>();
  const names = new Map<string, Map<string, string>>();
  const used: string[] = [];
  const visitor: ContentVisitor = {
    rename(category, name) {
      if (!known[category]?.includes(name)) return undefined;
      let renamed = names.get(category);
      if (!renamed) names.set(category, (renamed = new Map()));
      if (!renamed.has(name)) renamed.set(name, `${renamedPrefix[category]}${renamed.size + 1}`);
      return renamed.get(name);
    },
    font(name) {
      if (!known.Font?.includes(name)) return undefined;
      if (!fonts.has(name)) fonts.set(name, glyphBits());
      return fonts.get(name);
    },
    use(category, name) {
      used.push(`${category} ${name}`);
    },
  };
  const glyphs = (name: string) => glyphIds(fonts.get(name) as Uint8Array);
  return { visitor, glyphs, used };
}

const read = (content: string, known: Record<string, string[]>) => {
  const r = reader(known);
  const { content: out } = rewriteContent(Buffer.from(content, 'latin1'), r.visitor, undefined);
  return { ...r, text: out?.toString('latin1') ?? content };
};

describe('reading a content stream', () => {
  it('renames resources in the order the stream first uses them, each category on its own', () => {
    const { text, used } = read(
      '/G7 gs BT /F12 10 Tf <0001> Tj /F4 9 Tf <0002> Tj ET /X9 Do /F12 8 Tf <0003> Tj',
      {
        Font: ['F12', 'F4'],
        ExtGState: ['G7'],
        XObject: ['X9'],
      },
    );
    expect(text).toBe('/G1 gs BT /F1 10 Tf <0001> Tj /F2 9 Tf <0002> Tj ET /X1 Do /F1 8 Tf <0003> Tj');
    expect(used).toEqual(['XObject X9']);
  });

  it('leaves names that are not resources alone: marked-content tags, keys of inline dictionaries', () => {
    const content = '/Span <</ActualText <FEFF0041> /F12 1>> BDC /F12 10 Tf <0041> Tj EMC';
    const { text } = read(content, { Font: ['F12'] });
    expect(text).toBe('/Span <</ActualText <FEFF0041> /F12 1>> BDC /F1 10 Tf <0041> Tj EMC');
    // BDC's properties are its last operand: a name of the page's, or a dictionary of its own.
    const tagged = read('/OC /MC0 BDC EMC /P <</MCID 0>> BDC EMC', { Properties: ['MC0', 'P'] });
    expect(tagged.text).toBe('/OC /Pr1 BDC EMC /P <</MCID 0>> BDC EMC');
  });

  it('marks each glyph for the font in force, which q and Q save and restore', () => {
    const { glyphs } = read(
      'BT /A 10 Tf <00030004> Tj q /B 9 Tf [<0005> -20 (\\000\\006) 5 <0007>] TJ Q <0008> Tj ET',
      { Font: ['A', 'B'] },
    );
    expect(glyphs('A')).toEqual([3, 4, 8]);
    expect(glyphs('B')).toEqual([5, 6, 7]);
  });

  it('gives up on text in a font the page does not name, and on inline images', () => {
    expect(() => read('BT <0001> Tj ET', {})).toThrow(UnreadableContent);
    expect(() => read('BT /F1 10 Tf <0001> Tj ET', { Font: [] })).toThrow(UnreadableContent);
    expect(() => read('BI /W 1 /H 1 ID x EI', {})).toThrow(UnreadableContent);
  });
});
