import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import { SignPdf } from '@signpdf/signpdf';
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import * as asn1js from 'asn1js';
import { PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPki } from '../../test/signing-certs.ts';
import { appendSignaturePlaceholder } from './signature-placeholder.ts';
import { loadSigningKey, NoticeSigner, type SigningKey } from './signing.ts';
import { checkPdfSignature, TrustedSigner } from './verify-signature.ts';

// Issue 30: what the verification page says of a file's signatures, and the signed bytes themselves.
let dir: string;
let ours: NoticeSigner;
let stamped: NoticeSigner;
let stranger: NoticeSigner;
let trusted: TrustedSigner;
let pdf: Buffer;
let pki: ReturnType<typeof createTestPki>;
let key: SigningKey;

const signerWith = (key: SigningKey, stamp = false) =>
  new NoticeSigner({
    key,
    reason: 'Legal notice',
    location: 'Pune',
    stamp,
    tsaUrl: undefined,
    timeZone: 'Asia/Kolkata',
  });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-signatures-'));
  pki = createTestPki(dir);
  key = loadSigningKey(pki.p12(), 'p12-pass');
  ours = signerWith(key);
  stamped = signerWith(key, true);
  trusted = new TrustedSigner(key.chain);
  // Another advocate's certificate from the same CA: a valid signature, not ours.
  stranger = signerWith(loadSigningKey(pki.p12({ name: 'Mallory Advocate' }), 'p12-pass'));
  const document = await PDFDocument.create();
  document.addPage().drawText('Legal notice');
  // A classic xref table, as the renderer writes: the signature goes on as an incremental update.
  pdf = Buffer.from(await document.save({ useObjectStreams: false }));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Our signature, valid itself, but the file has bytes it does not cover. */
const changedAfterOurs = {
  signed: true,
  valid: false,
  signer: 'Advocate Asha Rao',
  reason: 'The file was changed after it was signed.',
};

