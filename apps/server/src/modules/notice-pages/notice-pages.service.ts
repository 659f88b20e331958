import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { User } from '@notice-desk/contract/auth';
import { languageOf } from '@notice-desk/contract/languages';
import {
  linkChannelCodes,
  noticePagePath,
  respondBody,
  type NoticePageDetails,
  type NoticePageDone,
  type NoticePageEvent,
  type NoticePageIntro,
  type NoticePageToken,
  type NoticeResponseItem,
  type NoticeResponseKind,
  type NoticeResponseList,
  type noticeResponsesQuery,
  type responseFileTypes,
} from '@notice-desk/contract/notice-page';
import type { Config } from '../../config/env.ts';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { AppError, badRequest, notFound, TooManyRequests, unauthorized } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { asciiDigits, formatInr, parseAmount } from '../../lib/indian-format.ts';
import { StoredFileMissing, type FileStore } from '../../lib/storage.ts';
import { nowIso } from '../../lib/time.ts';
import type { NoticePageTokens } from '../../lib/tokens.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import type { NoticePageLimits } from '../limits/limits.service.ts';
import { recordKinds } from '../records/record-kinds.ts';
import * as records from '../records/records.repository.ts';
import type { ServiceDatesService } from '../service-dates/service-dates.service.ts';
import * as pages from './notice-pages.repository.ts';

/** Wrong answers in a row that lock a link, and for how long. */
export const CHECKS_BEFORE_LOCK = 5;
export const LOCK_MS = 60 * 60 * 1000;
/** How long the check's token opens the page. */
export const TOKEN_TTL_SECONDS = 15 * 60;
const USER_AGENT_MAX = 300;
/** Looked up in place of a record when a code names none, so an unknown code costs what a revoked one does. */
const NO_RECORD = '00000000-0000-7000-8000-000000000000';

/** Who visited: the address (Fastify's request.ip, behind TRUST_PROXY), the browser, the link's channel. */
export interface Visit {
  ip: string;
  userAgent: string | undefined;
  /** `?c=` on the link: e, w, s or p. */
  channel?: keyof typeof linkChannelCodes | undefined;
}

/** A visitor who answered the check: the code their token is bound to, and the channel they came by. */
export interface Opened {
  link: pages.NoticeLinkRow;
  record: records.RecordRow;
  channel: string | null;
}

/** A file a visitor sent with a dispute, read in full (at most RESPONSE_FILE_MAX_BYTES). */
export interface ResponseFile {
  name: string;
  data: Buffer;
}

export interface NoticePagesDeps {
  db: Database;
  store: FileStore;
  tokens: NoticePageTokens;
  limits: NoticePageLimits;
  /** Served on and respond by, by the campaign's legal basis (modules/service-dates). */
  serviceDates: ServiceDatesService;
  settings: Config['noticePage'];
  appUrl: string;
}

type ResponseFileType = (typeof responseFileTypes)[number];

const responseEvents: Record<NoticeResponseKind, NoticePageEvent> = {
  dispute: 'disputed',
  settle: 'settle_requested',
  callback: 'callback_requested',
};

/**
 * The public notice page (issue 29): one code per record, a check before anything personal, a
 * short-lived token for the rest, and every visit kept as an append-only event. Staff read the answers.
 */
export class NoticePagesService {
  constructor(private readonly deps: NoticePagesDeps) {}

  /**
   * Each record's code (by record id), made on its first send and the same on every later one: 128
   * random bits. Two sends at once agree, the unique index keeping the first one's. Three statements
   * at most for the whole batch: those that have one, the new ones written, read back.
   */
  async linksFor(
    kind: RecordKind,
    records: { id: string; owner_id: string; campaign_id: string }[],
  ): Promise<Map<string, string>> {
    const codes = new Map<string, string>();
    const existing = await pages.findLinksOfRecords(
      this.deps.db,
      kind,
      records.map((record) => record.id),
    );
    for (const [id, link] of existing) codes.set(id, link.code);
    const missing = records.filter((record) => !existing.has(record.id));
    if (missing.length === 0) return codes;
    const createdAt = nowIso();
    const written = await pages.insertOrReadLinks(
      this.deps.db,
      kind,
      missing.map((record) => ({
        code: randomBytes(16).toString('base64url'),
        owner_id: record.owner_id,
        record_kind: kind,
        record_id: record.id,
        campaign_id: record.campaign_id,
        created_at: createdAt,
        failed_checks: 0,
        locked_until: null,
        revoked_at: null,
        revoked_by: null,
      })),
    );
    for (const [id, link] of written) codes.set(id, link.code);
    return codes;
  }

