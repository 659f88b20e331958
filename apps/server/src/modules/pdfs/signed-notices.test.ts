import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { PDFDocument } from 'pdf-lib';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { appendSignaturePlaceholder } from '../../lib/pdf/signature-placeholder.ts';
import { loadSigningKey, NoticeSigner, SigningUnavailableError } from '../../lib/pdf/signing.ts';
import { FolderStore } from '../../lib/storage.ts';
import { opensslDate } from '../../test/signing-certs.ts';
import {
  P12_PASSWORD as PASSWORD,
  sha256,
  startSigningTestbed,
  type SigningTestbed,
} from '../../test/signed-notices.ts';
import { unzip } from '../../test/zip.ts';

// Issue 30, "Signed notices": every notice handed out is signed (PAdES B, B-T with a TSA), once per version.
let bed: SigningTestbed;

beforeAll(async () => {
  bed = await startSigningTestbed(
    { NOTICE_SIGNING_LOCATION: 'Mumbai', NOTICE_SIGNING_STAMP: 'on' },
    { tsa: true },
  );
});
afterAll(async () => {
  await bed?.close();
});

/** Each record's campaign, for its zip. */
const campaigns = new Map<string, string>();

async function notice(i: number, custName: string) {
  const { _id, campaignId } = await bed.notice(i, { custName });
  campaigns.set(_id, campaignId);
  return _id;
}

/** The PDFs of the record's campaign's zip. */
async function zipped(recordId: string): Promise<Buffer[]> {
  const res = await bed.t.app.inject({
    method: 'GET',
    url: `/api/campaigns/export-campaign/notice?campaignid=${campaigns.get(recordId)}`,
    headers: bed.asha.headers,
  });
  expect(res.statusCode).toBe(200);
  return (await unzip(res.rawPayload)).map((entry) => entry.data);
}

const deliveriesOf = (recordId: string) =>
  bed.db.selectFrom('deliveries').selectAll().where('record_id', '=', recordId).orderBy('id').execute();

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The independent check: PKI.js parses the CMS and verifies it over the byte range, and the TSA's token. */
async function verifyInNode(pdf: Buffer) {
  const text = pdf.toString('latin1');
  const range = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text)!.slice(1).map(Number);
  const [a, b, c, d] = range as [number, number, number, number];
  const signed = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  const hex = pdf.subarray(a + b + 1, c - 1).toString('latin1');
  const cms = Buffer.from(hex, 'hex');
  const info = pkijs.ContentInfo.fromBER(cms);
  const signedData = new pkijs.SignedData({ schema: info.content });
  const ok = await signedData.verify({ signer: 0, data: new Uint8Array(signed).buffer, checkChain: false });
  const signer = signedData.signerInfos[0]!;
  const signedTypes = signer.signedAttrs!.attributes.map((attr) => attr.type);
  const token = signer.unsignedAttrs?.attributes.find((attr) => attr.type === '1.2.840.113549.1.9.16.2.14');
  let stamped: boolean | undefined;
  if (token) {
    const tokenData = new pkijs.SignedData({
      schema: new pkijs.ContentInfo({ schema: token.values[0] }).content,
    });
    const tstInfo = pkijs.TSTInfo.fromBER(tokenData.encapContentInfo.eContent!.getValue());
    const imprint = Buffer.from(tstInfo.messageImprint.hashedMessage.getValue()).toString('hex');
    stamped = imprint === sha256(Buffer.from(signer.signature.getValue()));
  }
  return {
    ok,
    signedTypes,
    certificates: signedData.certificates?.length ?? 0,
    stamped,
    subFilter: /\/SubFilter\s*\/ETSI\.CAdES\.detached/.test(text),
    wholeFile: a === 0 && c + d === pdf.length,
  };
}

