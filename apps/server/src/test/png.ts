import { inflateSync } from 'node:zlib';

/** A decoded image: width, height, and one grey byte per pixel. */
export interface GreyImage {
  width: number;
  height: number;
  grey: Uint8Array;
}

/**
 * Reads the PNGs pdftoppm writes (8-bit grey or RGB, not interlaced) into grey pixels, for comparing
 * a rendered page with its reference image.
 */
export function readPng(png: Buffer): GreyImage {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      channels = colour === 0 ? 1 : colour === 2 ? 3 : 0;
      if (depth !== 8 || !channels || interlace) throw new Error('only 8-bit grey or RGB, not interlaced');
    } else if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const upLeft = y > 0 && x >= channels ? pixels[(y - 1) * stride + x - channels]! : 0;
      const predictor =
        filter === 1
          ? left
          : filter === 2
            ? up
            : filter === 3
              ? (left + up) >> 1
              : filter === 4
                ? paeth(left, up, upLeft)
                : 0;
      pixels[y * stride + x] = (line[x]! + predictor) & 0xff;
    }
  }
  if (channels === 1) return { width, height, grey: pixels };
  const grey = new Uint8Array(width * height);
  for (let i = 0; i < grey.length; i++)
    grey[i] = Math.round((pixels[i * 3]! * 299 + pixels[i * 3 + 1]! * 587 + pixels[i * 3 + 2]! * 114) / 1000);
  return { width, height, grey };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