  /** The page's address for a code, with the channel whose message carries it. */
  pageUrl(code: string, channel: keyof typeof linkChannelCodes): string {
    return `${this.deps.appUrl}${noticePagePath(code)}?c=${channel}`;
  }

  /** What the page shows before the check. Unknown and revoked codes answer alike, after the same lookups. */
  async intro(code: string, visit: Visit): Promise<NoticePageIntro> {
    await this.deps.limits.visit(code, visit.ip);
    const found = await this.resolve(code);
    const sender = { name: this.deps.settings.firmName, address: this.deps.settings.firmAddress };
    if (!found) return { available: false, sender, language: 'en', asks: 'mobile', lockedUntil: null };
    const { link, record } = found;
    await this.event(link, 'link_opened', visit, channelOf(visit));
    const locked = link.locked_until && link.locked_until > nowIso() ? link.locked_until : null;
    return {
      available: true,
      sender,
      language: languageOf(record.language ?? '')?.code ?? 'en',
      asks: checkOf(link.record_kind, record).asks,
      lockedUntil: locked,
    };
  }

  /** The check: the last four digits asked. A right answer gives a token; five wrong ones lock the link. */
  async verify(code: string, answer: string, visit: Visit): Promise<NoticePageToken> {
    await this.deps.limits.visit(code, visit.ip);
    const found = await this.resolve(code);
    if (!found) throw unavailable();
    const { link, record } = found;
    const channel = channelOf(visit);
    const now = nowIso();
    if (link.locked_until && link.locked_until > now) throw lockedFor(link.locked_until);
    const check = checkOf(link.record_kind, record);
    if (check.digits === null || answer !== check.digits) {
      const counted = await pages.countFailedCheck(
        this.deps.db,
        code,
        CHECKS_BEFORE_LOCK,
        new Date(Date.now() + LOCK_MS).toISOString(),
      );
      // The answer itself is never kept: only that one was wrong.
      await this.event(link, 'check_failed', visit, channel);
      if (counted?.locked_until && counted.locked_until > now) {
        await this.event(link, 'locked', visit, channel);
        throw lockedFor(counted.locked_until);
      }
      const left = CHECKS_BEFORE_LOCK - (counted?.failed_checks ?? 0);
      throw new AppError(
        400,
        'WRONG_ANSWER',
        `Those are not the last four digits of the ${check.asks === 'mobile' ? 'registered mobile number' : 'loan or account number'}. Check the number and try again (${left} ${left === 1 ? 'try' : 'tries'} left before the link locks for an hour).`,
      );
    }
    // A right answer ends a run of wrong ones; with none to end, no write (every visitor answers once).
    if (Number(link.failed_checks) > 0 || link.locked_until)
      await pages.resetFailedChecks(this.deps.db, code);
    await this.event(link, 'verified', visit, channel);
    const token = await this.deps.tokens.sign(code, channel, TOKEN_TTL_SECONDS);
    return { token, expiresAt: new Date(Date.now() + TOKEN_TTL_SECONDS * 1000).toISOString() };
  }

  /** After the check: who, how much, the served file's hash and the actions the settings allow. */
  async details(code: string, bearer: string | undefined, visit: Visit): Promise<NoticePageDetails> {
    const { link, record } = await this.open(code, bearer, visit);
    const [served, dates] = await Promise.all([
      pages.latestServedDelivery(this.deps.db, link.record_kind, record.id),
      this.deps.serviceDates.datesFor(link.record_kind, [{ id: record.id, campaign_id: link.campaign_id }]),
    ]);
    const account = accountNumberOf(link.record_kind, record);
    const amount = amountOf(link.record_kind, record);
    const { upiPayeeVpa, upiPayeeName, firmName, callUsNumber } = this.deps.settings;
    return {
      customerName: record.custName ?? '',
      reference: account ? `••••${account.slice(-4)}` : '',
      amountDue: amount === null ? null : formatInr(amount),
      respondBy: dates.get(record.id)?.shown.respondBy ?? null,
      pdfSha256: served?.pdf_sha256 ?? null,
      acknowledgedAt: (await pages.firstAcknowledged(this.deps.db, record.id)) ?? null,
      timeZone: this.deps.settings.timeZone,
      ...(upiPayeeVpa && {
        upi: {
          link: upiLink({
            vpa: upiPayeeVpa,
            name: upiPayeeName ?? firmName,
            amount,
            note: account,
            reference: code,
          }),
        },
      }),
      ...(callUsNumber && { callNumber: callUsNumber }),
    };
  }

