import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** What a PDF's signature says: none, or whether its CMS verifies over the bytes it covers, and who signed. */
export interface PdfSignatureCheck {
  signed: boolean;
  /** The CMS verifies with the certificate it carries, and covers the whole file (nothing added after). */
  valid: boolean;
  signer: string | null;
  reason: string | null;
}

const NONE: PdfSignatureCheck = { signed: false, valid: false, signer: null, reason: null };

/**
 * Checks the last signature of a PDF with PKI.js, the CMS library signing.ts writes it with: the bytes
 * of its /ByteRange against the CMS in /Contents (the digest and the signature with the signer's own
 * certificate). Whether that certificate is one to trust is the reader's call; the answer names it.
 */
export async function checkPdfSignature(pdf: Buffer): Promise<PdfSignatureCheck> {
  const text = pdf.toString('latin1');
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const last = ranges.at(-1);
  if (!last) return NONE;
  const [a, b, c, d] = last.slice(1, 5).map(Number) as [number, number, number, number];
  const invalid = (reason: string): PdfSignatureCheck => ({
    signed: true,
    valid: false,
    signer: null,
    reason,
  });
  if (a !== 0 || b <= 0 || c <= b || c + d > pdf.length)
    return invalid('Its byte range does not fit the file.');
  const hex = text.slice(b, c).replace(/^\s*<|>\s*$/g, '');
  if (!/^[0-9a-fA-F]+$/.test(hex)) return invalid('Its signature value cannot be read.');
  const data = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  try {
    // The room left for the signature is zero-padded: the DER is read up to its own length.
    const parsed = asn1js.fromBER(new Uint8Array(Buffer.from(hex, 'hex')));
    if (parsed.offset === -1) return invalid('Its signature value is not a CMS signature.');
    const info = new pkijs.ContentInfo({ schema: parsed.result });
    const signedData = new pkijs.SignedData({ schema: info.content });
    const certificate = signedData.certificates?.find(
      (cert): cert is pkijs.Certificate => cert instanceof pkijs.Certificate,
    );
    const signer =
      certificate?.subject.typesAndValues.find((tv) => tv.type === '2.5.4.3')?.value.valueBlock.value ?? null;
    const verified = await signedData.verify({
      signer: 0,
      data: new Uint8Array(data).buffer,
      checkChain: false,
    });
    if (!verified)
      return { signed: true, valid: false, signer, reason: 'The signature does not match the file.' };
    if (c + d !== pdf.length)
      return { signed: true, valid: false, signer, reason: 'The file was changed after it was signed.' };
    return { signed: true, valid: true, signer, reason: null };
  } catch (err) {
    return invalid(`The signature does not match the file (${(err as Error).message.split('\n')[0]}).`);
  }
}
