import {
  createHash,
  createPrivateKey,
  randomBytes,
  sign as signBytes,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import { findByteRange, removeTrailingNewLine, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import * as asn1js from 'asn1js';
import forge from 'node-forge';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import * as pkijs from 'pkijs';
import { appendSignaturePlaceholder } from './signature-placeholder.ts';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  timeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
};

/** Why the signing settings cannot be used: `setting` names the variable to fix. */
export class SigningSetupError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
  }
}

/** The timestamp authority did not answer, or answered with something that is not a timestamp: try later. */
export class SigningUnavailableError extends Error {}

/** The signer's key and certificates, out of the PKCS#12 file. */
export interface SigningKey {
  privateKey: KeyObject;
  /** The signing certificate first, then the rest of the chain the file holds (DER). */
  chain: Buffer[];
  /** The signing certificate's common name, for the visible stamp. */
  signerName: string;
}

export interface SigningSettings {
  key: SigningKey;
  reason: string;
  location: string;
  /** A visible stamp on the last page: the signer's name, the date and "Digitally signed". */
  stamp: boolean;
  tsaUrl: string | undefined;
  /** The zone the stamp's date is shown in. */
  timeZone: string;
}

/**
 * Opens a PKCS#12 file (node-forge reads the legacy 3DES/RC2 files DSC tokens export, which WebCrypto
 * cannot) and checks it: a key, a certificate that matches it, valid at `now`.
 */
export function loadSigningKey(p12: Buffer, password: string, now = new Date()): SigningKey {
  let bags: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary')));
    bags = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (err) {
    const message = (err as Error).message;
    if (/invalid password|mac could not be verified/i.test(message))
      throw new SigningSetupError(
        'NOTICE_SIGNING_PASSWORD',
        'the password does not open the NOTICE_SIGNING_P12 file; check the password the certificate was exported with',
      );
    throw new SigningSetupError(
      'NOTICE_SIGNING_P12',
      `not a PKCS#12 (.p12/.pfx) file (${message}); give the path to the file or its base64`,
    );
  }
  const keyBag = [
    ...(bags.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!] ??
      []),
    ...(bags.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!] ?? []),
  ].find((bag) => bag.key);
  if (!keyBag?.key)
    throw new SigningSetupError(
      'NOTICE_SIGNING_P12',
      'the file holds no private key; export it with its key',
    );
  const privateKey = createPrivateKey(forge.pki.privateKeyToPem(keyBag.key));
  const certificates = (bags.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? [])
    .filter((bag) => bag.cert)
    .map((bag) => Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(bag.cert!)).getBytes(), 'binary'));
  const parsed = certificates.map((der) => ({ der, x509: new X509Certificate(der) }));
  const leaf = parsed.find((cert) => cert.x509.checkPrivateKey(privateKey));
  if (!leaf)
    throw new SigningSetupError(
      'NOTICE_SIGNING_P12',
      'no certificate in the file matches its private key; export the key with its own certificate',
    );
  const { validFrom, validTo } = leaf.x509;
  if (new Date(validFrom) > now)
    throw new SigningSetupError('NOTICE_SIGNING_P12', `the certificate is not valid until ${validFrom}`);
  if (new Date(validTo) < now)
    throw new SigningSetupError('NOTICE_SIGNING_P12', `the certificate expired on ${validTo}; renew it`);
  const signerName = /(?:^|\n)CN=([^\n]*)/.exec(leaf.x509.subject)?.[1] ?? leaf.x509.subject;
  return { privateKey, chain: [leaf.der, ...parsed.filter((c) => c !== leaf).map((c) => c.der)], signerName };
}

/**
 * An earlier signing certificate with its chain (NOTICE_SIGNING_EARLIER_CERTS), as DER, leaf first:
 * PEM (the certificate, then its chain) or one DER certificate. Each certificate must be issued and
 * signed by the next; validity is not judged now (an earlier certificate has usually expired) but at
 * each signature's signing time. `name` is how the message names the file.
 */