  /** The very file that was served (same bytes, so the same SHA-256), streamed from the store. */
  async pdf(
    code: string,
    bearer: string | undefined,
    visit: Visit,
  ): Promise<{ stream: Readable; name: string; sha256: string | null }> {
    const { link, record, channel } = await this.open(code, bearer, visit);
    const served = await pages.latestServedDelivery(this.deps.db, link.record_kind, record.id);
    if (!served?.pdf_key)
      throw new AppError(
        404,
        'NOT_SERVED',
        'This notice has not been served yet, so there is no PDF to show.',
      );
    const stream = await this.deps.store.open(served.pdf_key).catch((err: unknown) => {
      if (err instanceof StoredFileMissing)
        throw new AppError(404, 'NOT_KEPT', 'The served PDF of this notice is no longer kept.');
      throw err;
    });
    try {
      await this.event(link, 'pdf_viewed', visit, channel, served.pdf_sha256);
    } catch (err) {
      stream.destroy();
      throw err;
    }
    return { stream, name: 'notice.pdf', sha256: served.pdf_sha256 };
  }

  async acknowledge(code: string, bearer: string | undefined, visit: Visit): Promise<NoticePageDone> {
    const { link, channel } = await this.open(code, bearer, visit);
    const at = await this.event(link, 'acknowledged', visit, channel);
    return { ok: true, at };
  }

  /** The visitor opened the UPI link: kept as a sign they meant to pay. */
  async paymentLinkOpened(code: string, bearer: string | undefined, visit: Visit): Promise<NoticePageDone> {
    const { link, channel } = await this.open(code, bearer, visit);
    if (!this.deps.settings.upiPayeeVpa)
      throw new AppError(404, 'NO_PAYMENT', 'This notice page offers no payment link.');
    const at = await this.event(link, 'payment_link_opened', visit, channel);
    return { ok: true, at };
  }

