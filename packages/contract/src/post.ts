import { z } from 'zod';

/**
 * A post delivery's own path (docs/sending.md, "Post"): booked when its article number is given,
 * in transit on the post office's scans, then delivered or returned (with why). Forward only.
 */
export const postStatuses = ['booked', 'in_transit', 'delivered', 'returned'] as const;
export type PostStatus = (typeof postStatuses)[number];

/** Why India Post returned a letter, as its tracking words it. */
export const returnReasons = ['refused', 'left', 'no_such_person', 'insufficient_address', 'other'] as const;
export type ReturnReason = (typeof returnReasons)[number];

export const articleTypes = ['speed_post', 'rpad', 'courier'] as const;
export type ArticleType = (typeof articleTypes)[number];

/** The envelopes a print file's address block is placed for (POST_ENVELOPE). */
export const postEnvelopes = ['DL', 'C5'] as const;
export type PostEnvelope = (typeof postEnvelopes)[number];

/** Label sheets: 2 × 7 (14 a sheet) and 3 × 8 (24 a sheet), both A4. */
export const labelLayouts = ['2x7', '3x8'] as const;
export type LabelLayout = (typeof labelLayouts)[number];

/** UPU S10 weights for the eight serial digits. */
const S10_WEIGHTS = [8, 6, 4, 2, 3, 5, 9, 7] as const;

/** The check digit UPU S10 gives eight serial digits: 11 − (weighted sum mod 11), 10 → 0, 11 → 5. */
export function s10CheckDigit(serial: string): number {
  const sum = [...serial].reduce((total, digit, i) => total + Number(digit) * S10_WEIGHTS[i]!, 0);
  const check = 11 - (sum % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

/** An article number as scanned or typed: spaces and dashes out, upper case. */
export const normalArticleNumber = (text: string) => text.replace(/[\s-]+/g, '').toUpperCase();

/**
 * Why an article number is not a valid Indian UPU S10 number (two letters, eight digits, the check
 * digit, IN), naming the position (1–13) of the mistake; null when it is valid. Give it normalised.
 */
export function s10Problem(number: string, country = 'IN'): string | null {
  const shown = number.length > 20 ? `${number.slice(0, 20)}…` : number;
  if (number.length !== 13)
    return `${shown} is not an article number: it has ${number.length} characters; one has 13 (two letters, nine digits, ${country}), such as EE123456785${country}.`;
  for (let i = 0; i < 13; i++) {
    const char = number[i]!;
    const letter = i < 2 || i > 10;
    if (letter ? !/[A-Z]/.test(char) : !/\d/.test(char))
      return `${number}: character ${i + 1} is '${char}', where ${letter ? 'a letter' : 'a digit'} goes (two letters, nine digits, ${country}).`;
  }
  if (number.slice(11) !== country)
    return `${number}: characters 12–13 are '${number.slice(11)}', the country of the post that booked it; an Indian article ends in ${country}.`;
  const expected = s10CheckDigit(number.slice(2, 10));
  if (Number(number[10]) !== expected)
    return `${number}: the check digit (character 11) is ${number[10]}, but digits 3–10 give ${expected}: one of characters 3–11 was misread or mistyped.`;
  return null;
}

/** One article number given for a record, by its loan number (the booking list's reference). */
export const articleAssignment = z.object({
  loanNo: z.string({ error: 'loanNo must be the loan number of a post record.' }).min(1).max(100),
  articleNumber: z.string({ error: 'articleNumber must be the 13-character article number.' }).max(40),
});
export type ArticleAssignment = z.infer<typeof articleAssignment>;

/** Most article numbers one request takes. */
export const ARTICLES_MAX = 10_000;

export const articleAssignments = z
  .array(articleAssignment, { error: 'Send a list of { loanNo, articleNumber }.' })
  .min(1, { error: 'Send at least one { loanNo, articleNumber }.' })
  .max(ARTICLES_MAX, { error: `Send at most ${ARTICLES_MAX} article numbers at once.` });

/** What an article import did; nothing is written unless every row is accepted. */
export interface ArticlesResult {
  message: string;
  /** Article numbers given to records now (each a post delivery, booked). */
  booked: number;
}

/** A post record of a campaign, in print order (PIN code, then campaign order). */
export interface PostRecord {
  _id: string;
  loanNo: string;
  custName: string;
  /** The address block as printed, line by line. */
  address: string[];
  pinCode: string;
  articleType: ArticleType;
  articleNumber: string | null;
  status: PostStatus | null;
  returnReason: ReturnReason | null;
  /** The proof kept for it (AD card or returned envelope): its SHA-256. */
  proofSha256: string | null;
}

/** A campaign's post: its records in print order and its counts per Mode Of Dispatch channel. */
export interface PostOverview {
  records: PostRecord[];
  /** Records per channel their Mode Of Dispatch names; `unknown`: records with a part no spelling matches. */
  channels: Record<'email' | 'whatsapp' | 'sms' | 'speed_post' | 'rpad' | 'courier' | 'unknown', number>;
  /** Each distinct unknown part and how many records carry it. */
  unknownValues: { value: string; records: number }[];
  envelope: PostEnvelope;
}

/** One tracking event, as a file row or a provider's API gives it (applyTrackingEvents). */
export interface TrackingEvent {
  articleNumber: string;
  /** The event as the post office words it ("Item Delivered", "Addressee Refused"). */
  event: string;
  office: string;
  /** ISO instant. */
  at: string;
}

export interface TrackingResult {
  message: string;
  /** Events that moved a post delivery forward. */
  applied: number;
  /** Kept in the trail without moving (an earlier or the same step). */
  unchanged: number;
  /** Already imported before (the same article, event and time). */
  replayed: number;
  /** Article numbers no post delivery of the caller has (listed, at most 50). */
  unknownArticles: string[];
}

export interface PostProofResult {
  message: string;
  articleNumber: string;
  sha256: string;
  /** The date on the card when given: the record's delivered date. */
  deliveredOn: string | null;
}

/** The API paths of a campaign's post. */
export const postPaths = {
  overview: (campaignId: string) => `/api/campaigns/${encodeURIComponent(campaignId)}/post`,
  print: (campaignId: string) => `/api/campaigns/${encodeURIComponent(campaignId)}/post/print.pdf`,
  labels: (campaignId: string, layout: LabelLayout) =>
    `/api/campaigns/${encodeURIComponent(campaignId)}/post/labels.pdf?layout=${layout}`,
  bookingXlsx: (campaignId: string) => `/api/campaigns/${encodeURIComponent(campaignId)}/post/booking.xlsx`,
  bookingCsv: (campaignId: string) => `/api/campaigns/${encodeURIComponent(campaignId)}/post/booking.csv`,
  articles: (campaignId: string) => `/api/campaigns/${encodeURIComponent(campaignId)}/post/articles`,
  proofs: (campaignId: string) => `/api/campaigns/${encodeURIComponent(campaignId)}/post/proofs`,
  tracking: '/api/post/tracking',
  noticeProof: (recordId: string) => `/api/notices/${encodeURIComponent(recordId)}/post/proof`,
  creditCardProof: (recordId: string) => `/api/credit-cards/${encodeURIComponent(recordId)}/post/proof`,
} as const;