export function loadEarlierCertificate(file: Buffer, name: string): Buffer[] {
  const setting = 'NOTICE_SIGNING_EARLIER_CERTS';
  const text = file.toString('latin1');
  const pems = [...text.matchAll(/-----BEGIN CERTIFICATE-----([^-]*)-----END CERTIFICATE-----/g)];
  const ders = pems.length > 0 ? pems.map((m) => Buffer.from(m[1]!, 'base64')) : [file];
  let certificates: X509Certificate[];
  try {
    certificates = ders.map((der) => new X509Certificate(der));
  } catch (err) {
    throw new SigningSetupError(
      setting,
      `${name}: not a certificate (${(err as Error).message}); give a PEM file with the earlier signing certificate followed by its chain`,
    );
  }
  certificates.forEach((certificate, i) => {
    const issuer = certificates[i + 1];
    if (issuer && !(certificate.checkIssued(issuer) && certificate.verify(issuer.publicKey)))
      throw new SigningSetupError(
        setting,
        `${name}: its chain does not verify: "${certificate.subject.replace(/\n/g, ', ')}" is not issued by "${issuer.subject.replace(/\n/g, ', ')}"; put the signing certificate first, then each issuer in turn`,
      );
  });
  return certificates.map((certificate) => certificate.raw);
}

/** What a signed file's name carries: a new certificate, reason, place, stamp or TSA signs anew. */
export function signingId(settings: SigningSettings): string {
  const hash = createHash('sha256');
  for (const der of settings.key.chain) hash.update(der);
  hash.update(JSON.stringify([settings.reason, settings.location, settings.stamp, settings.tsaUrl ?? '']));
  return hash.digest('hex').slice(0, 16);
}

const TSA_ATTEMPTS = 2;
const TSA_TIMEOUT_MS = 10_000;
/**
 * Room for the CMS in bytes: the chain, 2 KB for the signature and attributes, and 10 KB for a
 * timestamp token with its TSA's chain. Room no bigger than needed keeps the file small and the
 * signing quick (every byte of it is copied and hex-written). @signpdf's plain placeholder counts
 * bytes (it writes two hex digits a byte); its pdf-lib placeholder counts hex digits.
 */
const signatureRoom = (settings: SigningSettings) =>
  settings.key.chain.reduce((sum, der) => sum + der.length, 2048) + (settings.tsaUrl ? 10_240 : 0);

/**
 * PAdES baseline B (B-T with a TSA) signatures on notice PDFs: @signpdf places the signature dictionary
 * (its placeholder), `fill` writes the byte range and the CMS into it; the CMS is PKI.js's, with content-type, message-digest and
 * signing-certificate-v2 signed and the chain included.
 */
export class NoticeSigner {
  readonly id: string;
  /** The CMS maker, with the chain parsed once: parsing it for every notice cost more than the signature. */
  private readonly cades: CadesSigner;

  constructor(
    private readonly settings: SigningSettings,
    fetchImpl: typeof fetch = fetch,
  ) {
    this.id = signingId(settings);
    const certificates = settings.key.chain.map((der) => pkijs.Certificate.fromBER(new Uint8Array(der)));
    this.cades = new CadesSigner(settings, certificates, fetchImpl);
  }

  async sign(pdf: Buffer, signingTime = new Date()): Promise<Buffer> {
    const { reason, location, stamp } = this.settings;
    const placeholder = {
      reason,
      location,
      contactInfo: '',
      name: this.settings.key.signerName,
      signingTime,
      signatureLength: signatureRoom(this.settings),
      subFilter: SUBFILTER_ETSI_CADES_DETACHED,
      // A PDF name (the library writes it unescaped): a space would end the name and break the
      // dictionary for every reader (poppler: 'Dictionary key must be a name object').
      appName: 'NoticeDesk',
    };
    let prepared: Buffer | undefined;
    if (!stamp) {
      // An incremental update after the render's bytes: no rewrite of the file. It reads classic xref
      // tables (the renderer's); a file with an xref stream goes through pdf-lib below.
      try {
        prepared =
          appendSignaturePlaceholder(pdf, placeholder) ??
          plainAddPlaceholder({ ...placeholder, pdfBuffer: pdf, widgetRect: [0, 0, 0, 0] });
      } catch {
        prepared = undefined;
      }
    }
    if (!prepared) {
      const document = await PDFDocument.load(pdf);
      const page = document.getPages().at(-1)!;
      const rect = stamp ? await this.drawStamp(document, signingTime) : [0, 0, 0, 0];
      pdflibAddPlaceholder({
        ...placeholder,
        signatureLength: 2 * placeholder.signatureLength,
        pdfPage: page,
        widgetRect: rect,
      });
      prepared = Buffer.from(await document.save({ useObjectStreams: false }));
    }
    return this.fill(prepared);
  }

