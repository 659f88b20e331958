import { createHash } from 'node:crypto';
import { drainedOrClosed } from '../../lib/drained.ts';
import { PassThrough, Readable } from 'node:stream';
import {
  normalArticleNumber,
  s10Problem,
  type ArticleAssignment,
  type ArticlesResult,
  type LabelLayout,
  type PostEnvelope,
  type PostOverview,
  type PostProofResult,
  type PostRecord,
  type PostStatus,
  type ReturnReason,
  type TrackingEvent,
  type TrackingResult,
} from '@notice-desk/contract/post';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { DeliveryStatus, RecordKind } from '../../db/schema.ts';
import {
  dispatchChannels,
  parseDispatchModes,
  postalChannelOf,
  type PostalChannel,
} from '../../lib/dispatch-modes.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { safeFileName } from '../../lib/file-names.ts';
import { newId } from '../../lib/ids.ts';
import { PdfJoin } from '../../lib/pdf/join.ts';
import type { FileStore } from '../../lib/storage.ts';
import { nowIso, startOfDayIn } from '../../lib/time.ts';
import { neutralizeFormula, xlsxStream } from '../../lib/xlsx/write-sheet.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import * as campaigns from '../campaigns/campaigns.repository.ts';
import { fileTypeOf } from '../notice-pages/notice-pages.service.ts';
import type { PdfsService } from '../pdfs/pdfs.service.ts';
import { recordKinds } from '../records/record-kinds.ts';
import * as records from '../records/records.repository.ts';
import { postFromStart } from '@notice-desk/contract/fallback';
import { carrierHtml, labelsHtml, notPrintedHtml, type Letter } from './post-documents.ts';
import * as post from './post.repository.ts';

export interface PostSettings {
  envelope: PostEnvelope;
  sender: string;
  weightGrams: number;
  timeZone: string;
  /** The clock bookings and proofs are dated by (tests pass their own). */
  now?: () => string;
}

/** A post record: its row, the service its Mode Of Dispatch names, and where the letter goes. */
interface PostLetter {
  row: records.RecordRow;
  /** The row as post reads it: a credit card's address and account number where a notice has its own. */
  fields: Record<string, string | undefined>;
  articleType: PostalChannel;
  pinCode: string;
  letter: Letter;
}

/** Records a print file renders at once: their notices and carrier pages, then they go out. */
const PRINT_CHUNK = 25;
/** Label sheets printed at once. */
const LABEL_SHEETS_AT_ONCE = 20;
const PAGE = 500;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A six-digit Indian PIN code: the Zip Code field, else the last one the address lines hold. */
export function pinCodeOf(fields: Record<string, string | undefined>): string {
  const own = (fields.zipCode ?? '').replace(/\s+/g, '');
  if (/^[1-9]\d{5}$/.test(own)) return own;
  const text = [fields.address, fields.address3, fields.address4, fields.city, fields.state].join(' ');
  return [...text.matchAll(/(?<!\d)([1-9]\d{2}\s?\d{3})(?!\d)/g)].at(-1)?.[1]?.replace(/\s/, '') ?? '';
}

/**
 * A record's fields as post reads them: a notice's as they are; a credit card's Customer Address as the
 * address and its Aan No as the reference a notice's loan number is (booking list, article numbers).
 */
export function postFieldsOf(kind: RecordKind, row: Record<string, string | undefined>) {
  return kind === 'notice' ? row : { ...row, address: row.customerAddress, loanNo: row.aanNo };
}

/** The address block of a notice record, as printed on the carrier page and the label. */
export function letterOf(fields: Record<string, string | undefined>): Letter {
  const pin = pinCodeOf(fields);
  const place = [fields.city, fields.state].filter((part) => part?.trim()).join(', ');
  const lastLine = [place, pin && !place.includes(pin) ? pin : ''].filter(Boolean).join(' - ');
  const lines = [fields.address, fields.address3, fields.address4]
    .map((line) => (line ?? '').trim())
    .filter((line) => line && !lastLine.includes(line));
  if (lastLine) lines.push(lastLine);
  return { name: (fields.custName ?? '').trim(), lines, articleNumber: null, reference: fields.loanNo ?? '' };
}

