/** The little of fontkit (no types of its own) that the bundled-font check reads. */
declare module 'fontkit' {
  export interface Font {
    postscriptName: string;
    familyName: string;
    characterSet: number[];
  }
  export function openSync(path: string): Font | { fonts: Font[] };
}