  /**
   * What @signpdf's `SignPdf.sign` does to the placeholder, in the prepared file itself rather than in
   * five copies of it: the byte range written over its placeholder, the two ranges hashed where they
   * lie, the CMS's hex written into /Contents and the rest of the room zeros. The bytes are
   * SignPdf's (signatures.test.ts compares them); the copies were a third of the signing time.
   */
  private async fill(prepared: Buffer): Promise<Buffer> {
    const pdf = removeTrailingNewLine(prepared);
    const { byteRangePlaceholder: placeholder, byteRangePlaceholderPosition: at } = findByteRange(pdf);
    if (placeholder === undefined || at === undefined)
      throw new Error('The PDF has no signature placeholder.');
    const start = pdf.indexOf('<', pdf.indexOf('/Contents ', at + placeholder.length));
    const end = pdf.indexOf('>', start) + 1;
    const byteRange = `/ByteRange [0 ${start} ${end} ${pdf.length - end}]`;
    pdf.write(byteRange.padEnd(placeholder.length, ' '), at, 'latin1');
    const messageDigest = createHash('sha256')
      .update(pdf.subarray(0, start))
      .update(pdf.subarray(end))
      .digest();
    const cms = await this.cades.signDigest(messageDigest);
    const room = end - start - 2;
    if (cms.length * 2 > room)
      throw new Error(`The signature (${cms.length} bytes) is larger than its room (${room / 2}).`);
    const written = pdf.write(cms.toString('hex'), start + 1, 'latin1');
    pdf.fill(0x30, start + 1 + written, end - 1);
    return pdf;
  }

  /**
   * A detached CMS signature (DER) over `data`, as the notices' (the same signed attributes, chain and,
   * with TSA_URL, timestamp): an evidence bundle's manifest.json.p7s. `openssl cms -verify -binary
   * -inform DER -content manifest.json` checks it.
   */
  signDetached(data: Buffer): Promise<Buffer> {
    return this.cades.sign(data);
  }

  /** "Digitally signed by", the name and the date, in the bottom right corner of the last page. */
  private async drawStamp(document: PDFDocument, signingTime: Date): Promise<number[]> {
    const page = document.getPages().at(-1)!;
    const font = await document.embedFont(StandardFonts.Helvetica);
    // The standard font is Latin only: a name in another script shows as its Latin letters, if any.
    const latin = (text: string) => text.replace(/[^\x20-\x7e]/g, '').trim();
    const when = new Intl.DateTimeFormat('en-GB', {
      timeZone: this.settings.timeZone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
      timeZoneName: 'short',
    })
      .format(signingTime)
      .replace(/\//g, '-')
      .replace(',', '');
    const lines = ['Digitally signed', `by ${latin(this.settings.key.signerName) || 'the sender'}`, when];
    const width = 200;
    const height = 44;
    const x = page.getWidth() - width - 36;
    const y = 36;
    page.drawRectangle({ x, y, width, height, borderColor: rgb(0.2, 0.4, 0.2), borderWidth: 0.8 });
    lines.forEach((line, i) =>
      page.drawText(line, {
        x: x + 6,
        y: y + height - 12 - i * 12,
        size: 9,
        font,
        color: rgb(0.1, 0.3, 0.1),
      }),
    );
    return [x, y, x + width, y + height];
  }
}

/** The CMS of a notice's signature, or of a detached signature over a file. */
class CadesSigner {
  constructor(
    private readonly settings: SigningSettings,
    private readonly certificates: pkijs.Certificate[],
    private readonly fetchImpl: typeof fetch,
  ) {}

  /** The CMS with where each notice's digest and signature go, made by the first signature. */
  private template: CmsTemplate | undefined;

  sign(content: Buffer): Promise<Buffer> {
    return this.signDigest(digest(content));
  }