/** Which post step a tracking event's words are, and why a returned letter came back. */
export function postStepOf(event: string): { status: PostStatus; reason: ReturnReason | null } {
  const words = event.toLowerCase();
  const returned = (reason: ReturnReason) => ({ status: 'returned' as const, reason });
  if (/refus/.test(words)) return returned('refused');
  if (/\bleft\b|door locked|premises locked|addressee absent|not available|out of station/.test(words))
    return returned('left');
  if (/no such|not known|unknown|addressee moved|shifted|deceased|unclaimed/.test(words))
    return returned('no_such_person');
  if (/insufficient|incomplete|wrong address|address not found|incorrect address/.test(words))
    return returned('insufficient_address');
  if (/return|\brts\b|undeliver/.test(words)) return returned('other');
  if (/attempt|out for delivery|not delivered/.test(words)) return { status: 'in_transit', reason: null };
  if (/deliver/.test(words)) return { status: 'delivered', reason: null };
  if (/book/.test(words)) return { status: 'booked', reason: null };
  return { status: 'in_transit', reason: null };
}

const deliveryStatusOf: Record<PostStatus, DeliveryStatus> = {
  booked: 'sent',
  in_transit: 'sent',
  delivered: 'delivered',
  returned: 'bounced',
};

const reasonWords: Record<ReturnReason, string> = {
  refused: 'refused',
  left: 'left (addressee not found at the address)',
  no_such_person: 'no such person',
  insufficient_address: 'insufficient address',
  other: 'returned to sender',
};

/**
 * A date and time as a post office's export writes it, read in TIME_ZONE: ISO with a zone, or
 * DD-MM-YYYY / DD/MM/YYYY / YYYY-MM-DD with an optional HH:mm[:ss]. Undefined when it is none of these.
 */
export function postTimeOf(text: string, timeZone: string): string | undefined {
  const trimmed = text.trim();
  if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(trimmed)) {
    const ms = Date.parse(trimmed);
    return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
  }
  const match =
    /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(trimmed) ??
    /^(\d{4})-(\d{2})-(\d{2})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(trimmed);
  if (!match) return undefined;
  const iso = /^\d{4}/.test(trimmed);
  const [year, month, day] = iso ? [match[1]!, match[2]!, match[3]!] : [match[3]!, match[2]!, match[1]!];
  const [hours, minutes, seconds] = [Number(match[4] ?? 0), Number(match[5] ?? 0), Number(match[6] ?? 0)];
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > 31) return undefined;
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const dayText = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  const check = new Date(`${dayText}T00:00:00Z`);
  if (Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== dayText) return undefined;
  const start = startOfDayIn(dayText, timeZone);
  if (!start) return undefined;
  return new Date(Date.parse(start) + ((hours * 60 + minutes) * 60 + seconds) * 1000).toISOString();
}

/** A CSV line as Excel reads it: every cell quoted, formulas neutralised. */
const csvLine = (cells: readonly string[]) =>
  `${cells.map((cell) => `"${neutralizeFormula(cell).replace(/"/g, '""')}"`).join(',')}\r\n`;

const articleTypeWords: Record<PostalChannel, string> = {
  speed_post: 'Speed Post',
  rpad: 'Registered Post A.D.',
  courier: 'Courier',
};

/**
 * The columns of a booking list (docs/sending.md, "The booking list"): what a bulk customer's booking
 * sheet for India Post gives per article.
 */
export const bookingColumns = [
  'S.No',
  'Article Number',
  'Article Type',
  'Sender',
  'Addressee Name',
  'Address Line 1',
  'Address Line 2',
  'Address Line 3',
  'City',
  'State',
  'PIN Code',
  'Mobile',
  'Weight (g)',
  'Reference (Loan No)',
] as const;

/**
 * Post: a campaign's letters in PIN code order (print file, labels, booking list), their article
 * numbers (S10, once each), tracking events moving each forward, and the AD cards that prove them.
 */
export class PostService {
  private readonly now: () => string;