describe('a notice is sent signed', () => {
  it.each([
    ['Latin', 1, 'Rajesh Sharma'],
    ['Hindi', 2, 'राजेश शर्मा'],
  ])(
    '%s: the e-mailed PDF verifies (pdfsig and PKI.js), is timestamped, and a resend sends the same bytes',
    async (_, i, name) => {
      const id = await notice(i, name);
      const before = bed.tsa!.requests;
      await bed.send([id]);
      const [first] = await bed.mailedPdfs(`borrower${i}@example.com`, 1);
      const poppler = await bed.pdfsig(first!);
      expect(poppler).toContain('Signature is Valid.');
      expect(poppler).toContain('ETSI.CAdES.detached');
      expect(poppler).toContain('Total document signed');
      const node = await verifyInNode(first!);
      expect(node).toEqual({
        ok: true,
        signedTypes: ['1.2.840.113549.1.9.3', '1.2.840.113549.1.9.4', '1.2.840.113549.1.9.16.2.47'],
        certificates: 2,
        stamped: true,
        subFilter: true,
        wholeFile: true,
      });
      expect(bed.tsa!.requests).toBe(before + 1);
      const [delivery] = await deliveriesOf(id);
      expect(delivery!.pdf_sha256).toBe(sha256(first!));
      expect(delivery!.pdf_key).toMatch(/\.signed-[0-9a-f]{16}\.pdf$/);
      // The evidence keeps the signed bytes.
      const kept = await fs.promises.readFile(path.join(bed.t.config.dataDir, delivery!.pdf_key!));
      expect(sha256(kept)).toBe(delivery!.pdf_sha256);

      await bed.send([id]);
      const [, again] = await bed.mailedPdfs(`borrower${i}@example.com`, 2);
      expect(sha256(again!)).toBe(sha256(first!));
      expect(bed.tsa!.requests).toBe(before + 1);
      const deliveries = await deliveriesOf(id);
      expect(deliveries.at(-1)!.pdf_sha256).toBe(sha256(again!));
      // The campaign's zip holds the same signed file.
      expect((await zipped(id)).map(sha256)).toContain(sha256(first!));
    },
  );
});

it('a TSA that is down: the send waits, retried, and goes out signed when it answers', async () => {
  bed.tsa!.answer('down');
  try {
    const id = await notice(3, 'Meena Iyer');
    const before = bed.tsa!.requests;
    await bed.send([id]);
    // Two tries per signing, and the job tried again at least once: nothing sent meanwhile.
    await until('the job retried', () => bed.tsa!.requests >= before + 4);
    expect(bed.smtp.mails.filter((m) => m.to.includes('borrower3@example.com'))).toHaveLength(0);
    expect((await deliveriesOf(id)).map((d) => d.status)).toEqual(['queued']);
  } finally {
    bed.tsa!.answer('token');
  }
  const [pdf] = await bed.mailedPdfs('borrower3@example.com', 1);
  expect(await bed.pdfsig(pdf!)).toContain('Signature is Valid.');
  expect((await verifyInNode(pdf!)).stamped).toBe(true);
});

