/**
 * Templates that try to put one record's text on another record's pages: each layout is a template
 * with `$` standing for a record's own marker value.
 */

/** A value no other record's value contains: QZ0007QZ. */
export const mark = (i: number, what: string) => `${what}QZ${String(i).padStart(4, '0')}QZ`;
export const anyMark = /([A-Z]+)QZ(\d{4})QZ/g;

/** Each layout: the template with `$` standing for a record's own marker value. */
export const hostile: Record<string, string> = {
  'a fixed footer': '<div style="position:fixed;bottom:0;left:0">Footer $</div>',
  'a fixed block with negative offsets': '<div style="position:fixed;top:-40mm;left:-20mm">Fixed $</div>',
  'an absolute signature block far above its record':
    '<div style="position:absolute;top:-2000px;left:0">Signed $</div>',
  'an absolute block far below its record': '<div style="position:absolute;top:3000px">Below $</div>',
  'absolute with negative bottom and right':
    '<div style="position:absolute;bottom:-500mm;right:-50mm">Edge $</div>',
  'an @page margin box naming the record':
    '<style>@page { @bottom-center { content: "Page box $"; } }</style>',
  'a running() footer': `<style>.run { position: running(footer); } @page { @bottom-left { content: element(footer); } }</style>
     <div class="run">Running $</div>`,
  '@page with its own size and margins': '<style>@page { size: A5; margin: 0; }</style><p>Small page $</p>',
  'a float pulled upwards': '<div style="float:right;margin-top:-600mm;height:10mm">Float $</div>',
  'a float taller than a page': '<div style="float:left;width:40mm;height:400mm">Tall float $</div>',
  'a multi-column layout that overflows': `<div style="columns:4;column-fill:auto;height:30mm">${'<p>Column $</p>'.repeat(40)}</div>`,
  'a transform upwards': '<div style="transform:translateY(-297mm)">Moved up $</div>',
  'a transform downwards and scaled': '<div style="transform:translate(0,500mm) scale(3)">Moved down $</div>',
  "a tall record whose absolute block falls onto the next record's pages":
    '<div style="height:1200mm"></div><p>Body $</p><div style="position:absolute;bottom:-900mm">Bottom $</div>',
  'an element taller than a page': '<div style="height:1600mm">Tall $</div><p>After tall $</p>',
  'a negative margin': '<div style="margin-top:-400mm;margin-bottom:400mm">Margin $</div>',
  'page-break tricks': `<div style="break-before:page;break-after:avoid-page;page-break-inside:avoid">Break $</div>
     <style>:host { break-after: avoid !important; break-before: avoid !important; } * { break-after: avoid !important; }</style>`,
  'an SVG use of an id every record defines': `<svg width="300" height="40"><defs><g id="sig"><text x="0" y="20">Use $</text></g></defs>
     <use href="#sig"/></svg><svg width="300" height="40"><use href="#sig" y="0"/></svg>`,
  'an SVG use of an id only the first record defines': `<svg width="300" height="40"><use href="#only-first"/></svg>`,
  'styles that carry the record into every element': `<style>p::after { content: " Styled $"; } nd-record::before, section::before, body::before { content: "Body $"; }</style><p>Para</p>`,
  'markup that closes its record early': `</template></nd-body></nd-html></div></nd-record></section></body><div style="position:fixed;top:0">Escaped $</div>`,
  'a sticky and a fixed header':
    '<div style="position:sticky;top:0">Sticky $</div><header style="position:fixed;top:0">Header $</header>',
  'a forged record marker':
    '<a href="https://record-start.invalid/0/1" style="display:block;height:5px">Forged $</a>',
};

export const recordHtml = (layout: string, i: number) => {
  const html = hostile[layout]!.replaceAll('$', mark(i, 'H'));
  // Only the first record holds the element the others' <use> point at.
  const first =
    layout.includes('only the first') && i === 0
      ? '<svg><defs><g id="only-first"><text y="20">Only first $</text></g></defs></svg>'.replace(
          '$',
          mark(i, 'H'),
        )
      : '';
  return `<h1>Notice for ${mark(i, 'OWN')}</h1>${first}${html}<p>Closing ${mark(i, 'END')}</p>`;
};