  constructor(
    private readonly db: Database,
    private readonly pdfs: PdfsService,
    private readonly store: FileStore,
    private readonly settings: PostSettings,
  ) {
    this.now = settings.now ?? nowIso;
  }

  /** 404 unless the campaign is the caller's: checked before an upload is read. */
  async ownedCampaign(ownerId: string, campaignId: string): Promise<void> {
    await this.campaignOf(ownerId, campaignId);
  }

  /** 404 unless the record is the caller's: checked before an upload is read. */
  async ownedRecord(ownerId: string, kind: RecordKind, recordId: string): Promise<void> {
    if (!(await records.findRecord(this.db, recordKinds[kind], ownerId, recordId)))
      throw notFound(recordKinds[kind].label);
  }

  /** The owner's campaign (post goes by a notice's Mode Of Dispatch). */
  private async campaignOf(ownerId: string, campaignId: string) {
    const campaign = await campaigns.findCampaign(this.db, ownerId, campaignId);
    if (!campaign) throw notFound('Campaign');
    return campaign;
  }

  /** Every record of the campaign, a page at a time. */
  private async *pages(ownerId: string, kind: RecordKind, campaignId: string) {
    for (let after = ''; ;) {
      const page = await records.listCampaignRecordsAfter(
        this.db,
        recordKinds[kind],
        ownerId,
        campaignId,
        after,
        PAGE,
      );
      if (page.length > 0) yield page;
      if (page.length < PAGE) return;
      after = page.at(-1)!.id;
    }
  }

  /**
   * The campaign's post records in print order (PIN code, then campaign order; those without a PIN
   * last) as ids, with the channel counts. Only ids and PINs are held, not the records. A record is a
   * post record when its Mode Of Dispatch names post, when the campaign's fallback ladder has post
   * among its channels with no post step (every record, credit cards too), or when a ladder's post step
   * was taken for it (modules/fallback): those go by Speed Post.
   */
  private async postOrder(ownerId: string, campaignId: string) {
    const campaign = await this.campaignOf(ownerId, campaignId);
    const everyRecord = postFromStart(await post.ladderOfCampaign(this.db, campaign.id, campaign.kind));
    const byLadder = new Set(await post.ladderPostRecords(this.db, campaign.id));
    const order: { id: string; pin: string; type: PostalChannel }[] = [];
    const channels = Object.fromEntries(
      [...dispatchChannels, 'unknown'].map((c) => [c, 0]),
    ) as PostOverview['channels'];
    const unknownValues = new Map<string, number>();
    for await (const page of this.pages(ownerId, campaign.kind, campaignId))
      for (const row of page) {
        // A credit card has no Mode Of Dispatch: only the ladder makes it a post record.
        if (campaign.kind === 'notice') {
          const modes = parseDispatchModes(row.modeOfDispatch);
          for (const channel of modes.channels) channels[channel]++;
          if (modes.unknown.length > 0) channels.unknown++;
          for (const value of modes.unknown) unknownValues.set(value, (unknownValues.get(value) ?? 0) + 1);
        }
        const type =
          (campaign.kind === 'notice' ? postalChannelOf(row.modeOfDispatch) : null) ??
          (everyRecord || byLadder.has(row.id) ? 'speed_post' : null);
        if (type) order.push({ id: row.id, pin: pinCodeOf(postFieldsOf(campaign.kind, row)), type });
      }
    // Stable: equal PINs keep campaign order (ids sort by creation).
    order.sort((a, b) => (a.pin || '999999~').localeCompare(b.pin || '999999~') || a.id.localeCompare(b.id));
    return { campaign, order, channels, unknownValues };
  }

  /** The post records in print order, a chunk at a time, with their articles. */
  private async *letters(
    ownerId: string,
    kind: RecordKind,
    order: { id: string; type: PostalChannel }[],
    size: number,
  ): AsyncGenerator<(PostLetter & { article: post.ArticleRow | undefined })[]> {
    for (let i = 0; i < order.length; i += size) {
      const chunk = order.slice(i, i + size);
      const ids = chunk.map((o) => o.id);
      const rows = new Map(
        (await records.findRecordsByIds(this.db, recordKinds[kind], ownerId, ids)).map((r) => [r.id, r]),
      );
      const articles = new Map(
        (await post.articlesForRecords(this.db, kind, ids)).map((a) => [a.record_id, a]),
      );
      const out = [];
      for (const { id, type } of chunk) {
        const row = rows.get(id);
        if (!row) continue; // deleted meanwhile
        const article = articles.get(id);
        const fields = postFieldsOf(kind, row);
        const letter = { ...letterOf(fields), articleNumber: article?.article_number ?? null };
        out.push({ row, fields, articleType: type, pinCode: pinCodeOf(fields), letter, article });
      }
      yield out;
    }
  }