describe('signing without a TSA, and a TSA that fails', () => {
  const unsignedPdf = async () => {
    const doc = await PDFDocument.create();
    doc.addPage().drawText('Notice');
    return Buffer.from(await doc.save());
  };
  const signer = (tsaUrl: string | undefined) =>
    new NoticeSigner({
      key: loadSigningKey(bed.p12, PASSWORD),
      reason: 'Legal notice',
      location: '',
      stamp: false,
      tsaUrl,
      timeZone: 'Asia/Kolkata',
    });

  /** The notices the app rendered (Latin and Hindi), unsigned, as kept beside their signed files. */
  const renderedNotices = () =>
    fs
      .readdirSync(path.join(bed.t.config.dataDir, 'pdfs'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.includes('.signed-'))
      .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name)));

  it('without TSA_URL or stamp: PAdES B on the rendered notices and a pdf-lib file, valid, no timestamp', async () => {
    const notices = renderedNotices();
    expect(notices.length).toBeGreaterThanOrEqual(2);
    for (const pdf of [...notices, await unsignedPdf()]) {
      const signed = await signer(undefined).sign(pdf);
      expect(await bed.pdfsig(signed)).toContain('Signature is Valid.');
      expect(await verifyInNode(signed)).toMatchObject({ ok: true, stamped: undefined, certificates: 2 });
    }
    // The placeholder written on the renderer's files is, byte for byte, @signpdf/placeholder-plain's.
    const options = {
      reason: 'Legal notice',
      contactInfo: '',
      name: 'Advocate Asha Rao',
      location: 'Mumbai',
      signingTime: new Date(),
      signatureLength: 4096,
      subFilter: SUBFILTER_ETSI_CADES_DETACHED,
      appName: 'Notice Desk',
    };
    for (const pdf of notices)
      expect(
        appendSignaturePlaceholder(pdf, options)?.equals(plainAddPlaceholder({ ...options, pdfBuffer: pdf })),
      ).toBe(true);
    // A rendered notice's bytes stay as they were, the signature appended after them.
    const [first] = notices;
    expect((await signer(undefined).sign(first!)).subarray(0, first!.length).equals(first!)).toBe(true);
  });

  it.each([
    ['refuses connections', async () => `http://127.0.0.1:1/tsa`],
    ['answers garbage', async () => (await bed.pki.startTsa('garbage')).url],
  ])('a TSA that %s: signing is refused as "try later", never unsigned', async (_, url) => {
    await expect(signer(await url()).sign(await unsignedPdf())).rejects.toThrow(SigningUnavailableError);
  });
});

it('two processes signing one version at once hand out the same bytes: the first kept wins', async () => {
  const store = new FolderStore(path.join(bed.dir, 'store'));
  const versions = Array.from({ length: 8 }, (_, i) => Buffer.from(`signed version ${i}`));
  const answers = await Promise.all(
    versions.map((bytes) => store.writeBufferOnce('pdfs/ab/x.signed.pdf', bytes)),
  );
  const kept = await store.readBuffer('pdfs/ab/x.signed.pdf');
  for (const answer of answers) expect(answer.equals(kept)).toBe(true);
  expect(fs.readdirSync(path.join(bed.dir, 'store', 'pdfs', 'ab'))).toEqual(['x.signed.pdf']);
});

