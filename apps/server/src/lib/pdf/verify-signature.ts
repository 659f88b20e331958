import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** One of our earlier signing certificates (NOTICE_SIGNING_EARLIER_CERTS), as the answer names it. */
export interface EarlierSigningCertificate {
  /** The subject's common name: the rest of a DSC's subject (postal code, hashed PAN) is personal data. */
  subject: string;
  validFrom: Date;
  validTo: Date;
}

/** What a PDF's signatures say: none, or whether the file is whole and signed by our key, and who signed. */
export interface PdfSignatureCheck {
  signed: boolean;
  /**
   * Every signature in the file verifies over the bytes it covers, covers the whole file but for its
   * own value, and was made by our signing key (or one of our earlier signing certificates) with a
   * certificate that chains to its configured chain.
   */
  valid: boolean;
  signer: string | null;
  reason: string | null;
  /** Valid, and made by an earlier signing certificate rather than the current key: which one. */
  earlier?: EarlierSigningCertificate;
}

const NONE: PdfSignatureCheck = { signed: false, valid: false, signer: null, reason: null };

const CHANGED = 'The file was changed after it was signed.';
/** More than a notice could carry (ours carry one), and few enough to check each at 20 MB. */
const MAX_SIGNATURES = 8;
const MISMATCH = 'The signature does not match the file.';
const NOT_OURS = 'It was not signed with our signing key.';

/** A certificate our notices are signed with, leaf first, parsed once. */
class OurCertificate {
  readonly leaf: pkijs.Certificate;
  readonly leafDer: Buffer;
  readonly leafKey: Buffer;
  /** The chain above the leaf: the certificates a signer's chain must end in. */
  readonly anchors: pkijs.Certificate[];

  constructor(chain: readonly Buffer[]) {
    const [leaf, ...rest] = chain.map((der) => pkijs.Certificate.fromBER(new Uint8Array(der)));
    if (!leaf) throw new Error('The signing chain is empty.');
    this.leaf = leaf;
    this.leafDer = derOf(leaf);
    this.leafKey = keyOf(leaf);
    this.anchors = rest;
  }

  /**
   * The chain as PKI.js builds it: the signer's certificate, the CMS's and our intermediates, up to a
   * certificate of this chain, each signed by the next and valid when the notice was signed.
   */
  chains(signedData: pkijs.SignedData, data: ArrayBuffer, signedAt: Date): Promise<boolean> {
    return signedData
      .verify({ signer: 0, data, checkChain: true, trustedCerts: this.anchors, checkDate: signedAt })
      .catch(() => false);
  }
}

/** A signer's certificate judged: why it is not ours (null: it is), and the earlier certificate it is. */
interface Judgement {
  reason: string | null;
  earlier?: EarlierSigningCertificate;
}

/**
 * Whom a notice's signature must name: the product's own signer (NOTICE_SIGNING_P12's chain, leaf
 * first), or one of its earlier signing certificates (NOTICE_SIGNING_EARLIER_CERTS, each leaf first
 * with its chain), parsed once. A notice we served is signed by one of these; a valid CMS by any other
 * key (a certificate from the same public CA included) is not ours. An earlier certificate counts only
 * as itself, byte for byte: its CA vouches for no other certificate.
 */
export class TrustedSigner {
  private readonly current: OurCertificate | undefined;
  private readonly earlier: OurCertificate[];

  constructor(chain: readonly Buffer[] | undefined, earlierChains: readonly (readonly Buffer[])[] = []) {
    this.current = chain && new OurCertificate(chain);
    this.earlier = earlierChains.map((earlier) => new OurCertificate(earlier));
  }