describe('checking every signature of a file against our signing certificate', () => {
  it('our signature over the whole file: valid, naming the signer', async () => {
    for (const signer of [ours, stamped])
      expect(await checkPdfSignature(await signer.sign(pdf), trusted)).toEqual({
        signed: true,
        valid: true,
        signer: 'Advocate Asha Rao',
        reason: null,
      });
  });

  it('a file without a signature: not signed; one of many signatures: refused before any is checked', async () => {
    expect(await checkPdfSignature(pdf, trusted)).toMatchObject({ signed: false, valid: false });
    const many = Buffer.concat([pdf, Buffer.from(' /ByteRange [0 10 20 30]'.repeat(9))]);
    expect(await checkPdfSignature(many, trusted)).toMatchObject({
      valid: false,
      reason: 'It carries 9 signatures; a notice we served carries one.',
    });
  });

  it('the notice signed by another key (a certificate of the same CA): a valid CMS, not ours', async () => {
    expect(await checkPdfSignature(await stranger.sign(pdf), trusted)).toEqual({
      signed: true,
      valid: false,
      signer: 'Mallory Advocate',
      reason: 'It was not signed with our signing key.',
    });
    // With no signing certificate set, no signature is ours.
    expect(await checkPdfSignature(await ours.sign(pdf), undefined)).toMatchObject({
      valid: false,
      reason: 'No signing certificate is set here to check it against.',
    });
  });

  it('bytes appended after our signature: changed after signing', async () => {
    const signed = await ours.sign(pdf);
    const update = '\n9 0 obj\n<< /Type /Annot /Subtype /Text /Contents (paid) >>\nendobj\n%%EOF\n';
    for (const extra of ['\n', update])
      expect(await checkPdfSignature(Buffer.concat([signed, Buffer.from(extra)]), trusted)).toEqual(
        changedAfterOurs,
      );
  });

  it('a second signature after ours, by another key or ours: the first no longer covers the file', async () => {
    const signed = await ours.sign(pdf);
    for (const second of [stranger, ours]) {
      const twice = await second.sign(signed);
      // Both signatures are there, each over its own byte range, the first one's bytes untouched.
      expect(twice.subarray(0, signed.length).equals(signed)).toBe(true);
      expect(twice.toString('latin1').match(/\/ByteRange \[0 \d+/g)).toHaveLength(2);
      expect(await checkPdfSignature(twice, trusted)).toEqual(changedAfterOurs);
    }
  });

  it('one changed byte, in the signed bytes or in the signature: it does not match', async () => {
    const signed = await ours.sign(pdf);
    const contents = signed.indexOf('/Contents <') + 20;
    for (const at of [10, Math.floor(pdf.length / 2), contents]) {
      const changed = Buffer.from(signed);
      changed[at] = changed[at] === 0x30 ? 0x31 : 0x30;
      expect(await checkPdfSignature(changed, trusted)).toMatchObject({ signed: true, valid: false });
    }
  });

  it('our key, at a time its certificate was not valid: the chain does not hold', async () => {
    const backdated = await ours.sign(pdf, new Date(Date.now() - 3 * 86_400_000));
    expect(await checkPdfSignature(backdated, trusted)).toMatchObject({
      valid: false,
      reason: 'Its certificate does not chain to our signing certificate.',
    });
  });
});

describe('earlier signing certificates (NOTICE_SIGNING_EARLIER_CERTS): a notice signed before the DSC was renewed', () => {
  let renewed: SigningKey;
  let renewedOnly: TrustedSigner;
  let withEarlier: TrustedSigner;
  beforeAll(() => {
    renewed = loadSigningKey(pki.p12(), 'p12-pass');
    renewedOnly = new TrustedSigner(renewed.chain);
    withEarlier = new TrustedSigner(renewed.chain, [key.chain]);
  });

  it('signed with the earlier key: ours when its certificate is listed, naming it; not ours without', async () => {
    const signed = await ours.sign(pdf);
    expect(await checkPdfSignature(signed, renewedOnly)).toMatchObject({
      valid: false,
      reason: 'It was not signed with our signing key.',
    });
    const leaf = new X509Certificate(key.chain[0]!);
    expect(await checkPdfSignature(signed, withEarlier)).toEqual({
      signed: true,
      valid: true,
      signer: 'Advocate Asha Rao',
      reason: null,
      earlier: {
        subject: 'Advocate Asha Rao',
        validFrom: new Date(leaf.validFrom),
        validTo: new Date(leaf.validTo),
      },
    });
    // Listed without a current key (signing turned off): still ours.
    expect(await checkPdfSignature(signed, new TrustedSigner(undefined, [key.chain]))).toMatchObject({
      valid: true,
    });
    // The renewed key's own notices read as the current key's, with no earlier certificate.
    expect(await checkPdfSignature(await signerWith(renewed).sign(pdf), withEarlier)).toEqual({
      signed: true,
      valid: true,
      signer: 'Advocate Asha Rao',
      reason: null,
    });
  });

  it('the earlier certificate at a time it was not valid: not ours', async () => {
    const backdated = await ours.sign(pdf, new Date(Date.now() - 3 * 86_400_000));
    expect(await checkPdfSignature(backdated, withEarlier)).toMatchObject({
      valid: false,
      reason: expect.stringMatching(
        /earlier signing certificate of ours, but .* not valid when it was signed/,
      ),
    });
  });

  it("another CA's certificate listed vouches for no other certificate of that CA: only the exact one counts", async () => {
    const otherCa = createTestPki(path.join(dir, 'other-ca'));
    const listed = loadSigningKey(otherCa.p12({ name: 'Listed Advocate' }), 'p12-pass');
    const foreign = loadSigningKey(otherCa.p12({ name: 'Mallory Advocate' }), 'p12-pass');
    const signed = await signerWith(foreign).sign(pdf);
    expect(
      await checkPdfSignature(signed, new TrustedSigner(renewed.chain, [key.chain, listed.chain])),
    ).toMatchObject({
      valid: false,
      signer: 'Mallory Advocate',
      reason: 'It was not signed with our signing key.',
    });
    expect(await checkPdfSignature(signed, new TrustedSigner(renewed.chain, [foreign.chain]))).toMatchObject({
      valid: true,
      earlier: { subject: 'Mallory Advocate' },
    });
  });
});

it("the signed bytes are @signpdf's SignPdf's, on the plain and the pdf-lib placeholder", async () => {
  for (const signer of [ours, stamped]) {
    const signed = await signer.sign(pdf);
    // Back to the placeholder SignPdf fills: the byte range's stars, the room's zeros.
    const range = /\/ByteRange \[0 (\d+) (\d+) \d+\]/.exec(signed.toString('latin1'))!;
    const [start, end] = [Number(range[1]), Number(range[2])];
    const prepared = Buffer.from(signed);
    prepared.write('/ByteRange [0 /********** /********** /**********]', range.index, 'latin1');
    prepared.fill(0x30, start + 1, end - 1);
    const hex = signed.subarray(start + 1, end - 1).toString('latin1');
    const der = Buffer.from(hex, 'hex');
    const cms = der.subarray(0, asn1js.fromBER(new Uint8Array(der)).offset);
    const theirs = await new SignPdf().sign(
      prepared,
      new (class extends Signer {
        override sign = async () => cms;
      })(),
    );
    expect(theirs.equals(signed)).toBe(true);
  }
});

it("the placeholder's bytes are @signpdf/placeholder-plain's, and a file with a form goes to it", async () => {
  // Two pages, the first with a link annotation already: the widget joins the first page's /Annots.
  const document = await PDFDocument.load(pdf);
  const link = document.context.register(
    document.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 0, 10, 10] }),
  );
  document.getPages()[0]!.node.set(PDFName.of('Annots'), document.context.obj([link]));
  document.addPage().drawText('Page two');
  const annotated = Buffer.from(await document.save({ useObjectStreams: false }));
  const options = {
    reason: 'Legal notice (s.13)',
    contactInfo: '',
    name: 'Advocate Asha Rao',
    location: 'Pune',
    signingTime: new Date('2026-11-29T10:00:00Z'),
    signatureLength: 4096,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: 'NoticeDesk',
  };
  for (const file of [pdf, annotated, Buffer.concat([pdf, Buffer.from('\n')])]) {
    const ours = appendSignaturePlaceholder(file, options);
    const theirs = plainAddPlaceholder({ ...options, pdfBuffer: file, widgetRect: [0, 0, 0, 0] });
    expect(ours?.toString('latin1')).toBe(theirs.toString('latin1'));
  }
  // A signed file has an AcroForm: the library adds to it.
  expect(appendSignaturePlaceholder(await ours.sign(pdf), options)).toBeUndefined();
});
