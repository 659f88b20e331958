import { createHmac, timingSafeEqual } from 'node:crypto';

/** Where every signed PDF link starts; the list answers carry it as `pdfUrl`. */
export const PDF_URL = '/api/pdf/';
const LIFETIME_S = 12 * 3600;

/**
 * Signed, expiring PDF links: they open in a new tab without a bearer header, so the link itself is
 * the permission. The signature covers the kind, the record and the expiry; any change breaks it.
 */
export class PdfLinks {
  constructor(private readonly secret: string) {}

  /** The part after PDF_URL: `notice/<id>?expires=…&signature=…`. Expiry is rounded up to the hour so links stay stable. */
  linkFor(kind: string, id: string, now = Date.now()): string {
    const expires = Math.ceil((now / 1000 + LIFETIME_S) / 3600) * 3600;
    return `${kind}/${id}?expires=${expires}&signature=${this.sign(kind, id, expires)}`;
  }

  verify(kind: string, id: string, expires: number, signature: string, now = Date.now()): boolean {
    if (!Number.isFinite(expires) || expires * 1000 < now) return false;
    const expected = Buffer.from(this.sign(kind, id, expires));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private sign(kind: string, id: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`pdf:${kind}:${id}:${expires}`).digest('base64url');
  }
}
