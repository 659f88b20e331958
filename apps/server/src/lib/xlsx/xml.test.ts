import { describe, expect, it } from 'vitest';
import { XmlTokenizer, type XmlOptions } from './xml.ts';

/**
 * The big parts (sheet, shared strings) are read by PlainMarkupReader until it meets anything but plain
 * markup, and by saxes from there. These tests hold that reading to saxes's own, event for event and
 * refusal for refusal, over hostile inputs cut into chunks anywhere.
 */

type Outcome = { events: string[]; error?: string };

function read(xml: string, cuts: number[], options: XmlOptions): Outcome {
  const events: string[] = [];
  let text = '';
  const flush = () => {
    if (text) events.push(`text ${JSON.stringify(text)}`);
    text = '';
  };
  const tokenizer = new XmlTokenizer(
    'xl/worksheets/sheet1.xml',
    {
      open(name, attributes) {
        flush();
        const pairs = Object.entries(attributes).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
        events.push(`open ${name} ${pairs.join(' ')}`);
      },
      close(name) {
        flush();
        events.push(`close ${name}`);
      },
      // Pieces of one text are one text: the readers may split it differently.
      text(piece, badReference) {
        text += piece;
        if (badReference) {
          flush();
          events.push(`bad ${badReference}`);
        }
      },
    },
    options,
  );
  try {
    let from = 0;
    for (const cut of [...cuts, xml.length]) {
      tokenizer.write(xml.slice(from, cut));
      from = cut;
    }
    tokenizer.end();
    flush();
    return { events };
  } catch (err) {
    flush();
    // saxes's messages carry a position when it counts them; what is wrong must be the same.
    return { events, error: (err as Error).message.replace(/\(\d+:\d+: /, '(') };
  }
}

/** Both readers, the same chunks; the plain reader's events up to a refusal may run ahead of saxes's. */
function expectSame(xml: string, cuts: number[] = [], badReferences: 'report' | 'refuse' = 'report') {
  const bySaxes = read(xml, cuts, { badReferences, position: true });
  const byPlain = read(xml, cuts, { badReferences, position: false });
  if (bySaxes.error) {
    expect(byPlain.error, xml).toBe(bySaxes.error);
  } else {
    expect(byPlain, xml).toEqual(bySaxes);
  }
}

const sheet = (rows: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;

const plainRows =
  '<row r="1" spans="1:3"><c r="A1" t="s"><v>0</v></c><c r=\'B1\' t="inlineStr"><is><t xml:space="preserve"> Ravi  Kumar </t></is></c><c r="C1"><v>125000.5</v></c></row>' +
  '<row r="2"><c r="A2" t="str"><v>R&amp;D &lt;x&gt; &quot;q&quot; &apos;a&apos; &#2325;&#x915;</v></c><c r="B2"/></row>';

/** Pieces that are not plain markup, or are broken: each makes the plain reader hand over, or refuse as saxes does. */
const hostile = [
  '<!-- a comment -->',
  '<!-- bad -- comment -->',
  '<![CDATA[<b>&amp;</b> ]]>',
  '<?pi data?>',
  '<?xml version="1.0"?>',
  '<!DOCTYPE x [<!ENTITY e "boom">]>',
  '&e;',
  '&amp',
  '& ',
  '&#0;',
  '&#xD800;',
  '&#x110000;',
  '&#X41;',
  '&#0065;',
  '&#x1F600;',
  ']]>',
  ']]',
  '\r\n',
  '\r',
  '\u0001',
  '\u000b',
  '\ud800',
  '\udc00x',
  '\ufffe',
  '😀',
  'क्ष',
  '<c r="A1" r="A2"/>',
  '<c r="A1"t="s"/>',
  '<c r=A1/>',
  '<c r="a<b"/>',
  '<c r="a&amp;b"/>',
  '<c r="a&#10;b"/>',
  '<c r="a\tb\nc"/>',
  '<c r="a>b"/>',
  "<c r='it\"s'/>",
  '<é/>',
  '<x:c xmlns:x="urn:x"/>',
  '<_a.b-c:d/>',
  '<1a/>',
  '< c/>',
  '<c / >',
  '<c/ >',
  '</c>',
  '</sheetData >',
  '</sheetDatax>',
  '<c>',
  '<row></rowx>',
  '<v>1</v  >',
  '<__proto__ constructor="x" __proto__="y"/>',
  'text outside',
  '<',
  '>',
  '"',
];

describe('the big parts read by the plain reader, then saxes', () => {
  it('reads plain sheets exactly as saxes does, however the chunks fall', () => {
    const xml = sheet(plainRows);
    expectSame(xml);
    for (let cut = 1; cut < xml.length; cut++) expectSame(xml, [cut]);
  });

  it('hands over to saxes, or refuses in its words, at each hostile piece wherever it stands', () => {
    const xml = sheet(plainRows);
    const places = [
      0,
      1,
      5,
      38,
      40,
      56,
      xml.indexOf('<sheetData>'),
      xml.indexOf('<v>0'),
      xml.indexOf('R&amp;'),
      xml.indexOf('</sheetData>'),
      xml.length,
    ];
    for (const piece of hostile) {
      for (const at of places) {
        const mutated = xml.slice(0, at) + piece + xml.slice(at);
        expectSame(mutated);
        expectSame(mutated, [Math.max(1, at - 3), at + 1], 'refuse');
      }
    }
  });

  it('agrees with saxes on random damage to a sheet, read in random chunks', () => {
    let seed = 20261126;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const base = sheet(plainRows + plainRows.replaceAll('r="1"', 'r="3"').replaceAll('r="2"', 'r="4"'));
    const tokens = [
      ...hostile,
      '<',
      '>',
      '/',
      '=',
      '"',
      "'",
      ' ',
      '&',
      ';',
      '#',
      'x',
      '\n',
      '<v>',
      '</v>',
      '<c>',
      '</c>',
      '</row>',
    ];
    for (let n = 0; n < 10_000; n++) {
      let xml = base;
      for (let k = 1 + random(3); k > 0; k--) {
        const at = random(xml.length);
        const action = random(3);
        if (action === 0) xml = xml.slice(0, at) + tokens[random(tokens.length)] + xml.slice(at);
        else if (action === 1) xml = xml.slice(0, at) + xml.slice(at + 1 + random(4));
        else xml = xml.slice(0, at) + xml.slice(at, at + random(30)) + xml.slice(at);
      }
      const cuts = [...new Set(Array.from({ length: random(6) }, () => 1 + random(xml.length - 1)))].sort(
        (a, b) => a - b,
      );
      expectSame(xml, cuts, random(2) ? 'report' : 'refuse');
    }
  });

  it('reads an empty part, a lone declaration and a document cut short as saxes does', () => {
    for (const xml of [
      '',
      ' ',
      '<?xml version="1.0"?>',
      '<?xm',
      '<a>',
      '<a></a> ',
      '<a/><b/>',
      '\ufeff<a/>',
      ' <?xml version="1.0"?><a/>',
    ]) {
      expectSame(xml);
    }
  });
});
