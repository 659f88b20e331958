import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import { sourceFont, subsetFont } from './font-subset.ts';
import { bundledFaces, packageFile } from './fonts.ts';

/** Some of each face's glyphs: those of the first characters it covers, and of a few spread over its range. */
function sampleCodePoints(covers: [number, number][]): number[] {
  const all = covers.flatMap(([first, last]) =>
    Array.from({ length: last - first + 1 }, (_, i) => first + i),
  );
  return all.filter((_, i) => i < 20 || i % 17 === 0);
}

describe('subsets of the bundled fonts that keep glyph ids', () => {
  it('draw every glyph asked for as the bundled file does, at its own id, and nothing else', () => {
    for (const face of bundledFaces) {
      const bundled = fontkit.openSync(packageFile(face.pkg, face.file)) as fontkit.Font;
      const source = sourceFont(face);
      expect(source.glyphs.length, face.file).toBe(bundled.numGlyphs);
      const used = [...new Set(sampleCodePoints(face.covers).map((cp) => bundled.glyphForCodePoint(cp).id))];
      const subset = fontkit.create(subsetFont(source, used)) as fontkit.Font;
      for (const gid of used) {
        expect(subset.getGlyph(gid).path.toSVG(), `${face.file} glyph ${gid}`).toBe(
          bundled.getGlyph(gid).path.toSVG(),
        );
        expect(subset.getGlyph(gid).advanceWidth, `${face.file} glyph ${gid}`).toBe(
          bundled.getGlyph(gid).advanceWidth,
        );
      }
      const unused = Array.from({ length: subset.numGlyphs }, (_, gid) => gid).filter(
        (gid) => gid > 0 && !used.includes(gid) && bundled.getGlyph(gid).path.toSVG() !== '',
      );
      // Glyphs not asked for are empty, unless a composite glyph asked for is built from them.
      const empty = unused.filter((gid) => subset.getGlyph(gid).path.toSVG() === '');
      expect(empty.length, face.file).toBeGreaterThan(unused.length / 2);
    }
  }, 60_000);
});