describe('bad signing settings stop the start, naming the setting', () => {
  const load = (env: Record<string, string>) => () =>
    loadConfig({ DATA_DIR: bed.dir, NOTICE_SIGNING_PASSWORD: PASSWORD, ...env });
  it.each([
    [
      'expired',
      () => ({
        NOTICE_SIGNING_P12: bed.pki.p12({ start: opensslDate(-30), end: opensslDate(-1) }).toString('base64'),
      }),
      /NOTICE_SIGNING_P12: the certificate expired/,
    ],
    [
      'not yet valid',
      () => ({
        NOTICE_SIGNING_P12: bed.pki.p12({ start: opensslDate(2), end: opensslDate(30) }).toString('base64'),
      }),
      /NOTICE_SIGNING_P12: the certificate is not valid until/,
    ],
    [
      'wrong password',
      () => ({ NOTICE_SIGNING_P12: bed.p12.toString('base64'), NOTICE_SIGNING_PASSWORD: 'wrong' }),
      /NOTICE_SIGNING_PASSWORD: the password does not open/,
    ],
    [
      'key that does not match',
      () => ({ NOTICE_SIGNING_P12: bed.pki.p12({ otherKey: true }).toString('base64') }),
      /NOTICE_SIGNING_P12: no certificate in the file matches its private key/,
    ],
    [
      'garbage base64',
      () => ({ NOTICE_SIGNING_P12: Buffer.from('x'.repeat(200)).toString('base64') }),
      /NOTICE_SIGNING_P12: not a PKCS#12/,
    ],
    [
      'a path that is not there',
      () => ({ NOTICE_SIGNING_P12: '/no/such/signer.p12' }),
      /NOTICE_SIGNING_P12: no file at that path/,
    ],
    [
      'a text file',
      () => ({ NOTICE_SIGNING_P12: path.join(bed.dir, 'ca.cnf') }),
      /NOTICE_SIGNING_P12: not a PKCS#12/,
    ],
    [
      'TSA_URL without a key',
      () => ({ TSA_URL: 'http://127.0.0.1:1/tsa' }),
      /TSA_URL: timestamps sign notices/,
    ],
    [
      'a TSA_URL that is no URL',
      () => ({ NOTICE_SIGNING_P12: bed.p12.toString('base64'), TSA_URL: 'tsa' }),
      /TSA_URL must be a URL/,
    ],
    [
      'a stamp setting other than on or off',
      () => ({ NOTICE_SIGNING_P12: bed.p12.toString('base64'), NOTICE_SIGNING_STAMP: 'yes' }),
      /NOTICE_SIGNING_STAMP must be on or off/,
    ],
  ])('%s', (_, env, message) => {
    expect(load(env())).toThrow(message);
  });

  /** The bed's signing certificate and its CA as PEM, in `order`: the earlier certificate's file. */
  const earlierPem = (order: 'leaf first' | 'CA first' = 'leaf first') => {
    const pems = loadSigningKey(bed.p12, PASSWORD).chain.map((der) => new X509Certificate(der).toString());
    return Buffer.from((order === 'leaf first' ? pems : pems.reverse()).join(''));
  };
  it.each([
    [
      'a file that is not there',
      () => `${bed.write('earlier.pem', earlierPem())}, /no/such/earlier.pem`,
      /NOTICE_SIGNING_EARLIER_CERTS: \/no\/such\/earlier\.pem: no file at that path/,
    ],
    [
      'a file that is not a certificate',
      () => path.join(bed.dir, 'ca.cnf'),
      /NOTICE_SIGNING_EARLIER_CERTS: .*ca\.cnf: not a certificate/,
    ],
    [
      'garbage in a PEM',
      () =>
        bed.write(
          'garbage.pem',
          Buffer.from('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'),
        ),
      /NOTICE_SIGNING_EARLIER_CERTS: .*garbage\.pem: not a certificate/,
    ],
    [
      'garbage base64',
      () => Buffer.from('x'.repeat(200)).toString('base64'),
      /NOTICE_SIGNING_EARLIER_CERTS: item 1 \(base64\): not a certificate/,
    ],
    [
      'a chain that does not verify (the CA before the certificate)',
      () => bed.write('reversed.pem', earlierPem('CA first')),
      /NOTICE_SIGNING_EARLIER_CERTS: .*reversed\.pem: its chain does not verify/,
    ],
  ])('NOTICE_SIGNING_EARLIER_CERTS: %s', (_, value, message) => {
    expect(
      load({ NOTICE_SIGNING_P12: bed.p12.toString('base64'), NOTICE_SIGNING_EARLIER_CERTS: value() }),
    ).toThrow(message);
  });

  it('earlier certificates by path and by base64 both load, each with its chain', () => {
    const pem = earlierPem();
    const file = bed.write('earlier.pem', pem);
    const { signingEarlierChains } = load({
      NOTICE_SIGNING_EARLIER_CERTS: `${file},${pem.toString('base64')}`,
    })();
    const chain = loadSigningKey(bed.p12, PASSWORD).chain;
    expect(signingEarlierChains).toEqual([chain, chain]);
    expect(load({})().signingEarlierChains).toEqual([]);
  });

  it('a P12 by path and by base64 both load', () => {
    const file = bed.write('signer.p12', bed.p12);
    expect(load({ NOTICE_SIGNING_P12: file })().signing?.key.signerName).toBe('Advocate Asha Rao');
    expect(load({ NOTICE_SIGNING_P12: bed.p12.toString('base64') })().signing?.stamp).toBe(false);
  });
});
