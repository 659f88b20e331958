import fs from 'node:fs';
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import {
  bundledFaces,
  bundledPackages,
  bundledWeights,
  fontNeeds,
  packageFile,
  spellOutUncovered,
  uncoveredReason,
  type BundledFace,
} from './fonts.ts';

/** Parses `U+0900-097F,U+20B9` into [first, last] pairs. */
function parseRange(range: string): [number, number][] {
  return range.split(',').map((part) => {
    const [first, last] = part.trim().slice(2).split('-');
    return [parseInt(first!, 16), parseInt(last ?? first!, 16)];
  });
}

/** Runs of consecutive code points. */
function runs(points: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const cp of [...points].sort((a, b) => a - b)) {
    const last = out.at(-1);
    if (last && cp === last[1] + 1) last[1] = cp;
    else if (!last || cp > last[1]) out.push([cp, cp]);
  }
  return out;
}

/** What bundled-fonts.json must say, read from the installed font files with fontkit. */
function readFaces(): BundledFace[] {
  const faces: BundledFace[] = [];
  for (const { pkg, family, subsets } of bundledPackages) {
    for (const weight of bundledWeights) {
      const css = fs.readFileSync(packageFile(pkg, `${weight}.css`), 'utf8');
      for (const subset of subsets) {
        const name = `${pkg.slice('@fontsource/'.length)}-${subset}-${weight}-normal`;
        const block = css.slice(css.indexOf(`/* ${name} */`));
        const unicodeRange = /unicode-range:\s*([^;]+);/.exec(block)![1]!.trim();
        const file = `files/${name}.woff2`;
        const font = fontkit.openSync(packageFile(pkg, file)) as fontkit.Font;
        const ranges = parseRange(unicodeRange);
        const inRange = (cp: number) => ranges.some(([a, b]) => cp >= a && cp <= b);
        faces.push({
          family,
          subset,
          weight,
          pkg,
          file,
          unicodeRange,
          postscriptName: font.postscriptName,
          covers: runs(font.characterSet.filter(inRange)),
        });
      }
    }
  }
  return faces;
}

describe('bundled fonts', () => {
  it('bundled-fonts.json says what the installed font files hold (UPDATE_BUNDLED_FONTS=1 rewrites it)', () => {
    const faces = readFaces();
    if (process.env.UPDATE_BUNDLED_FONTS) {
      fs.writeFileSync(
        new URL('./bundled-fonts.json', import.meta.url),
        `${JSON.stringify({ faces }, null, 0).replace(/\{"family"/g, '\n{"family"')}\n`,
      );
    }
    expect(bundledFaces).toEqual(faces);
    for (const { pkg } of bundledPackages) {
      const manifest = JSON.parse(fs.readFileSync(packageFile(pkg, 'package.json'), 'utf8')) as {
        license: string;
      };
      expect(manifest.license, pkg).toBe('OFL-1.1');
    }
  });

  it('cover the rupee sign, Latin and every script of India the notices use', () => {
    const samples = [
      '₹ 1,25,000.50',
      'राजेश',
      'রাজেশ',
      'ৰাজেশ',
      'ਰਾਜੇਸ਼',
      'રાજેશ',
      'ରାଜେଶ',
      'ராஜேஷ்',
      'రాజేష్',
      'ರಾಜೇಶ್',
      'രാജേഷ്',
      'راجیش',
    ];
    for (const sample of samples) expect(fontNeeds(sample).uncovered, sample).toEqual([]);
  });

  it('name the characters no bundled font covers, and let joiners and variation selectors pass', () => {
    expect(fontNeeds('राजेश 😀 &#x1F4A9; <b title="ignored">ok</b>').uncovered).toEqual([0x1f600, 0x1f4a9]);
    expect(fontNeeds('क्‍ष क्‌ष ❤︎ x').uncovered).toEqual([0x2764]);
    expect(uncoveredReason([0x1f600])).toBe('The notice uses characters no font covers: U+1F600 (😀).');
    expect(spellOutUncovered('<p>Asha 😀</p>')).toBe('<p>Asha [U+1F600]</p>');
  });

  it('give a page only the subsets its text draws on', () => {
    expect([...fontNeeds('<p>Rs. 100</p>').subsets]).toEqual(['latin']);
    expect([...fontNeeds('<p>₹ 100 राजेश</p>').subsets].sort()).toEqual(['devanagari', 'latin', 'latin-ext']);
  });
});