  /** The campaign's post records for the panel and the scan screen, and its counts per channel. */
  async overview(ownerId: string, campaignId: string): Promise<PostOverview> {
    const { campaign, order, channels, unknownValues } = await this.postOrder(ownerId, campaignId);
    const list: PostRecord[] = [];
    for await (const chunk of this.letters(ownerId, campaign.kind, order, PAGE)) {
      const proofs = await post.proofsForDeliveries(
        this.db,
        chunk.flatMap((l) => (l.article ? [l.article.delivery_id] : [])),
      );
      const proofOf = new Map(proofs.map((p) => [p.delivery_id, p.sha256]));
      for (const l of chunk)
        list.push({
          _id: l.row.id,
          loanNo: l.fields.loanNo ?? '',
          custName: l.letter.name,
          address: l.letter.lines,
          pinCode: l.pinCode,
          articleType: l.articleType,
          articleNumber: l.article?.article_number ?? null,
          status: l.article?.post_status ?? null,
          returnReason: l.article?.return_reason ?? null,
          proofSha256: (l.article && proofOf.get(l.article.delivery_id)) ?? null,
        });
    }
    return {
      records: list,
      channels,
      unknownValues: [...unknownValues]
        .map(([value, count]) => ({ value, records: count }))
        .sort((a, b) => b.records - a.records || a.value.localeCompare(b.value)),
      envelope: this.settings.envelope,
    };
  }

  /**
   * The print file: per letter a carrier page (address in the window, article number and barcode) and
   * its blank back, then the notice from a right-hand page, and a blank page after a notice of an odd
   * number of pages, so every letter starts on a right-hand page when printed on both sides. Written as
   * it is made, a chunk of letters at a time.
   */
  async printFile(ownerId: string, campaignId: string): Promise<{ name: string; stream: Readable }> {
    const { campaign, order } = await this.postOrder(ownerId, campaignId);
    const stream = new PassThrough();
    const write = async (chunk: Buffer) => {
      if (!stream.write(chunk)) await drainedOrClosed(stream);
      if (stream.destroyed) throw new Error('the download was cancelled');
    };
    const join = new PdfJoin(write);
    (async () => {
      await join.start();
      const notPrinted: string[] = [];
      for await (const chunk of this.letters(ownerId, campaign.kind, order, PRINT_CHUNK)) {
        const notices = await this.pdfs.pdfsFor(
          campaign.kind,
          chunk.map((l) => l.row),
        );
        const printable = chunk.filter((l, i) => {
          const notice = notices[i]!;
          if ('refused' in notice)
            notPrinted.push(`${l.fields.loanNo ?? ''} ${l.letter.name}: ${notice.refused}`);
          return !('refused' in notice);
        });
        if (printable.length === 0) continue;
        const carriers = await this.pdfs.printHtml(
          carrierHtml(
            printable.map((l) => l.letter),
            this.settings.envelope,
            this.settings.sender,
          ),
        );
        const lib = await import('pdf-lib');
        const carrierDoc = await lib.PDFDocument.load(carriers, { parseSpeed: Infinity });
        if (carrierDoc.getPageCount() !== printable.length)
          throw new Error(`carrier pages: ${carrierDoc.getPageCount()} for ${printable.length} letters`);
        let p = 0;
        for (const [i, l] of chunk.entries()) {
          const notice = notices[i]!;
          if ('refused' in notice) continue;
          await join.addPdf(carrierDoc, [p++]);
          await join.addBlank();
          await join.addPdf(notice.pdf);
          if (join.pageCount % 2 === 1) await join.addBlank();
          void l;
        }
      }
      if (notPrinted.length > 0) await join.addPdf(await this.pdfs.printHtml(notPrintedHtml(notPrinted)));
      if (join.pageCount === 0) await join.addBlank();
      await join.end();
      stream.end();
    })().catch((err: unknown) => stream.destroy(err as Error));
    return { name: `${safeName(campaign.name)} print.pdf`, stream };
  }

