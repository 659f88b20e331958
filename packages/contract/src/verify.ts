import { z } from 'zod';
import type { DeliveryChannel } from './sending.ts';

/** A notice's verification page (issue 30): `APP_URL/v/<code>`, printed on it with its QR code. */
export const verifyPagePath = (code: string) => `/v/${code}`;
export const verifyCodePattern = /^[A-Za-z0-9_-]{22}$/;

/** The largest file the verification page takes: a notice is far smaller. */
export const VERIFY_FILE_MAX_BYTES = 20 * 1024 * 1024;

export const verifyCodeParams = z.object({ code: z.string().max(100, { error: 'code is too long.' }) });

/**
 * One of our earlier signing certificates (NOTICE_SIGNING_EARLIER_CERTS): a DSC lasts one or two
 * years, and a notice signed before its renewal stays ours. Public: the subject's common name only
 * (the rest of a DSC's subject, such as its postal code or the hash of its holder's PAN, stays out).
 */
export interface EarlierCertificate {
  subject: string;
  /** The certificate's validity, as DD-MM-YYYY HH:mm:ss IST (TIME_ZONE). */
  validFrom: string;
  validTo: string;
}

/** Whether a PDF's signature verifies, and who signed it; null when the file is not signed. */
export interface SignatureCheck {
  valid: boolean;
  signer: string | null;
  /** Why it does not verify; null when it does. */
  reason: string | null;
  /**
   * Valid and made by one of our earlier signing certificates, not the current key: which one. Null
   * when signed by the current key, or not valid.
   */
  earlierCertificate: EarlierCertificate | null;
}

/** What the verification page shows of a notice: no personal data beyond the account's last digits. */
export interface VerifyPage {
  issuedBy: string;
  /** 'Loan' or 'Account' (a credit card's mask number). */
  referenceKind: 'Loan' | 'Account';
  /** '••••1234': the loan or account number's last four characters. */
  referenceEnding: string;
  /** When it was first served, as DD-MM-YYYY HH:mm:ss IST (TIME_ZONE); null when not served yet. */
  servedOn: string | null;
  /** The channels it was served by, in the order they first served it. */
  channels: DeliveryChannel[];
  /** The SHA-256 of the file served (the latest served file); null when not served yet. */
  sha256: string | null;
  /** The served file's signature; null when it is not signed (or not served yet). */
  signature: SignatureCheck | null;
}

/** The answer to a dropped file. */
export interface VerifyFileAnswer {
  /** True when the file is, byte for byte, a notice that was served. */
  served: boolean;
  /** "This is the notice served on 12-05-2024 by e-mail and WhatsApp", or "This file is not a notice we served". */
  message: string;
  sha256: string;
  issuedBy: string;
  servedOn: string | null;
  channels: DeliveryChannel[];
  /** The file's own signature; null when it carries none. */
  signature: SignatureCheck | null;
}
