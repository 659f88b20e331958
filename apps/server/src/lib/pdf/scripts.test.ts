import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fontkit from 'fontkit';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { pdftotext } from '../../test/pdf-text.ts';
import { readPng } from '../../test/png.ts';
import { bundledFaces, bundledFontNames, packageFile } from './fonts.ts';
import { PdfRenderer, UnprintableError } from './renderer.ts';
import { sharedBrowserEndpoint } from '../../test/shared-browser.ts';

/**
 * Every script a notice may be written in prints with the bundled fonts, conjuncts and vowel signs in
 * place: one real sentence per script, a customer's name and a line of a notice, printed as one batch.
 * References: fixtures/scripts/<script>.png, made with UPDATE_SCRIPT_REFERENCES=1 and looked at.
 */
const sentences = [
  {
    script: 'hindi',
    lang: 'hi',
    name: 'राजेश कुमार शर्मा',
    loan: 'LN100234',
    amount: '1,25,000.50',
    line: 'आपके ऋण खाता संख्या LN100234 पर ₹1,25,000.50 की राशि बकाया है।',
  },
  {
    script: 'marathi',
    lang: 'mr',
    name: 'श्रीकांत पाटील',
    loan: 'LN100235',
    amount: '84,500',
    line: 'आपल्या कर्ज खाते क्रमांक LN100235 वर ₹84,500 इतकी रक्कम थकीत आहे.',
  },
  {
    script: 'bengali',
    lang: 'bn',
    name: 'সৌমিত্র চট্টোপাধ্যায়',
    loan: 'LN100236',
    amount: '2,30,000',
    line: 'আপনার ঋণ অ্যাকাউন্ট নম্বর LN100236-এ ₹2,30,000 বকেয়া রয়েছে।',
  },
  {
    script: 'assamese',
    lang: 'as',
    name: 'হিমন্ত শৰ্মা',
    loan: 'LN100237',
    amount: '56,750',
    line: 'আপোনাৰ ঋণ একাউণ্ট নং LN100237 ত ₹56,750 বাকী আছে।',
  },
  {
    script: 'gurmukhi',
    lang: 'pa',
    name: 'ਗੁਰਪ੍ਰੀਤ ਸਿੰਘ',
    loan: 'LN100238',
    amount: '1,10,000',
    line: 'ਤੁਹਾਡੇ ਕਰਜ਼ਾ ਖਾਤਾ ਨੰਬਰ LN100238 ਉੱਤੇ ₹1,10,000 ਬਕਾਇਆ ਹੈ।',
  },
  {
    script: 'gujarati',
    lang: 'gu',
    name: 'ભાવેશ પટેલ',
    loan: 'LN100239',
    amount: '75,000',
    line: 'આપના લોન ખાતા નંબર LN100239 પર ₹75,000 બાકી છે.',
  },
  {
    script: 'oriya',
    lang: 'or',
    name: 'ପ୍ରଦୀପ୍ତ ମହାପାତ୍ର',
    loan: 'LN100240',
    amount: '92,300',
    line: 'ଆପଣଙ୍କ ଋଣ ଖାତା ସଂଖ୍ୟା LN100240 ରେ ₹92,300 ବକେୟା ଅଛି।',
  },
  {
    script: 'tamil',
    lang: 'ta',
    name: 'கார்த்திகேயன் சுப்பிரமணியம்',
    loan: 'LN100241',
    amount: '1,50,000',
    line: 'உங்கள் கடன் கணக்கு எண் LN100241 இல் ₹1,50,000 நிலுவையில் உள்ளது.',
  },
  {
    script: 'telugu',
    lang: 'te',
    name: 'శ్రీనివాస్ రెడ్డి',
    loan: 'LN100242',
    amount: '68,400',
    line: 'మీ రుణ ఖాతా సంఖ్య LN100242 పై ₹68,400 బకాయి ఉంది.',
  },
  {
    script: 'kannada',
    lang: 'kn',
    name: 'ಲಕ್ಷ್ಮೀನಾರಾಯಣ ಹೆಗ್ಡೆ',
    loan: 'LN100243',
    amount: '2,05,000',
    line: 'ನಿಮ್ಮ ಸಾಲ ಖಾತೆ ಸಂಖ್ಯೆ LN100243 ರಲ್ಲಿ ₹2,05,000 ಬಾಕಿ ಇದೆ.',
  },
  {
    script: 'malayalam',
    lang: 'ml',
    name: 'ഉണ്ണികൃഷ്ണൻ നായർ',
    loan: 'LN100244',
    amount: '1,32,000',
    line: 'നിങ്ങളുടെ വായ്പ അക്കൗണ്ട് നമ്പർ LN100244-ൽ ₹1,32,000 കുടിശ്ശികയുണ്ട്.',
  },
  {
    script: 'urdu',
    lang: 'ur',
    name: 'محمد عمران خان',
    loan: 'LN100245',
    amount: '3,40,000',
    line: 'آپ کے قرض کھاتہ نمبر LN100245 پر ₹3,40,000 واجب الادا ہیں۔',
  },
];

