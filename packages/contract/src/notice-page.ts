import { z } from 'zod';
import { pagingQuery } from './paging.ts';
import { deliveryChannels } from './sending.ts';

/**
 * The notice page (issue 29): one public page per record, `APP_URL/n/<code>`, whose link every message
 * carries. Before it shows anything personal the visitor answers a check (the last four digits of the
 * registered mobile, or of the loan/account number where the record has none); the answer gives a
 * short-lived token that the other calls take as `Authorization: Bearer <token>`.
 *
 *   GET  /api/public/notices/{code}              NoticePageIntro: what may show before the check
 *   POST /api/public/notices/{code}/verify       { answer } -> NoticePageToken
 *   GET  /api/public/notices/{code}/details      NoticePageDetails (token)
 *   GET  /api/public/notices/{code}/pdf          the very PDF served, same bytes (token)
 *   POST /api/public/notices/{code}/acknowledge  (token) -> NoticePageDone
 *   POST /api/public/notices/{code}/respond      { kind, text } or multipart with `file` (token)
 *   POST /api/public/notices/{code}/payment-link (token): the visitor opened the UPI link
 * Staff:
 *   GET  /api/responses                          NoticeResponseList (disputes, settle and call-back requests)
 *   POST /api/responses/{id}/handled             marks one handled (audited)
 *   POST /api/notice-links/{code}/revoke         ADMIN: the page then says the notice is no longer available
 */

/** A code: 22 characters of base64url, 128 random bits. */
export const noticeCodePattern = /^[A-Za-z0-9_-]{22}$/;
export const noticePagePath = (code: string) => `/n/${code}`;

/** A record's notice page as its staff view shows it: the page's address and whether an ADMIN revoked it. */
export interface RecordNoticeLink {
  code: string;
  path: string;
  revokedAt: string | null;
}

/** `?c=` on a link names the channel whose message carried it (e, w, s, p): kept with each event. */
export const linkChannelCodes = { e: 'email', w: 'whatsapp', s: 'sms', p: 'post' } as const;

export const noticePageEvents = [
  'link_opened',
  'check_failed',
  'locked',
  'verified',
  'pdf_viewed',
  'acknowledged',
  'disputed',
  'settle_requested',
  'callback_requested',
  'payment_link_opened',
] as const;
export type NoticePageEvent = (typeof noticePageEvents)[number];

export const noticeResponseKinds = ['dispute', 'settle', 'callback'] as const;
export type NoticeResponseKind = (typeof noticeResponseKinds)[number];

/** Before the check: nothing about the debt, nothing about the person. */
export interface NoticePageIntro {
  /** false: revoked or no longer kept; the page says "This notice is no longer available". */
  available: boolean;
  sender: { name: string; address: string };
  /** The notice's language (BCP 47, the template's language variant), for the page's words. */
  language: string;
  /** Which number's last four digits are asked. */
  asks: 'mobile' | 'account';
  /** Set while too many wrong answers lock the link (ISO time it opens again). */
  lockedUntil: string | null;
}

export const verifyBody = z.object({
  answer: z
    .string({ error: 'answer must be text: the last four digits.' })
    .trim()
    .regex(/^\d{4}$/, { error: 'answer must be exactly four digits.' }),
});
export type VerifyBody = z.input<typeof verifyBody>;

export interface NoticePageToken {
  token: string;
  /** ISO time the token stops working. */
  expiresAt: string;
}

/** After the check. */
export interface NoticePageDetails {
  customerName: string;
  /** Loan or account number ending, as ••••1234. */
  reference: string;
  /** Amount due in rupees as India writes it (₹1,23,456.00); null when the record has none. */
  amountDue: string | null;
  /** DD-MM-YYYY in TIME_ZONE; null while the record is not served or no period is set. */
  respondBy: string | null;
  /** The served PDF's SHA-256 (hex): the PDF route returns exactly these bytes. */
  pdfSha256: string | null;
  acknowledgedAt: string | null;
  /** The IANA zone the page shows times in (the server's TIME_ZONE, Asia/Kolkata): not the visitor's. */
  timeZone: string;
  /** Absent: no payee is set, so no payment action. */
  upi?: { link: string };
  /** Absent: no number is set. */
  callNumber?: string;
}

export const respondBody = z.object({
  kind: z.enum(noticeResponseKinds, { error: "kind must be 'dispute', 'settle' or 'callback'." }),
  text: z
    .string({ error: 'text must be text.' })
    .max(5000, { error: 'text must be at most 5000 characters.' })
    .default(''),
});
export type RespondBody = z.input<typeof respondBody>;

/** The largest file a dispute takes, and its kinds. */
export const RESPONSE_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const responseFileTypes = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'] as const;

export interface NoticePageDone {
  ok: true;
  /** ISO time the answer was recorded. */
  at: string;
}

export interface NoticeResponseItem {
  id: string;
  kind: NoticeResponseKind;
  text: string;
  createdAt: string;
  recordKind: 'notice' | 'credit-card';
  recordId: string;
  campaignId: string;
  customerName: string;
  reference: string;
  file: { name: string; type: string; sha256: string; url: string } | null;
  handled: { at: string; by: string } | null;
}

export interface NoticeResponseList {
  items: NoticeResponseItem[];
  total: number;
  page: number;
  limit: number;
}

/** Channels a notice page link can come from. */
export const linkChannels = [...deliveryChannels, 'sms'] as const;

// Added by the server side (H1), nothing renamed: the Responses list's query, the code's path
// parameter and the check's `c` query, so the web and the server read them from one place.

/** The Responses list: the one paging schema, newest first. */
export const noticeResponsesQuery = pagingQuery({ limit: 25, limitMax: 100 });
export type NoticeResponsesQuery = z.input<typeof noticeResponsesQuery>;

/** A code in a path; any other text answers 404 as an unknown code does, never a 400 that tells them apart. */
export const noticeCodeParams = z.object({ code: z.string().max(100, { error: 'code is too long.' }) });

/** The page's first call: `c` names the channel whose message carried the link (e, w, s, p). */
export const noticeIntroQuery = z.object({
  c: z
    .enum(Object.keys(linkChannelCodes) as [keyof typeof linkChannelCodes], {
      error: 'c must be one of e, w, s or p (the channel of the message the link came in).',
    })
    .optional(),
});