  /** The CMS over content whose SHA-256 is `messageDigest`. */
  async signDigest(messageDigest: Buffer): Promise<Buffer> {
    const { key, tsaUrl } = this.settings;
    const signWith = (toSign: Uint8Array) => signBytes('sha256', toSign, key.privateKey);
    // An RSA signature without a timestamp is the same CMS each time but for the digest and the
    // signature, both of fixed length: built once, then those bytes written in (see decisions/0007).
    if (tsaUrl || key.privateKey.asymmetricKeyType !== 'rsa')
      return this.build(messageDigest, async (toSign) => {
        const signature = signWith(toSign);
        return { signature, token: tsaUrl ? await this.timestamp(tsaUrl, signature) : undefined };
      });
    this.template ??= await cmsTemplate((d, sign) => this.build(d, sign), signWith);
    const { attrs, cms, attrsDigestAt, cmsDigestAt, cmsSignatureAt, signatureLength } = this.template;
    const toSign = Buffer.from(attrs);
    messageDigest.copy(toSign, attrsDigestAt);
    const signature = signWith(toSign);
    if (signature.length !== signatureLength) throw new Error('The RSA signature is not the modulus length.');
    const signed = Buffer.from(cms);
    messageDigest.copy(signed, cmsDigestAt);
    signature.copy(signed, cmsSignatureAt);
    return signed;
  }

  /** The CMS over `messageDigest`; `sign` signs the DER of the signed attributes. */
  private async build(
    messageDigest: Buffer,
    sign: (toSign: Uint8Array) => Promise<{ signature: Buffer; token?: pkijs.ContentInfo | undefined }>,
  ): Promise<Buffer> {
    const { key } = this.settings;
    const { certificates } = this;
    const signer = certificates[0]!;
    const sha256 = () =>
      new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256, algorithmParams: new asn1js.Null() });
    const signedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        new pkijs.Attribute({
          type: OID.contentType,
          values: [new asn1js.ObjectIdentifier({ value: OID.data })],
        }),
        new pkijs.Attribute({
          type: OID.messageDigest,
          values: [new asn1js.OctetString({ valueHex: messageDigest })],
        }),
        new pkijs.Attribute({
          type: OID.signingCertificateV2,
          values: [signingCertificateV2(signer, key.chain[0]!)],
        }),
      ],
    });
    const toSign = new Uint8Array(signedAttrs.toSchema().toBER());
    toSign[0] = 0x31; // signed over as a SET OF (RFC 5652 5.4), kept as [0] IMPLICIT
    const rsa = key.privateKey.asymmetricKeyType === 'rsa';
    const { signature, token } = await sign(toSign);
    const signerInfo = new pkijs.SignerInfo({
      version: 1,
      sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
      digestAlgorithm: sha256(),
      signedAttrs,
      signatureAlgorithm: rsa
        ? new pkijs.AlgorithmIdentifier({
            algorithmId: OID.rsaEncryption,
            algorithmParams: new asn1js.Null(),
          })
        : new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSha256 }),
      signature: new asn1js.OctetString({ valueHex: signature }),
    });
    if (token)
      signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
        type: 1,
        attributes: [new pkijs.Attribute({ type: OID.timeStampToken, values: [token.toSchema()] })],
      });
    const signedData = new pkijs.SignedData({
      version: 1,
      digestAlgorithms: [sha256()],
      encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
      certificates,
      signerInfos: [signerInfo],
    });
    const contentInfo = new pkijs.ContentInfo({
      contentType: OID.signedData,
      content: signedData.toSchema(true),
    });
    return Buffer.from(contentInfo.toSchema().toBER());
  }

  /** An RFC 3161 token over the signature value, asked for twice before the caller is told to wait. */
  private async timestamp(url: string, signature: Buffer): Promise<pkijs.ContentInfo> {
    const imprint = digest(signature);
    const request = new pkijs.TimeStampReq({
      version: 1,
      messageImprint: new pkijs.MessageImprint({
        hashAlgorithm: new pkijs.AlgorithmIdentifier({
          algorithmId: OID.sha256,
          algorithmParams: new asn1js.Null(),
        }),
        hashedMessage: new asn1js.OctetString({ valueHex: imprint }),
      }),
      nonce: new asn1js.Integer({
        valueHex: digest(Buffer.from(`${Date.now()}${Math.random()}`)).subarray(0, 8),
      }),
      certReq: true,
    });
    const body = Buffer.from(request.toSchema().toBER());
    let failure = '';
    for (let attempt = 1; attempt <= TSA_ATTEMPTS; attempt++) {
      try {
        const response = await this.fetchImpl(url, {
          method: 'POST',
          headers: { 'content-type': 'application/timestamp-query' },
          body,
          signal: AbortSignal.timeout(TSA_TIMEOUT_MS),
        });
        if (!response.ok) throw new Error(`it answered HTTP ${response.status}`);
        return tokenOf(Buffer.from(await response.arrayBuffer()), imprint);
      } catch (err) {
        failure = (err as Error).message;
      }
    }
    throw new SigningUnavailableError(
      `The timestamp authority (TSA_URL) gave no timestamp after ${TSA_ATTEMPTS} tries (${failure}); the notices wait and are signed when it answers.`,
    );
  }
}