const notice = ({ lang, name, line }: (typeof sentences)[number]) =>
  `<style>@page { size: A4; margin: 18mm 16mm; } body { font-family: Arial, sans-serif; font-size: 24pt; }</style>` +
  `<div lang="${lang}"${lang === 'ur' ? ' dir="rtl"' : ''}><p><strong>${name}</strong></p><p>${line}</p></div>`;

const references = new URL('./fixtures/scripts/', import.meta.url);
const update = Boolean(process.env.UPDATE_SCRIPT_REFERENCES);
const log = pino({ level: 'silent' });
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function withPdf<T>(pdf: Buffer, use: (file: string, dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'script-'));
  try {
    fs.writeFileSync(path.join(dir, 'in.pdf'), pdf);
    return use(path.join(dir, 'in.pdf'), dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** pdffonts' rows: each embedded font's name, and whether it is embedded and subset. */
const pdffonts = (pdf: Buffer) =>
  withPdf(pdf, (file) =>
    execFileSync('pdffonts', [file], { encoding: 'utf8' })
      .split('\n')
      .slice(2)
      .filter(Boolean)
      .map((row) => {
        const [name, ...rest] = row.trim().split(/\s+/);
        const [emb, sub] = rest.slice(-5, -3);
        return { name: name!, embedded: emb === 'yes', subset: sub === 'yes' };
      }),
  );

/** The first page at 50 dpi, as pdftoppm draws it. */
const firstPagePng = (pdf: Buffer) =>
  withPdf(pdf, (file, dir) => {
    execFileSync('pdftoppm', [
      '-r',
      '50',
      '-png',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      file,
      path.join(dir, 'page'),
    ]);
    return fs.readFileSync(path.join(dir, 'page.png'));
  });

/**
 * Pixels whose grey differs by more than a quarter of the range, as a share of the reference's inked
 * pixels (the page is mostly white: a share of the whole page would hide a misplaced vowel sign).
 */
function differingShare(actual: Buffer, expected: Buffer): number {
  const a = readPng(actual);
  const b = readPng(expected);
  if (a.width !== b.width || a.height !== b.height) return 1;
  let differing = 0;
  let inked = 0;
  for (let i = 0; i < a.grey.length; i++) {
    if (b.grey[i]! < 192) inked++;
    if (Math.abs(a.grey[i]! - b.grey[i]!) > 64) differing++;
  }
  return differing / Math.max(inked, 1);
}

const renderers: PdfRenderer[] = [];
const launch = () => {
  const renderer = new PdfRenderer({ executablePath, wsEndpoint: sharedBrowserEndpoint(), log });
  renderers.push(renderer);
  return renderer;
};
afterAll(() => Promise.all(renderers.map((r) => r.close())));

// The renderer does not touch the database: the PostgreSQL pass of the server suite skips this file.
describe.skipIf(process.env.DATABASE_URL)('every script of India prints with the bundled fonts', () => {
  let printed: Buffer[] = [];

  it('one sentence per script: embedded subset fonts of ours only, text found, page as its reference', async () => {
    const outcomes = await launch().renderEach(sentences.map(notice));
    printed = outcomes.map((outcome, i) => {
      if (outcome instanceof UnprintableError) throw new Error(`${sentences[i]!.script}: ${outcome.message}`);
      return outcome;
    });
    // Every character has a glyph in a bundled font, read from the font files themselves.
    const fonts = bundledFaces
      .filter((face) => face.weight === 400)
      .map((face) => fontkit.openSync(packageFile(face.pkg, face.file)) as fontkit.Font);
    const ignorable = /[\s\u200c\u200d]/u;

    for (const [i, sentence] of sentences.entries()) {
      const pdf = printed[i]!;
      for (const char of sentence.name + sentence.line) {
        if (ignorable.test(char)) continue;
        const cp = char.codePointAt(0)!;
        expect(
          fonts.some((font) => font.characterSet.includes(cp)),
          `${sentence.script}: U+${cp.toString(16)}`,
        ).toBe(true);
      }
      const embedded = pdffonts(pdf);
      expect(embedded.length, sentence.script).toBeGreaterThan(0);
      for (const font of embedded) {
        expect(font, sentence.script).toMatchObject({ embedded: true, subset: true });
        expect(
          bundledFontNames.has(font.name.replace(/^[A-Z]{6}\+/, '')),
          `${sentence.script}: ${font.name}`,
        ).toBe(true);
      }

      const text = await pdftotext(pdf);
      expect(text, sentence.script).toContain(sentence.loan);
      expect(text, sentence.script).toContain(sentence.amount);
      expect(text.trimStart().startsWith('.'), `${sentence.script}: ${text.slice(0, 20)}`).toBe(false);
      expect(text).not.toContain('record-start');

      const page = firstPagePng(pdf);
      const reference = new URL(`${sentence.script}.png`, references);
      if (update) fs.writeFileSync(reference, page);
      expect(differingShare(page, fs.readFileSync(reference)), sentence.script).toBeLessThan(0.02);
    }
  }, 60_000);

  it('gives the same bytes for the same notice in another browser launch, batched and alone', async () => {
    expect(printed).toHaveLength(sentences.length);
    const again = launch();
    const [batched, alone] = await Promise.all([
      again.renderMany(sentences.map(notice)),
      again.render(notice(sentences[0]!)),
    ]);
    batched.forEach((pdf, i) => expect(pdf.equals(printed[i]!), sentences[i]!.script).toBe(true));
    // Again in the first launch, in the tab that printed them: its shared document has every font loaded.
    const reprinted = await renderers[0]!.renderMany(sentences.map(notice));
    reprinted.forEach((pdf, i) =>
      expect(pdf.equals(printed[i]!), `${sentences[i]!.script} again`).toBe(true),
    );
    const aloneFirst = await renderers[0]!.render(notice(sentences[0]!));
    expect(alone.equals(aloneFirst)).toBe(true);
    const text = alone.toString('latin1');
    expect(text).not.toMatch(/CreationDate|ModDate|HeadlessChrome|about:blank/);
    expect(text).toMatch(/\/ID \[ <[0-9a-f]{32}> <[0-9a-f]{32}> \]/);
  }, 60_000);

  it('gives a notice the same bytes among other neighbours and in another order', async () => {
    const latin = {
      ...sentences[0]!,
      script: 'english',
      lang: 'en',
      name: 'Rajesh Kumar Sharma',
      line: 'Your loan account LN100234 shows ₹1,25,000.50 outstanding.',
    };
    const hindi = sentences[0]!;
    const others = [
      { ...latin, name: 'Zoë Quixley-Wójcik', line: 'Jump over the lazy fox: LN999999, ₹7,89,012.34.' },
      { ...hindi, name: 'ज़ुबैर ख़ान', line: 'यह सूचना आपको औपचारिक रूप से भेजी जा रही है।' },
      sentences.find((s) => s.script === 'tamil')!,
      sentences.find((s) => s.script === 'urdu')!,
    ];
    // Batches that share fonts with the two notices (other Latin and Devanagari glyphs) and some
    // that do not (Tamil, Urdu), in other orders, a batch of the two, and each printed alone.
    const batches = [
      [others[0]!, latin, others[2]!, hindi, others[3]!],
      [hindi, others[1]!, others[3]!, latin, others[0]!],
      [latin, hindi],
      [latin],
      [hindi],
    ];
    const renderer = launch();
    const printed = await Promise.all(batches.map((batch) => renderer.renderMany(batch.map(notice))));
    const [first, ...rest] = printed.map((pdfs, b) => ({
      latin: pdfs[batches[b]!.indexOf(latin)],
      hindi: pdfs[batches[b]!.indexOf(hindi)],
    }));
    for (const [b, other] of rest.entries()) {
      if (other.latin) expect(other.latin.equals(first!.latin!), `Latin, batch ${b + 2}`).toBe(true);
      if (other.hindi) expect(other.hindi.equals(first!.hindi!), `Hindi, batch ${b + 2}`).toBe(true);
    }
    expect(await pdftotext(first!.latin!)).toContain('₹1,25,000.50');
    expect(await pdftotext(first!.hindi!)).toContain('₹1,25,000.50');
  }, 60_000);

  it('refuses a notice with a character no bundled font covers, and prints the others of its batch', async () => {
    const outcomes = await renderers[0]!.renderEach([
      notice(sentences[0]!),
      notice({ ...sentences[1]!, name: 'श्रीकांत 😀 पाटील' }),
    ]);
    expect(outcomes[0]).toBeInstanceOf(Buffer);
    expect(outcomes[1]).toBeInstanceOf(UnprintableError);
    expect((outcomes[1] as Error).message).toBe('The notice uses characters no font covers: U+1F600 (😀).');
  }, 30_000);
});