  /**
   * A dispute, a request to settle or to be called back, with a file for a dispute (PDF or image, by
   * its bytes). The text is kept as given: HTML in it is shown as text wherever it appears.
   */
  async respond(opened: Opened, visit: Visit, body: unknown, file?: ResponseFile): Promise<NoticePageDone> {
    const code = opened.link.code;
    const parsed = respondBody.safeParse(body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[0] ?? 'body');
      throw badRequest(issue.message, { [field]: issue.message });
    }
    const { kind, text } = parsed.data;
    if (text.includes('\0')) throw badRequest('text holds a NUL character, which no text may contain.');
    if (kind !== 'dispute' && file) throw badRequest('Only a dispute takes a file; send this without one.');
    const type = file ? fileTypeOf(file.data) : null;
    if (file && file.data.length === 0) throw badRequest('The file is empty; choose the file again.');
    if (file && !type)
      throw new AppError(
        415,
        'UNSUPPORTED_FILE',
        'The file must be a PDF or a JPEG, PNG or WebP image (judged by its content, not its name).',
      );
    const { link, channel } = opened;
    const id = newId();
    const at = nowIso();
    const stored = file && type ? { key: `responses/${link.owner_id}/${id}`, type } : null;
    if (stored && file) await this.deps.store.writeBuffer(stored.key, file.data);
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        await pages.insertResponse(trx, {
          id,
          code,
          owner_id: link.owner_id,
          record_kind: link.record_kind,
          record_id: link.record_id,
          campaign_id: link.campaign_id,
          kind,
          text,
          file_key: stored?.key ?? null,
          file_name: file ? safeFileName(file.name) : null,
          file_type: stored?.type ?? null,
          file_sha256: file ? createHash('sha256').update(file.data).digest('hex') : null,
          created_at: at,
          handled_at: null,
          handled_by: null,
        });
        await pages.appendEvent(trx, eventRow(link, responseEvents[kind], visit, channel, at, id));
      });
    } catch (err) {
      if (stored) await this.deps.store.remove(stored.key);
      throw err;
    }
    return { ok: true, at };
  }

  /**
   * The Responses screen: the answers on the user's own records, newest first. An ADMIN's too: every read
   * of a record checks its owner, ADMINs included (DESIGN, security-ids.test.ts), and answers are a record's.
   */
  async listResponses(user: User, query: z.infer<typeof noticeResponsesQuery>): Promise<NoticeResponseList> {
    const { page, limit } = query;
    const ownerId = user._id;
    const total = await pages.countResponses(this.deps.db, ownerId);
    const offset = (page - 1) * limit;
    const rows = offset >= total ? [] : await pages.listResponses(this.deps.db, ownerId, { offset, limit });
    return { items: rows.map(toResponseItem), total, page, limit };
  }

  /** Marks an answer handled, once, audited with who and when. */
  async markHandled(user: User, id: string): Promise<NoticeResponseItem> {
    const response = await this.ownResponse(user, id);
    const at = nowIso();
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await pages.markHandled(trx, id, user._id, at))) return;
      await appendAudit(trx, {
        actorId: user._id,
        action: 'notice-response.handled',
        subjectType: response.record_kind,
        subjectId: response.record_id,
        summary: `Marked a ${response.kind} request handled`,
        after: { response: id, kind: response.kind },
      });
    });
    return toResponseItem((await pages.findResponseItem(this.deps.db, id))!);
  }

  /** A dispute's file, for its owner. */
  async responseFile(user: User, id: string): Promise<{ stream: Readable; name: string; type: string }> {
    const response = await this.ownResponse(user, id);
    const noFile = () => new AppError(404, 'NOT_FOUND', 'This response has no file.');
    if (!response.file_key) throw noFile();
    const stream = await this.deps.store.open(response.file_key).catch((err: unknown) => {
      throw err instanceof StoredFileMissing ? noFile() : err;
    });
    return {
      stream,
      name: response.file_name ?? 'response',
      type: response.file_type ?? 'application/octet-stream',
    };
  }

  /** ADMIN: the page then says the notice is no longer available. Audited. */
  async revoke(admin: User, code: string): Promise<{ message: string; revokedAt: string }> {
    const link = await pages.findLink(this.deps.db, code);
    if (!link) throw notFound('Notice link');
    if (link.revoked_at)
      return { message: 'This notice link was already revoked.', revokedAt: link.revoked_at };
    const at = nowIso();
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await pages.revokeLink(trx, code, admin._id, at))) return;
      await appendAudit(trx, {
        actorId: admin._id,
        action: 'notice-link.revoke',
        subjectType: link.record_kind,
        subjectId: link.record_id,
        summary: `Revoked the notice page link of a ${link.record_kind} record`,
        after: { record: link.record_id },
      });
    });
    return {
      message: 'The notice link is revoked: its page now says the notice is no longer available.',
      revokedAt: at,
    };
  }

  private async ownResponse(user: User, id: string): Promise<pages.NoticeResponseRow> {
    const response = await pages.findResponse(this.deps.db, id);
    // Another owner's response is not found, as another owner's record is not.
    if (!response || response.owner_id !== user._id) throw notFound('Response');
    return response;
  }

  /**
   * The link and its record, or undefined when the page is not available (no such code, revoked, or
   * the record's evidence gone). The same two lookups run whatever the code, so the time tells nothing.
   */
  private async resolve(
    code: string,
  ): Promise<{ link: pages.NoticeLinkRow; record: records.RecordRow } | undefined> {
    const link = await pages.findLink(this.deps.db, code);
    const info = recordKinds[link?.record_kind ?? 'notice'];
    // An archived record is found too: a served notice stays reachable while its evidence is kept.
    const record = await records.findRecordById(this.deps.db, info, link?.record_id ?? NO_RECORD);
    if (!link || !record || link.revoked_at) return undefined;
    return { link, record };
  }

  /** The token's check, then the page: 401 for a missing, malformed, forged, expired or other code's token. */
  async open(code: string, bearer: string | undefined, visit: Visit): Promise<Opened> {
    await this.deps.limits.visit(code, visit.ip);
    const token = bearer?.startsWith('Bearer ') ? bearer.slice(7).trim() : undefined;
    if (!token)
      throw unauthorized('Answer the check first: send the token it gave as Authorization: Bearer <token>.');
    const claims = await this.deps.tokens.verify(token);
    if (claims === 'expired')
      throw unauthorized('Your access to this notice has expired. Enter the four digits again.');
    if (!claims) throw unauthorized('This token is not valid. Enter the four digits again.');
    if (claims.code !== code)
      throw unauthorized('This token is for another notice. Enter the four digits on this notice’s page.');
    const found = await this.resolve(code);
    if (!found) throw unavailable();
    return { ...found, channel: claims.channel };
  }

  private async event(
    link: pages.NoticeLinkRow,
    event: NoticePageEvent,
    visit: Visit,
    channel: string | null,
    detail: string | null = null,
  ): Promise<string> {
    const at = nowIso();
    await pages.appendEvent(this.deps.db, eventRow(link, event, visit, channel, at, detail));
    return at;
  }
}