/** A signer's CMS with where the per-notice bytes go: the digest in the signed attributes and in the CMS, the signature. */
interface CmsTemplate {
  attrs: Buffer;
  cms: Buffer;
  attrsDigestAt: number;
  cmsDigestAt: number;
  cmsSignatureAt: number;
  signatureLength: number;
}

/** Builds the CMS once over random marker bytes and finds where they landed. */
async function cmsTemplate(
  build: (
    messageDigest: Buffer,
    sign: (toSign: Uint8Array) => Promise<{ signature: Buffer }>,
  ) => Promise<Buffer>,
  signWith: (toSign: Uint8Array) => Buffer,
): Promise<CmsTemplate> {
  const digestMarker = randomBytes(32);
  let attrs = Buffer.alloc(0);
  let signatureMarker = Buffer.alloc(0);
  const cms = await build(digestMarker, async (toSign) => {
    attrs = Buffer.from(toSign);
    signatureMarker = randomBytes(signWith(toSign).length);
    return { signature: signatureMarker };
  });
  const at = (haystack: Buffer, needle: Buffer) => {
    const found = haystack.indexOf(needle);
    if (found < 0 || haystack.indexOf(needle, found + 1) >= 0)
      throw new Error('The CMS template is ambiguous.');
    return found;
  };
  return {
    attrs,
    cms,
    attrsDigestAt: at(attrs, digestMarker),
    cmsDigestAt: at(cms, digestMarker),
    cmsSignatureAt: at(cms, signatureMarker),
    signatureLength: signatureMarker.length,
  };
}

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/** The token out of a TSA's answer, when it was granted and stamps `imprint`. */
function tokenOf(answer: Buffer, imprint: Buffer): pkijs.ContentInfo {
  let response: pkijs.TimeStampResp;
  try {
    response = pkijs.TimeStampResp.fromBER(new Uint8Array(answer));
  } catch {
    throw new Error('its answer is not a timestamp response');
  }
  if (response.status.status > 1 || !response.timeStampToken)
    throw new Error(`it refused the request (status ${response.status.status})`);
  const token = response.timeStampToken;
  const tstInfo = pkijs.TSTInfo.fromBER(
    new pkijs.SignedData({ schema: token.content }).encapContentInfo.eContent!.getValue(),
  );
  if (!Buffer.from(tstInfo.messageImprint.hashedMessage.getValue()).equals(imprint))
    throw new Error('its timestamp is for other bytes');
  return token;
}

/** ESS signing-certificate-v2 (RFC 5035): the signing certificate's SHA-256 and its issuer and serial. */
function signingCertificateV2(certificate: pkijs.Certificate, der: Buffer): asn1js.Sequence {
  const issuerSerial = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        // GeneralNames with one directoryName, [4] EXPLICIT Name
        value: [
          new asn1js.Constructed({
            idBlock: { tagClass: 3, tagNumber: 4 },
            value: [certificate.issuer.toSchema()],
          }),
        ],
      }),
      certificate.serialNumber,
    ],
  });
  // hashAlgorithm left out: SHA-256 is its DEFAULT, and DER leaves defaults out.
  const essCertIdV2 = new asn1js.Sequence({
    value: [new asn1js.OctetString({ valueHex: digest(der) }), issuerSerial],
  });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}
