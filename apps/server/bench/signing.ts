import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadSigningKey, NoticeSigner } from '../src/lib/pdf/signing.ts';
import { PdfRenderer } from '../src/lib/pdf/renderer.ts';
import { createTestPki } from '../src/test/signing-certs.ts';
import { noticeDocuments } from './pdfs.ts';

/** 2,000 notices, as the PDF benchmark; BENCH_PDF_COUNT prints fewer. */
const COUNT = Number(process.env.BENCH_PDF_COUNT ?? 2000);

export interface SigningFigures {
  notices: string;
  'unsigned/s': number;
  'signed/s': number;
  'signing ms each': number;
  'signing % of render': number;
}

/**
 * The batched render of the PDF benchmark, then each PDF signed (PAdES B, a throwaway RSA-2048 key, no
 * TSA: a TSA's round trip is the network's), with and without the visible stamp.
 */
export async function benchSigning(): Promise<SigningFigures[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-signing-'));
  const pki = createTestPki(dir);
  const key = loadSigningKey(pki.p12(), 'p12-pass');
  const renderer = new PdfRenderer({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    log: pino({ level: 'warn' }),
  });
  await renderer.render('<p>warm up</p>');
  const figures: SigningFigures[] = [];
  for (const language of ['latin', 'hindi'] as const) {
    const documents = (await noticeDocuments(language)).slice(0, COUNT);
    const start = performance.now();
    const pdfs = await renderer.renderMany(documents);
    const renderSeconds = (performance.now() - start) / 1000;
    for (const stamp of [false, true]) {
      const signer = new NoticeSigner({
        key,
        reason: 'Legal notice',
        location: 'Mumbai',
        stamp,
        tsaUrl: undefined,
        timeZone: 'Asia/Kolkata',
      });
      await signer.sign(pdfs[0]!);
      const signStart = performance.now();
      for (const pdf of pdfs) await signer.sign(pdf);
      const signSeconds = (performance.now() - signStart) / 1000;
      figures.push({
        notices: `${language}${stamp ? ', visible stamp' : ''}`,
        'unsigned/s': Math.round(pdfs.length / renderSeconds),
        'signed/s': Math.round(pdfs.length / (renderSeconds + signSeconds)),
        'signing ms each': Number(((signSeconds * 1000) / pdfs.length).toFixed(2)),
        'signing % of render': Math.round((signSeconds / renderSeconds) * 100),
      });
    }
  }
  await renderer.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return figures;
}