function eventRow(
  link: pages.NoticeLinkRow,
  event: NoticePageEvent,
  visit: Visit,
  channel: string | null,
  at: string,
  detail: string | null,
): pages.NoticePageEventRow {
  return {
    id: newId(),
    code: link.code,
    owner_id: link.owner_id,
    record_kind: link.record_kind,
    record_id: link.record_id,
    campaign_id: link.campaign_id,
    event,
    channel,
    at,
    ip: visit.ip || null,
    user_agent: visit.userAgent ? visit.userAgent.slice(0, USER_AGENT_MAX) : null,
    detail,
  };
}

const channelOf = (visit: Visit): string | null => (visit.channel ? linkChannelCodes[visit.channel] : null);

const unavailable = () =>
  new AppError(404, 'NOT_AVAILABLE', 'This notice is no longer available. Check the link in your message.');

const lockedFor = (until: string) =>
  new TooManyRequests(
    'Too many wrong answers: this link is locked.',
    Date.parse(until) - Date.now(),
    'LINK_LOCKED',
  );

const digitsOf = (text: string | undefined) => asciiDigits(text ?? '').replace(/\D/g, '');

/** The loan no. of a notice, the AAN no. of a credit card: the number the notice is about. */
function accountNumberOf(kind: RecordKind, record: records.RecordRow): string {
  return (kind === 'notice' ? record.loanNo : record.aanNo)?.trim() ?? '';
}

function amountOf(kind: RecordKind, record: records.RecordRow): string | null {
  const text = (kind === 'notice' ? record.totalOverdueAmt : record.noticeBalance)?.trim() ?? '';
  return text && parseAmount(text) ? text : null;
}

/**
 * What the check asks: the registered mobile's last four digits (digits only), else those of the
 * account number. A number with fewer than four digits cannot be answered (null).
 */
function checkOf(
  kind: RecordKind,
  record: records.RecordRow,
): { asks: 'mobile' | 'account'; digits: string | null } {
  const mobile = digitsOf(record.custMobileNo);
  if (mobile.length >= 4) return { asks: 'mobile', digits: mobile.slice(-4) };
  const account = digitsOf(accountNumberOf(kind, record));
  return { asks: 'account', digits: account.length >= 4 ? account.slice(-4) : null };
}

/** upi://pay with each value percent-encoded: a name with '&' or in any script stays one value. */
export function upiLink({
  vpa,
  name,
  amount,
  note,
  reference,
}: {
  vpa: string;
  name: string;
  amount: string | null;
  note: string;
  reference: string;
}): string {
  const parsed = amount === null ? undefined : parseAmount(amount);
  const params: [string, string][] = [
    ['pa', vpa],
    ['pn', name],
    ...(parsed && !parsed.negative ? [['am', `${parsed.rupees}.${parsed.paise}`] as [string, string]] : []),
    ['tn', note],
    ['tr', reference],
  ];
  return `upi://pay?${params.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`;
}

/** The file's kind by its first bytes, whatever its name says; null for anything but PDF, JPEG, PNG, WebP. */
export function fileTypeOf(data: Buffer): ResponseFileType | null {
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return null;
}

/** A name to show and download by: no path, no control characters, at most 200 characters. */
const safeFileName = (name: string) =>
  [...(name.split(/[\\/]/).pop() ?? '')]
    .filter((c) => c >= ' ' && c !== '\u007f')
    .join('')
    .slice(0, 200) || 'file';

function toResponseItem(row: pages.ResponseListRow): NoticeResponseItem {
  const account = (row.record_kind === 'notice' ? row.notice_loan_no : row.card_aan_no) ?? '';
  return {
    id: row.id,
    kind: row.kind,
    text: row.text,
    createdAt: row.created_at,
    recordKind: row.record_kind,
    recordId: row.record_id,
    campaignId: row.campaign_id,
    customerName: row.customer_name ?? '',
    reference: account ? `••••${account.slice(-4)}` : '',
    file:
      row.file_key && row.file_type && row.file_sha256
        ? {
            name: row.file_name ?? 'file',
            type: row.file_type,
            sha256: row.file_sha256,
            url: `/api/responses/${row.id}/file`,
          }
        : null,
    handled: row.handled_at
      ? { at: row.handled_at, by: row.handled_by_username ?? row.handled_by ?? '' }
      : null,
  };
}
