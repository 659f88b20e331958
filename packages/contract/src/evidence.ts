import type { ServiceDates } from './service-dates.ts';

/**
 * Evidence bundles: a zip of what was served, when and to whom, for a court.
 *   GET /api/notices/:id/evidence, GET /api/credit-cards/:id/evidence   one record
 *   GET /api/campaigns/:id/evidence                                     every record of a campaign
 * Inside: the exact PDF(s) sent (named by their SHA-256), deliveries.json (every delivery and its
 * status history) and summary.pdf (the same, for people), and manifest.json with each file's SHA-256.
 */
export const evidencePaths = {
  record: (kind: 'notice' | 'credit-card', id: string) =>
    `/api/${kind === 'notice' ? 'notices' : 'credit-cards'}/${encodeURIComponent(id)}/evidence`,
  campaign: (id: string) => `/api/campaigns/${encodeURIComponent(id)}/evidence`,
};

/** One event of a delivery's history; the history lists them in the order they reached us. */
export interface EvidenceDeliveryEvent {
  status: string;
  /** When it happened, by whoever reported it (a provider's own clock, to the second). */
  at: string;
  /** When we recorded it; null for events recorded before 28 Nov 2026. */
  recordedAt: string | null;
  detail: string | null;
  /** Why this event did not change the delivery's status (null: it did, or it was a note). */
  refused: string | null;
  /** Who reported it: the sender, a provider's webhook, or the bounce mailbox. */
  source?: string;
}

/** A scanned AD card or returned envelope of a post delivery, in the bundle beside the notice it proves. */
export interface EvidencePostProof {
  /** Its name in the bundle: post/<sha256>.<pdf|jpeg|png|webp>. */
  file: string;
  sha256: string;
  /** The date the AD card bears (YYYY-MM-DD), when given. */
  deliveredOn: string | null;
  uploadedAt: string;
}

export interface EvidenceDelivery {
  channel: 'email' | 'whatsapp' | 'sms' | 'post';
  recipient: string;
  recipientName: string;
  status: string;
  statusAt: string;
  providerMessageId: string | null;
  error: string | null;
  /** SHA-256 of the PDF that went out, and its name in the bundle. */
  pdfSha256: string | null;
  pdfFile: string | null;
  /** WhatsApp: the media id the PDF went by (null for e-mail, the outbox, and sends before 27 Nov 2026). */
  mediaId: string | null;
  /** When its PDF was made (the kept file's time); null when the file is not in the bundle. */
  renderedAt?: string | null;
  history: EvidenceDeliveryEvent[];
  /** Post: the scans kept for the article (its number is providerMessageId). */
  postProofs?: EvidencePostProof[];
}

export interface EvidenceRecord {
  kind: 'notice' | 'credit-card';
  _id: string;
  custName: string;
  /** Loan No. for notices, Mask No. for credit cards. */
  reference: string;
  deliveries: EvidenceDelivery[];
  /** When the record was served and by what, and the day its response period runs out (null: not yet). */
  service: ServiceDates & { legalBasis: string | null; periodDays: number | null };
  /** What happened on the record's notice page, oldest first: appended, never changed. */
  noticePage: {
    events: EvidenceNoticePageEvent[];
    responses: EvidenceNoticeResponse[];
  };
}

export interface EvidenceNoticePageEvent {
  event: string;
  at: string;
  /** The channel whose message carried the link (null: not known). */
  channel: string | null;
  ip: string | null;
  userAgent: string | null;
  detail: string | null;
}

/** A dispute, a request to settle or a call-back request, as the borrower sent it. */
export interface EvidenceNoticeResponse {
  kind: string;
  text: string;
  at: string;
  file: { name: string | null; type: string | null; sha256: string | null } | null;
  handled: { at: string; by: string | null } | null;
}