  /** Address labels in print order, A4 sheets of 2 × 7 or 3 × 8. */
  async labels(
    ownerId: string,
    campaignId: string,
    layout: LabelLayout,
  ): Promise<{ name: string; stream: Readable }> {
    const { campaign, order } = await this.postOrder(ownerId, campaignId);
    const perSheet = layout === '2x7' ? 14 : 24;
    const stream = new PassThrough();
    const join = new PdfJoin(async (chunk) => {
      if (!stream.write(chunk)) await drainedOrClosed(stream);
      if (stream.destroyed) throw new Error('the download was cancelled');
    });
    (async () => {
      await join.start();
      for await (const chunk of this.letters(ownerId, campaign.kind, order, perSheet * LABEL_SHEETS_AT_ONCE))
        await join.addPdf(
          await this.pdfs.printHtml(
            labelsHtml(
              chunk.map((l) => l.letter),
              layout,
            ),
          ),
        );
      if (join.pageCount === 0) await join.addBlank();
      await join.end();
      stream.end();
    })().catch((err: unknown) => stream.destroy(err as Error));
    return { name: `${safeName(campaign.name)} labels ${layout}.pdf`, stream };
  }

  /** The booking list's rows in print order. */
  private async *bookingRows(ownerId: string, campaignId: string) {
    const { campaign, order } = await this.postOrder(ownerId, campaignId);
    let n = 0;
    for await (const chunk of this.letters(ownerId, campaign.kind, order, PAGE))
      for (const l of chunk) {
        const f = l.fields;
        yield [
          String(++n),
          l.article?.article_number ?? '',
          articleTypeWords[l.articleType],
          this.settings.sender,
          l.letter.name,
          f.address ?? '',
          f.address3 ?? '',
          f.address4 ?? '',
          f.city ?? '',
          f.state ?? '',
          l.pinCode,
          f.custMobileNo ?? '',
          String(this.settings.weightGrams),
          f.loanNo ?? '',
        ];
      }
  }

  async bookingList(
    ownerId: string,
    campaignId: string,
    format: 'xlsx' | 'csv',
  ): Promise<{ name: string; stream: Readable }> {
    const campaign = await this.campaignOf(ownerId, campaignId);
    const rows = this.bookingRows(ownerId, campaignId);
    const name = `${safeName(campaign.name)} booking.${format}`;
    if (format === 'xlsx') return { name, stream: xlsxStream('Booking', [...bookingColumns], rows) };
    return {
      name,
      stream: Readable.from(
        (async function* () {
          // A byte order mark: Excel then reads the file as UTF-8 (names in Indian scripts).
          yield `\ufeff${csvLine(bookingColumns)}`;
          for await (const cells of rows) yield csvLine(cells);
        })(),
      ),
    };
  }