  /** Whether the CMS's signer (with the certificates the CMS carries) is ours, and by which certificate. */
  async judge(
    signedData: pkijs.SignedData,
    signerCertificate: pkijs.Certificate,
    data: ArrayBuffer,
    signedAt: Date,
  ): Promise<Judgement> {
    const der = derOf(signerCertificate);
    const { current } = this;
    // An earlier certificate of the current key (a renewal that kept the key) still names itself.
    const earlier = current?.leafDer.equals(der)
      ? undefined
      : this.earlier.find((c) => c.leafDer.equals(der));
    if (earlier) return this.judgeEarlier(earlier, signedData, data, signedAt);
    if (!current || !keyOf(signerCertificate).equals(current.leafKey)) return { reason: NOT_OURS };
    // A chain of one (a P12 without its CA): the certificate itself is the whole chain.
    if (current.anchors.length === 0)
      return {
        reason: der.equals(current.leafDer) ? null : 'Its certificate is not our signing certificate.',
      };
    return {
      reason: (await current.chains(signedData, data, signedAt))
        ? null
        : 'Its certificate does not chain to our signing certificate.',
    };
  }

  private async judgeEarlier(
    earlier: OurCertificate,
    signedData: pkijs.SignedData,
    data: ArrayBuffer,
    signedAt: Date,
  ): Promise<Judgement> {
    const { leaf } = earlier;
    const validFrom = leaf.notBefore.value;
    const validTo = leaf.notAfter.value;
    const chained =
      earlier.anchors.length === 0
        ? validFrom <= signedAt && signedAt <= validTo
        : await earlier.chains(signedData, data, signedAt);
    if (!chained)
      return {
        reason:
          'It was signed with an earlier signing certificate of ours, but that certificate and its chain were not valid when it was signed.',
      };
    return { reason: null, earlier: { subject: commonName(leaf) ?? '', validFrom, validTo } };
  }
}

const keyOf = (certificate: pkijs.Certificate) =>
  Buffer.from(certificate.subjectPublicKeyInfo.toSchema().toBER());
const derOf = (certificate: pkijs.Certificate) => Buffer.from(certificate.toSchema().toBER());

/** One signature dictionary's verdict. */
interface Verdict {
  signer: string | null;
  /** null: it verifies, covers the whole file and is ours. */
  problem: 'unreadable' | 'mismatch' | 'changed' | 'notOurs' | null;
  reason: string | null;
  earlier?: EarlierSigningCertificate | undefined;
}

/**
 * Checks every signature dictionary of a PDF (each `/ByteRange`, in every incremental update) with
 * PKI.js, the library signing.ts writes them with. A file is valid only when each CMS verifies over
 * its byte range, each byte range covers the whole file but for its own `/Contents` (so a second
 * signature, or any bytes appended after the signature, reads as changed after signing), and each
 * was made by `trusted` (its current key or an earlier certificate) with an intact chain. With no
 * `trusted` (signing not configured), no signature is ours. The verdict names the signer of the
 * signature it speaks of, and the earlier certificate when that made it.
 */
export async function checkPdfSignature(
  pdf: Buffer,
  trusted: TrustedSigner | undefined,
): Promise<PdfSignatureCheck> {
  const text = pdf.toString('latin1');
  const dictionaries = [...text.matchAll(/\/ByteRange\s*\[([^\]]*)\]/g)];
  if (dictionaries.length === 0) return NONE;
  // Each check hashes up to the whole file: a file of many signatures is refused before any.
  if (dictionaries.length > MAX_SIGNATURES)
    return {
      signed: true,
      valid: false,
      signer: null,
      reason: `It carries ${dictionaries.length} signatures; a notice we served carries one.`,
    };
  const verdicts = await Promise.all(dictionaries.map((match) => verdictOf(pdf, text, match, trusted)));
  // The worst verdict speaks for the file: a broken signature, then a change, then a stranger's key.
  const order = ['unreadable', 'mismatch', 'changed', 'notOurs'] as const;
  for (const problem of order) {
    const found = verdicts.find((verdict) => verdict.problem === problem);
    if (found) return { signed: true, valid: false, signer: found.signer, reason: found.reason };
  }
  const { signer, earlier } = verdicts.at(-1)!;
  return { signed: true, valid: true, signer, reason: null, ...(earlier && { earlier }) };
}

