import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { anyMark, mark } from '../../test/hostile-layouts.ts';
import { pdftotextEach } from '../../test/pdf-text.ts';
import { PdfRenderer } from './renderer.ts';
import { sharedBrowserEndpoint } from '../../test/shared-browser.ts';

/**
 * A differential fuzz test of record isolation: generated hostile templates, each printed for several
 * records in one batch and for each record alone. Every record's text in the batch must equal its
 * text printed alone, and must never hold another record's values. Templates are drawn from a seeded
 * generator; a failure names the seed, which `ISOLATION_FUZZ_SEED` replays.
 *
 * CI runs `ISOLATION_FUZZ_COUNT` templates (16 by default); `npm run fuzz:isolation` runs 300.
 */
const COUNT = Number(process.env.ISOLATION_FUZZ_COUNT || 16);
const FIRST_SEED = Number(process.env.ISOLATION_FUZZ_SEED || 20261128);
const RECORDS = 3;

/** mulberry32: a small, well-known seeded generator, so a failing case can be replayed exactly. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number) => next() < p;
  return { next, pick, chance };
}

type Random = ReturnType<typeof generator>;

const offsets = [
  '0',
  '5mm',
  '-5mm',
  '150mm',
  '-150mm',
  '900mm',
  '-900mm',
  '3000px',
  '-3000px',
  '100%',
  '-100%',
  '50vh',
];
const sizes = ['auto', '10mm', '300mm', '1200mm', '100%', '2000px'];

/** One CSS declaration block of hostile geometry. */
function hostileStyle(r: Random): string {
  const rules: string[] = [];
  const position = r.pick(['static', 'relative', 'absolute', 'fixed', 'sticky', 'absolute', 'relative']);
  rules.push(`position:${position}`);
  for (const side of ['top', 'bottom', 'left', 'right'])
    if (r.chance(0.35)) rules.push(`${side}:${r.pick(offsets)}`);
  if (r.chance(0.3)) rules.push(`height:${r.pick(sizes)}`);
  if (r.chance(0.2)) rules.push(`width:${r.pick(sizes)}`);
  if (r.chance(0.3)) {
    rules.push(
      `transform:${r.pick([
        `translateY(${r.pick(offsets)})`,
        `translate(${r.pick(offsets)},${r.pick(offsets)})`,
        'scale(4)',
        'rotate(180deg)',
        `translateY(${r.pick(offsets)}) scale(2)`,
        'matrix(1,0,0,1,0,-3000)',
      ])}`,
    );
  }
  if (r.chance(0.3)) rules.push(`margin-${r.pick(['top', 'bottom', 'left'])}:${r.pick(offsets)}`);
  if (r.chance(0.2)) rules.push(`float:${r.pick(['left', 'right'])}`);
  if (r.chance(0.15)) rules.push(`columns:${r.pick(['2', '4'])};column-fill:auto`);
  if (r.chance(0.2))
    rules.push(`break-${r.pick(['before', 'after', 'inside'])}:${r.pick(['page', 'avoid', 'avoid-page'])}`);
  if (r.chance(0.2)) rules.push(`overflow:${r.pick(['hidden', 'visible', 'clip', 'auto'])}`);
  if (r.chance(0.1)) rules.push(`text-shadow:0 ${r.pick(offsets)} 0 black`);
  if (r.chance(0.05)) rules.push(`filter:drop-shadow(0 ${r.pick(offsets)} 0 black)`);
  if (r.chance(0.05)) rules.push(`-webkit-box-reflect:below ${r.pick(offsets)}`);
  return rules.join(';');
}

/** One piece of a template: an element of hostile geometry holding the record's value ($). */
function hostilePiece(r: Random, n: number): string {
  const style = hostileStyle(r);
  const kind = r.pick(['div', 'div', 'p', 'span', 'pseudo', 'svg', 'nested', 'table', 'list']);
  switch (kind) {
    case 'pseudo':
      return `<style>.p${n}::${r.pick(['before', 'after'])}{content:"Pseudo $";${hostileStyle(r)}}</style><div class="p${n}" style="${style}">x</div>`;
    case 'svg':
      return `<svg width="200" height="40" style="${style};overflow:${r.pick(['visible', 'hidden'])}"><text x="${r.pick(['0', '-3000', '5000'])}" y="${r.pick(['20', '-4000', '4000'])}">Svg $</text></svg>`;
    case 'nested':
      return `<div style="${style}"><div style="${hostileStyle(r)}">Nested $</div></div>`;
    case 'table':
      return `<table style="${style}"><tr><td style="${hostileStyle(r)}">Cell $</td></tr></table>`;
    case 'list':
      return `<ol style="${style}" start="${r.pick(['1', '99999999'])}"><li>Item $</li></ol>`;
    case 'span':
      return `<p><span style="display:inline-block;${style}">Span $</span></p>`;
    default:
      return `<${kind} style="${style}">Piece $</${kind}>`;
  }
}

function hostileTemplate(seed: number): string {
  const r = generator(seed);
  const pieces = Array.from({ length: 1 + Math.floor(r.next() * 4) }, (_, n) => hostilePiece(r, n));
  const filler = r.chance(0.5) ? `<div style="height:${r.pick(['50mm', '280mm', '1200mm'])}"></div>` : '';
  return `<h1>Notice for $</h1>${r.chance(0.5) ? filler : ''}${pieces.join('')}${r.chance(0.5) ? filler : ''}<p>Closing $</p>`;
}

const record = (template: string, i: number) => template.replaceAll('$', mark(i, 'R'));
const words = (text: string) => text.replace(/\s+/g, ' ').trim();

const renderer = new PdfRenderer({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  wsEndpoint: sharedBrowserEndpoint(),
  log: pino({ level: 'silent' }),
});
afterAll(() => renderer.close());

// The renderer does not touch the database: the PostgreSQL pass of the server suite skips this file.
describe.skipIf(process.env.DATABASE_URL)(
  `record isolation under ${COUNT} generated hostile templates from seed ${FIRST_SEED}`,
  () => {
    for (let seed = FIRST_SEED; seed < FIRST_SEED + COUNT; seed++) {
      it(`seed ${seed}: each record prints in a batch as it prints alone, with no other record's values`, async () => {
        const template = hostileTemplate(seed);
        const records = Array.from({ length: RECORDS }, (_, i) => record(template, i));
        const batched = await pdftotextEach(await renderer.renderMany(records));
        const alone = await pdftotextEach(await Promise.all(records.map((html) => renderer.render(html))));
        const replay = `replay with ISOLATION_FUZZ_SEED=${seed} ISOLATION_FUZZ_COUNT=1; the template: ${template}`;
        batched.forEach((text, i) => {
          const strangers = [...text.matchAll(anyMark)].filter((m) => Number(m[2]) !== i).map((m) => m[0]);
          expect(strangers, `record ${i} shows another record's values, ${replay}`).toEqual([]);
          expect(words(text), `record ${i} prints differently in a batch, ${replay}`).toBe(words(alone[i]!));
        });
      }, 120_000);
    }
  },
);