  /**
   * Gives article numbers to post records by loan number: each checked as S10 and unused (in the list
   * and before); every row is refused with its position and why, and nothing is written, if any is
   * wrong. Each record given one becomes a post delivery, booked now: its notice's PDF and hash kept.
   */
  async assignArticles(
    ownerId: string,
    campaignId: string,
    assignments: readonly ArticleAssignment[],
  ): Promise<ArticlesResult> {
    const { campaign, order } = await this.postOrder(ownerId, campaignId);
    const problems: string[] = [];
    const byLoan = new Map<string, { id: string; type: PostalChannel }>();
    const loans = new Map<string, string>();
    const wanted: { index: number; loanNo: string; number: string }[] = [];
    for (const [index, a] of assignments.entries())
      wanted.push({ index, loanNo: a.loanNo.trim(), number: normalArticleNumber(a.articleNumber) });
    // Loan numbers of the post records, a page of records at a time.
    for await (const chunk of this.letters(ownerId, campaign.kind, order, PAGE))
      for (const l of chunk) {
        const loan = (l.fields.loanNo ?? '').trim();
        if (loan && !byLoan.has(loan)) byLoan.set(loan, { id: l.row.id, type: l.articleType });
        loans.set(l.row.id, loan);
      }
    const seen = new Map<string, number>();
    const seenLoans = new Set<string>();
    for (const { index, loanNo, number } of wanted) {
      const where = `Row ${index + 1} (loan ${loanNo || 'none'})`;
      const problem = s10Problem(number);
      if (problem) problems.push(`${where}: ${problem}`);
      else if (seen.has(number))
        problems.push(`${where}: ${number} is given twice (rows ${seen.get(number)! + 1} and ${index + 1}).`);
      if (!byLoan.has(loanNo))
        problems.push(`${where}: no post record of this campaign has that loan number.`);
      else if (seenLoans.has(loanNo))
        problems.push(`${where}: the loan number is given twice; a letter has one article number.`);
      seen.set(number, seen.get(number) ?? index);
      seenLoans.add(loanNo);
    }
    const used = await post.articlesByNumber(this.db, [...seen.keys()]);
    for (const article of used)
      problems.push(`${article.article_number} is used already: it was given to another letter.`);
    const ids = wanted.flatMap((w) => (byLoan.has(w.loanNo) ? [byLoan.get(w.loanNo)!.id] : []));
    const had = await post.articlesForRecords(this.db, campaign.kind, ids);
    for (const article of had)
      problems.push(
        `Loan ${loans.get(article.record_id)}: it has article number ${article.article_number} already.`,
      );
    if (problems.length > 0)
      throw new AppError(
        400,
        'ARTICLES_REFUSED',
        `${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more: nothing was saved)` : ' Nothing was saved.'}`,
        { articles: problems.slice(0, 50).join('\n') },
      );

    const info = recordKinds[campaign.kind];
    const rows = new Map((await records.findRecordsByIds(this.db, info, ownerId, ids)).map((r) => [r.id, r]));
    const at = this.now();
    const bookings: post.Booking[] = [];
    for (let i = 0; i < wanted.length; i += PRINT_CHUNK) {
      const chunk = wanted.slice(i, i + PRINT_CHUNK);
      const chunkRows = chunk.map((w) => rows.get(byLoan.get(w.loanNo)!.id)!);
      // The notice that goes in the envelope: its PDF kept and hashed, as every channel's is.
      const pdfs = await this.pdfs.pdfsFor(campaign.kind, chunkRows);
      for (const [j, w] of chunk.entries()) {
        const row = chunkRows[j]!;
        const pdf = pdfs[j]!;
        if ('refused' in pdf) throw badRequest(`Loan ${w.loanNo}: the notice cannot print (${pdf.refused}).`);
        const letter = letterOf(postFieldsOf(campaign.kind, row));
        const deliveryId = newId();
        const type = byLoan.get(w.loanNo)!.type;
        bookings.push({
          delivery: {
            id: deliveryId,
            owner_id: ownerId,
            record_kind: campaign.kind,
            record_id: row.id,
            campaign_id: campaignId,
            channel: 'post',
            active_key: `${row.id}:post`,
            recipient: [letter.name, ...letter.lines].join(', '),
            recipient_name: letter.name,
            status: 'sent',
            status_at: at,
            provider_message_id: w.number,
            error: null,
            pdf_sha256: pdf.sha256,
            pdf_key: pdf.key,
            created_at: at,
            attempted_at: at,
            record_address_at_send: [letter.name, ...letter.lines].join(', '),
            media_id: null,
          },
          article: {
            delivery_id: deliveryId,
            owner_id: ownerId,
            campaign_id: campaignId,
            record_kind: campaign.kind,
            record_id: row.id,
            article_number: w.number,
            article_type: type,
            post_status: 'booked',
            return_reason: null,
            status_at: at,
            created_at: at,
          },
          detail: `booked: ${articleTypeWords[type]} ${w.number}`,
        });
      }
    }
    try {
      await post.insertBookings(this.db, bookings);
    } catch (err) {
      if (isUniqueViolation(err))
        throw conflict(
          'An article number or a letter was booked by another request meanwhile; nothing was saved. Try again.',
        );
      throw err;
    }
    await appendAudit(this.db, {
      actorId: ownerId,
      action: 'post.articles',
      subjectType: 'campaign',
      subjectId: campaignId,
      summary: `${bookings.length} article number${bookings.length === 1 ? '' : 's'} for campaign ${campaign.name}`,
    });
    return {
      message: `${bookings.length} letter${bookings.length === 1 ? '' : 's'} booked.`,
      booked: bookings.length,
    };
  }

  /**
   * Tracking events from any source (a post office's export, India Post's bulk tracking, later a
   * provider's API): each moves its article forward only, every one kept in the trail once.
   */
  async applyTrackingEvents(ownerId: string, events: readonly TrackingEvent[]): Promise<TrackingResult> {
    const numbers = [...new Set(events.map((e) => normalArticleNumber(e.articleNumber)))];
    const articles = new Map(
      (await post.articlesByNumber(this.db, numbers))
        .filter((a) => a.owner_id === ownerId)
        .map((a) => [a.article_number, a]),
    );
    const result = { applied: 0, unchanged: 0, replayed: 0 };
    const unknown = new Set<string>();
    // In time order: a file lists newest first as often as oldest first.
    const sorted = [...events].sort((a, b) => a.at.localeCompare(b.at));
    for (const event of sorted) {
      const number = normalArticleNumber(event.articleNumber);
      const article = articles.get(number);
      if (!article) {
        unknown.add(number);
        continue;
      }
      const step = postStepOf(event.event);
      const words = step.reason ? `returned: ${reasonWords[step.reason]}` : step.status.replace('_', ' ');
      const outcome = await post.applyPostEvent(this.db, article, {
        postStatus: step.status,
        returnReason: step.reason,
        deliveryStatus: deliveryStatusOf[step.status],
        at: event.at,
        detail: `${words} (${event.event.trim().slice(0, 200)}${event.office.trim() ? `, ${event.office.trim().slice(0, 120)}` : ''})`,
        eventKey: `post:${createHash('sha256').update(`${event.event.trim().toLowerCase()}|${event.office.trim().toLowerCase()}`).digest('hex').slice(0, 16)}@${event.at}`,
      });
      result[outcome]++;
    }
    if (events.length > 0)
      await appendAudit(this.db, {
        actorId: ownerId,
        action: 'post.tracking',
        subjectType: 'campaign',
        subjectId: null,
        summary: `${events.length} tracking events: ${result.applied} moved a letter, ${result.unchanged} kept, ${result.replayed} known`,
      });
    return {
      message: `${result.applied} moved a letter forward, ${result.unchanged} kept in the trail, ${result.replayed} imported before${unknown.size ? `, ${unknown.size} article number${unknown.size === 1 ? '' : 's'} not found` : ''}.`,
      ...result,
      unknownArticles: [...unknown].slice(0, 50),
    };
  }

  /**
   * Keeps a scanned AD card or returned envelope of a record's post article (PDF or image, judged by
   * its bytes), hashed; with the date on the card, the letter is delivered on that day.
   */
  async addProof(
    ownerId: string,
    kind: RecordKind,
    recordId: string,
    file: { name: string; data: Buffer },
    deliveredOn: string | undefined,
  ): Promise<PostProofResult> {
    const row = await records.findRecord(this.db, recordKinds[kind], ownerId, recordId);
    if (!row) throw notFound(recordKinds[kind].label);
    const [article] = await post.articlesForRecords(this.db, kind, [recordId]);
    if (!article)
      throw conflict(
        'This record has no article number yet: give it one (scan or import) before its AD card.',
      );
    return this.keepProof(ownerId, article, file, deliveredOn);
  }

  private async keepProof(
    ownerId: string,
    article: post.ArticleRow,
    file: { name: string; data: Buffer },
    deliveredOn: string | undefined,
  ): Promise<PostProofResult> {
    const type = fileTypeOf(file.data);
    if (!type)
      throw badRequest(
        `${file.name || 'The file'} must be a PDF or a JPEG, PNG or WebP image (judged by its content, not its name).`,
        { file: 'Send the scan as a PDF, JPEG, PNG or WebP.' },
      );
    let deliveredAt: string | undefined;
    if (deliveredOn !== undefined && deliveredOn !== '') {
      deliveredAt = /^\d{4}-\d{2}-\d{2}$/.test(deliveredOn)
        ? startOfDayIn(deliveredOn, this.settings.timeZone)
        : undefined;
      const valid = deliveredAt && new Date(`${deliveredOn}T00:00:00Z`).toISOString().startsWith(deliveredOn);
      if (!valid)
        throw badRequest('deliveredOn must be the date on the AD card, written YYYY-MM-DD.', {
          deliveredOn: 'Write the date as YYYY-MM-DD.',
        });
      if (deliveredAt! > this.now())
        throw badRequest('deliveredOn is in the future: give the date the AD card bears.', {
          deliveredOn: 'The date on the card cannot be after today.',
        });
    }
    const hash = sha256(file.data);
    const ending = type === 'application/pdf' ? 'pdf' : type.slice(6);
    const key = `post-proofs/${hash.slice(0, 2)}/${hash}.${ending}`;
    await this.store.writeBufferOnce(key, file.data);
    const at = this.now();
    await post.insertProof(this.db, {
      id: newId(),
      delivery_id: article.delivery_id,
      owner_id: ownerId,
      file_key: key,
      file_name: safeFileName(file.name, 120) || `${article.article_number}.${ending}`,
      content_type: type,
      sha256: hash,
      delivered_on: deliveredOn || null,
      created_at: at,
    });
    if (deliveredAt)
      await post.applyPostEvent(this.db, article, {
        postStatus: 'delivered',
        returnReason: null,
        deliveryStatus: 'delivered',
        at: deliveredAt,
        detail: `delivered: AD card dated ${deliveredOn!.split('-').reverse().join('-')} (scan SHA-256 ${hash})`,
        eventKey: `post-ad:${hash.slice(0, 16)}`,
      });
    await appendAudit(this.db, {
      actorId: ownerId,
      action: 'post.proof',
      subjectType: article.record_kind,
      subjectId: article.record_id,
      summary: `AD card or returned envelope for article ${article.article_number}`,
    });
    return {
      message: deliveredAt
        ? `Kept; the letter is delivered on ${deliveredOn!.split('-').reverse().join('-')}.`
        : 'Kept.',
      articleNumber: article.article_number,
      sha256: hash,
      deliveredOn: deliveredOn || null,
    };
  }

  /** A zip of scans named by article number (EE123456785IN.pdf), each kept as its letter's proof. */
  async addProofsZip(
    ownerId: string,
    campaignId: string,
    files: readonly { name: string; data: Buffer }[],
  ): Promise<{ message: string; kept: number; notFound: string[] }> {
    await this.campaignOf(ownerId, campaignId);
    const named = files.map((f) => ({
      ...f,
      number: normalArticleNumber(
        f.name
          .split('/')
          .pop()!
          .replace(/\.[^.]*$/, ''),
      ),
    }));
    const articles = new Map(
      (
        await post.articlesByNumber(
          this.db,
          named.map((f) => f.number),
        )
      )
        .filter((a) => a.owner_id === ownerId && a.campaign_id === campaignId)
        .map((a) => [a.article_number, a]),
    );
    const missing = named.filter((f) => !articles.has(f.number)).map((f) => f.name);
    if (missing.length === named.length)
      throw badRequest(
        `No file in the zip is named by an article number of this campaign (such as EE123456785IN.pdf): ${missing.slice(0, 5).join(', ')}.`,
      );
    let kept = 0;
    for (const f of named) {
      const article = articles.get(f.number);
      if (!article) continue;
      await this.keepProof(ownerId, article, f, undefined);
      kept++;
    }
    return {
      message: `${kept} kept${missing.length ? `; ${missing.length} not named by an article number of this campaign` : ''}.`,
      kept,
      notFound: missing.slice(0, 50),
    };
  }
}

const safeName = (name: string): string => safeFileName(name, 100) || 'campaign';
