import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const css = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'indic-fonts.css'), 'utf8');
/** Signs every script shares and Latin's combining dots, left out: an amount in rupees pulls in no script's font. */
const shared = new Set(['U+20B9', 'U+20A8', 'U+25CC', 'U+2010-2011', 'U+20F0', 'U+0307', 'U+0323']);

interface Face {
  family: string;
  weight: string;
  url: string;
  file: string;
  ranges: string[];
}

const facesOf = (text: string): Face[] =>
  [...text.matchAll(/@font-face \{([^}]*)\}/g)].map(([, block]) => ({
    family: /font-family:\s*'([^']+)'/.exec(block!)![1]!,
    weight: /font-weight:\s*(\d+)/.exec(block!)![1]!,
    url: /url\('?([^')]+)'?\)/.exec(block!)![1]!,
    file: /url\('?([^')]+)'?\)/.exec(block!)![1]!.split('/').pop()!,
    ranges: /unicode-range:\s*([^;]+);/
      .exec(block!)![1]!
      .split(/[\s,]+/)
      .filter(Boolean),
  }));

describe('the bundled fonts of India’s scripts', () => {
  const faces = facesOf(css);

  it('has one woff2 face per script and weight, 400 and 700, and no Latin face', () => {
    expect(faces).toHaveLength(20);
    for (const face of faces) {
      expect(face.file).toMatch(/-(400|700)-normal\.woff2$/);
      expect(face.file).not.toMatch(/latin/);
      // Nothing below U+0590: Latin, Greek and Cyrillic text never asks for these faces.
      for (const range of face.ranges)
        expect(parseInt(range.slice(2), 16), range).toBeGreaterThanOrEqual(0x590);
    }
  });

  it('keeps each package’s own unicode-range for its script, less the shared signs', () => {
    for (const face of faces) {
      const pkg = /@fontsource\/([^/]+)\//.exec(face.url)![1]!;
      const packageCss = readFileSync(require.resolve(`@fontsource/${pkg}/${face.weight}.css`), 'utf8');
      const own = facesOf(packageCss).find((packageFace) => packageFace.file === face.file);
      expect(own, face.file).toBeDefined();
      expect(face.ranges).toEqual(own!.ranges.filter((range) => !shared.has(range)));
      expect(own!.family).toBe(face.family);
    }
  });
});
