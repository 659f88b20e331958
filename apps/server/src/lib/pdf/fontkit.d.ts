/** The little of fontkit (no types of its own) that the bundled-font checks read. */
declare module 'fontkit' {
  export interface Glyph {
    advanceWidth: number;
    path: { toSVG(): string };
  }
  export interface Font {
    postscriptName: string;
    familyName: string;
    characterSet: number[];
    numGlyphs: number;
    glyphForCodePoint(codePoint: number): Glyph & { id: number };
    getGlyph(id: number): Glyph;
  }
  export function openSync(path: string): Font | { fonts: Font[] };
  export function create(data: Buffer): Font | { fonts: Font[] };
}