async function verdictOf(
  pdf: Buffer,
  text: string,
  match: RegExpMatchArray,
  trusted: TrustedSigner | undefined,
): Promise<Verdict> {
  const unreadable = (reason: string): Verdict => ({ signer: null, problem: 'unreadable', reason });
  const range = match[1]!.trim().split(/\s+/);
  if (range.length !== 4 || !range.every((n) => /^\d+$/.test(n)))
    return unreadable('Its byte range cannot be read.');
  const [a, b, c, d] = range.map(Number) as [number, number, number, number];
  // The one hole is exactly the signature value, `<hex>`.
  if (a !== 0 || b <= 0 || c <= b + 1 || c + d > pdf.length || pdf[b] !== 0x3c || pdf[c - 1] !== 0x3e)
    return unreadable('Its byte range does not fit the file.');
  const hex = text.slice(b + 1, c - 1);
  if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2 !== 0)
    return unreadable('Its signature value cannot be read.');
  const signedData = cmsOf(hex);
  if (!signedData) return unreadable('Its signature value is not a CMS signature.');
  const data = new Uint8Array(b + d);
  data.set(pdf.subarray(0, b));
  data.set(pdf.subarray(c, c + d), b);
  const { signatureVerified, signerCertificate } = await signedData
    .verify({ signer: 0, data: data.buffer, extendedMode: true })
    // PKI.js throws for a digest that does not match, naming the certificate it found.
    .catch((err: { signerCertificate?: pkijs.Certificate }) => ({
      signatureVerified: false,
      signerCertificate: err.signerCertificate,
    }));
  const signer = commonName(signerCertificate);
  if (!signatureVerified || !signerCertificate) return { signer, problem: 'mismatch', reason: MISMATCH };
  if (c + d !== pdf.length) return { signer, problem: 'changed', reason: CHANGED };
  if (!trusted)
    return { signer, problem: 'notOurs', reason: 'No signing certificate is set here to check it against.' };
  const signedAt = signedAtOf(text, match.index!, b, c) ?? new Date();
  const { reason, earlier } = await trusted.judge(signedData, signerCertificate, data.buffer, signedAt);
  return { signer, problem: reason ? 'notOurs' : null, reason, earlier };
}

/** The SignedData in a signature value; the room left for it is zero-padded, so the DER is read up to its own length. */
function cmsOf(hex: string): pkijs.SignedData | undefined {
  try {
    const parsed = asn1js.fromBER(new Uint8Array(Buffer.from(hex, 'hex')));
    if (parsed.offset === -1) return undefined;
    return new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: parsed.result }).content });
  } catch {
    return undefined;
  }
}

const commonName = (certificate: pkijs.Certificate | null | undefined): string | null =>
  certificate?.subject.typesAndValues.find((tv) => tv.type === '2.5.4.3')?.value.valueBlock.value ?? null;

/**
 * The signing time the signature dictionary states (`/M`), read from its object around the byte
 * range: it lies inside the signed bytes, so it is the signer's own word. The chain is judged at it,
 * so a notice signed while the certificate was valid stays valid after the certificate expires.
 */
function signedAtOf(text: string, at: number, b: number, c: number): Date | undefined {
  const start = text.lastIndexOf(' obj', at);
  const end = text.indexOf('endobj', c);
  if (start < 0 || end < 0) return undefined;
  const dictionary = text.slice(start, b) + text.slice(c, end);
  const m = /\/M\s*\(D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:([Z+-])(\d{2})?'?(\d{2})?'?)?\)/.exec(
    dictionary,
  );
  if (!m) return undefined;
  const [, year, month, day, hour, minute, second, zone, zoneHours, zoneMinutes] = m;
  const offset = zone === '+' || zone === '-' ? `${zone}${zoneHours ?? '00'}:${zoneMinutes ?? '00'}` : 'Z';
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
