import type { Readable } from 'node:stream';
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { languageOf } from '@notice-desk/contract/languages';
import type { PreviewRecord, PreviewRecords } from '@notice-desk/contract/template-preview';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { safeFileName } from '../../lib/file-names.ts';
import { INDIAN_DEFAULTS, type DocumentLocale } from '../../lib/indian-format.ts';
import type { PdfLinks } from '../../lib/pdf/links.ts';
import { SigningUnavailableError, type NoticeSigner } from '../../lib/pdf/signing.ts';
import { spellOutUncovered } from '../../lib/pdf/fonts.ts';
import {
  RendererUnavailableError,
  UnprintableError,
  type PdfRenderer,
  type PrintOutcome,
} from '../../lib/pdf/renderer.ts';
import { verifyBlockHtml, verifyLink, withVerifyBlock } from '../../lib/pdf/verify-block.ts';
import { StoredFileMissing, type FileStore } from '../../lib/storage.ts';
import { nowIso } from '../../lib/time.ts';
import { recordKinds } from '../records/record-kinds.ts';
import * as records from '../records/records.repository.ts';
import { SearchService } from '../search/search.service.ts';
import { checkPlaceholders, mergeTemplate } from '../templates/placeholders.ts';
import { defaultsOf, variantFor } from '../templates/language-variants.ts';
import { pdfTemplatesOf, type EmailTemplateRow } from '../templates/templates.repository.ts';
import * as verifyCodes from '../verify/verify.repository.ts';

export interface RenderedPdf {
  /** SHA-256 of the PDF bytes. */
  sha256: string;
  pdf: Buffer;
  /** Where the PDF is kept (storage key). */
  key: string;
}

/** A record's notice: where its PDF is kept, the template it prints with, and its HTML when it must print. */
interface PdfDocument {
  key: string;
  template: string;
  /** Made only when the PDF must be printed: a kept one needs neither the merge nor the QR code. */
  html: () => Promise<string>;
}

/** A record whose notice cannot print as it stands (a character no bundled font covers): why. */
export interface RefusedPdf {
  refused: string;
}

const squash = (text: string) => text.toLowerCase().replace(/\s+/g, '');

/**
 * What a notice's merge does beyond the template, in every kept PDF's key: a change here renders each
 * record anew instead of serving a PDF merged the old way. 2: amounts in words in the variant's language,
 * dates in one format, dates and amounts kept on one line. 4: the verification line in the variant's
 * language.
 */
const MERGE_VERSION = 'merge-4';

/** A new verification code: 128 random bits, 22 base64url characters (the notice page's are alike, but apart). */
export const newVerifyCode = () => randomBytes(16).toString('base64url');

/** The code a template preview prints (no record: the QR and link show where they will stand). */
const PREVIEW_CODE = 'preview-code-sample000';

/**
 * Whether a record prints in the previewed template's language: a variant's records name its language;
 * a default template's (language null) name none, English, or a language the templates do not know.
 */
function inPreviewLanguage(row: records.RecordRow, language: string | null): boolean {
  const code = languageOf(row.language)?.code;
  return language === null ? code === undefined || code === 'en' : code === language;
}

/** How many of the caller's newest records the preview looks through for one in the template's language. */
const PREVIEW_LANGUAGE_SCAN = 500;
/** How many records the preview's picker lists. */
const PREVIEW_RECORDS_LISTED = 10;

/**
 * The template a record prints with: for a credit card, the activity template whose key or name matches
 * its Activity (ignoring case and spaces), else the default; for a notice, the notice template. Then that
 * template's variant in the record's language, where it has one.
 */
export function templateFor(
  kind: RecordKind,
  fields: Record<string, string | undefined>,
  templates: EmailTemplateRow[],
): EmailTemplateRow {
  const defaults = defaultsOf(templates);
  const fallback = defaults.find((t) => t.key === `${kind}-default`) ?? defaults[0];
  if (!fallback) throw new AppError(500, 'NO_TEMPLATE', `There is no PDF template for ${kind} records.`);
  const activity = kind === 'credit-card' && fields.activity ? squash(fields.activity) : undefined;
  const base =
    (activity && defaults.find((t) => squash(t.key) === activity || squash(t.name) === activity)) || fallback;
  return variantFor(base, templates, fields.language);
}

/**
 * Notice PDFs: rendered from the record's template, kept by a hash of (template html, record fields),
 * so an unchanged record renders once and a template edit renders anew.
 */
export class PdfsService {
  constructor(
    private readonly db: Database,
    private readonly store: FileStore,
    private readonly renderer: PdfRenderer,
    private readonly links: PdfLinks,
    /** LOCALE and TIME_ZONE: how formatted placeholders read, so a PDF is kept per locale as well. */
    private readonly where: DocumentLocale = INDIAN_DEFAULTS,
    /** NOTICE_SIGNING_*: when set, every notice handed out is the signed file. */
    private readonly signer?: NoticeSigner,
    /** APP_URL: every notice prints its verification link, APP_URL/v/<code>, and its QR code. */
    private readonly appUrl = 'http://localhost:3000',
  ) {}

  /** The public link a record's notice prints (its code made now when it has none). */
  async verifyLinkOf(kind: RecordKind, row: Record<string, string>): Promise<string> {
    return verifyLink(this.appUrl, (await this.verifyCodesOf(kind, [row])).get(row.id!)!);
  }

  /**
   * Each record's verification code, by record id: read, or made and kept for records that have none
   * (the same code for good, whatever is resent or rendered anew).
   */
  private async verifyCodesOf(
    kind: RecordKind,
    rows: Record<string, string>[],
  ): Promise<Map<string, string>> {
    const ids = [...new Set(rows.map((row) => row.id).filter((id): id is string => !!id))];
    const codes = await verifyCodes.codesOfRecords(this.db, kind, ids);
    const owners = new Map(rows.map((row) => [row.id, row.owner_id ?? '']));
    const missing = ids.filter((id) => !codes.has(id));
    if (missing.length === 0) return codes;
    const createdAt = nowIso();
    const made = new Map<string, verifyCodes.VerifyCodeRow>(
      missing.map((id) => [
        id,
        {
          code: newVerifyCode(),
          owner_id: owners.get(id)!,
          record_kind: kind,
          record_id: id,
          created_at: createdAt,
        },
      ]),
    );
    await verifyCodes.insertCodes(this.db, [...made.values()]);
    // Another render may have given some a code first: the kept one is read back.
    const kept = await verifyCodes.codesOfRecords(this.db, kind, [...made.keys()]);
    for (const [id, code] of kept) codes.set(id, code);
    return codes;
  }

  /** Signings in progress, by the signed file's key: a second caller waits for the first. */
  private readonly signing = new Map<string, Promise<Buffer>>();

  /** Renders in progress, by storage key: a second caller waits for the first instead of rendering again. */
  private readonly inflight = new Map<string, Promise<void>>();
  /** Why a storage key's document cannot print; the same template and fields are refused the same way. */
  private readonly refused = new Map<string, string>();
  /**
   * Storage keys this process wrote or found kept. A key names its content and kept PDFs are never
   * removed, so it stays kept: a send's render-ahead skips asking the disk again for every record of
   * every chunk. Were a file removed behind its back all the same, pdfsFor reads it, finds it gone and
   * renders it anew.
   */
  private readonly kept = new Set<string>();

  /**
   * Makes sure each record's PDF is kept, rendering the missing ones; answers each record's storage key,
   * or why its notice cannot print.
   */
  async ensure(kind: RecordKind, rows: Record<string, string>[]): Promise<(string | RefusedPdf)[]> {
    const documents = await this.documentsFor(kind, rows);
    await this.keep(documents, async (key) => {
      if (this.kept.has(key)) return true;
      const there = await this.store.exists(key);
      if (there) this.markKept(key);
      return there;
    });
    return documents.map((doc) => this.outcomeOf(doc.key));
  }

  /** PDFs for many records of one kind, rendering only those not already kept; a refusal says why. */
  async pdfsFor(kind: RecordKind, rows: Record<string, string>[]): Promise<(RenderedPdf | RefusedPdf)[]> {
    const documents = await this.documentsFor(kind, rows);
    const pdfs = new Map<string, Buffer>();
    // Reading a kept PDF is how it is found kept: one look at the disk, not two.
    const read = async (key: string) => {
      const pdf = await this.store.readBuffer(key).catch((err: unknown) => {
        if (err instanceof StoredFileMissing) return undefined;
        throw err;
      });
      if (!pdf) return false;
      pdfs.set(key, pdf);
      this.markKept(key);
      return true;
    };
    for (const [key, pdf] of await this.keep(documents, read)) pdfs.set(key, pdf);
    // Those another caller was rendering meanwhile are on disk now.
    const waitedFor = new Set(documents.map((doc) => doc.key).filter((key) => !pdfs.has(key)));
    await Promise.all(
      [...waitedFor]
        .filter((key) => !this.refused.has(key))
        .map(async (key) => pdfs.set(key, await this.store.readBuffer(key))),
    );
    const served = this.signer ? await this.signedOf(pdfs, this.signer) : pdfs;
    const hashes = new Map(
      [...served].map(([key, pdf]) => [key, createHash('sha256').update(pdf).digest('hex')]),
    );
    return documents.map((doc) => {
      const reason = this.refused.get(doc.key);
      if (reason !== undefined) return { refused: reason };
      const key = this.signer ? signedKey(doc.key, this.signer) : doc.key;
      return { pdf: served.get(key)!, key, sha256: hashes.get(key)! };
    });
  }

  /**
   * Each PDF's signed file, by its key: signed once per served version (the unsigned file's key and the
   * signing settings name it) and kept, so a resend of an unchanged record sends the same bytes. A TSA
   * that does not answer fails the call (a send's job retries), never hands out the unsigned file.
   */
  private async signedOf(pdfs: Map<string, Buffer>, signer: NoticeSigner): Promise<Map<string, Buffer>> {
    const signed = new Map<string, Buffer>();
    await Promise.all(
      [...pdfs].map(async ([key, pdf]) => {
        const target = signedKey(key, signer);
        let running = this.signing.get(target);
        if (!running) {
          running = (async () => {
            const kept = await this.store.readBuffer(target).catch((err: unknown) => {
              if (err instanceof StoredFileMissing) return undefined;
              throw err;
            });
            if (kept) return kept;
            const made = await signer.sign(pdf).catch((err: Error) => {
              if (err instanceof SigningUnavailableError)
                throw new AppError(503, 'SIGNING_UNAVAILABLE', err.message);
              throw err;
            });
            // Another process may have signed the same version meanwhile: the first kept is the one served.
            return this.store.writeBufferOnce(target, made);
          })().finally(() => this.signing.delete(target));
          this.signing.set(target, running);
        }
        signed.set(target, await running);
      }),
    );
    return signed;
  }

  /**
   * Each record's document: where its PDF is kept, named by a hash of (template, variant, fields, locale),
   * and its merged HTML, made only when it has to be printed.
   */
  private async documentsFor(kind: RecordKind, rows: Record<string, string>[]): Promise<PdfDocument[]> {
    const templates = await pdfTemplatesOf(this.db, kind);
    const info = recordKinds[kind];
    const codes = await this.verifyCodesOf(kind, rows);
    // The template's part of the hash once per template, not once per record.
    const templateHashes = new Map<string, Hash>();
    const hashOf = (template: EmailTemplateRow) => {
      let hash = templateHashes.get(template.id);
      if (!hash) {
        // The variant is part of the key: two languages never share a kept PDF, whatever their text.
        hash = createHash('sha256')
          .update(`${MERGE_VERSION}\0${template.id}\0${template.language ?? ''}\0`)
          .update(template.html)
          .update('\0');
        templateHashes.set(template.id, hash);
      }
      return hash.copy();
    };
    return rows.map((row) => {
      const fields = Object.fromEntries(info.fields.map((f) => [f.key, row[f.key] ?? '']));
      const template = templateFor(kind, fields, templates);
      const code = row.id ? codes.get(row.id) : undefined;
      const hash = hashOf(template)
        .update(JSON.stringify(fields))
        .update(`\0${this.where.locale}\0${this.where.timeZone}`)
        // The printed link is part of the notice: a record's code, or APP_URL, changes its file.
        .update(`\0${code ? verifyLink(this.appUrl, code) : ''}`)
        .digest('hex');
      return {
        key: `pdfs/${hash.slice(0, 2)}/${hash}.pdf`,
        template: template.id,
        html: async () =>
          withVerifyBlock(
            mergeTemplate(template.html, fields, 'html', this.where, {
              language: template.language,
              notice: true,
            }),
            code ? await verifyBlockHtml(verifyLink(this.appUrl, code), template.language) : '',
          ),
      };
    });
  }

  /**
   * Renders the documents not kept (as `isKept` finds), each once even when several callers ask at once,
   * and keeps them; answers the PDFs this call rendered.
   */
  private async keep(
    documents: PdfDocument[],
    isKept: (key: string) => Promise<boolean>,
  ): Promise<Map<string, Buffer>> {
    const unique = [...new Map(documents.map((doc) => [doc.key, doc])).values()].filter(
      (doc) => !this.refused.has(doc.key),
    );
    const kept = await Promise.all(unique.map((doc) => isKept(doc.key)));
    const rendered = new Map<string, Buffer>();
    const waits: Promise<void>[] = [];
    // One batch per template: a batch shares one document, and so one set of styles.
    const byTemplate = new Map<string, PdfDocument[]>();
    unique.forEach((doc, i) => {
      const running = this.inflight.get(doc.key);
      if (kept[i] || this.refused.has(doc.key)) return;
      if (running) return void waits.push(running);
      const group = byTemplate.get(doc.template);
      if (group) group.push(doc);
      else byTemplate.set(doc.template, [doc]);
    });
    for (const group of byTemplate.values()) {
      const rendering = (async () => {
        const outcomes = await this.renderEach(await Promise.all(group.map((doc) => doc.html())));
        await Promise.all(
          group.map(async (doc, i) => {
            const outcome = outcomes[i]!;
            if (outcome instanceof UnprintableError) return this.refuse(doc.key, outcome.message);
            await this.store.writeBuffer(doc.key, outcome);
            this.markKept(doc.key);
            rendered.set(doc.key, outcome);
          }),
        );
      })();
      const settled = rendering.finally(() => group.forEach((doc) => this.inflight.delete(doc.key)));
      group.forEach((doc) => this.inflight.set(doc.key, settled));
      waits.push(settled);
    }
    await Promise.all(waits);
    return rendered;
  }

  private outcomeOf(key: string): string | RefusedPdf {
    const reason = this.refused.get(key);
    return reason === undefined ? key : { refused: reason };
  }

  private markKept(key: string): void {
    // Bounded like the refusals: past it, the disk is asked again.
    if (this.kept.size >= 100_000) this.kept.clear();
    this.kept.add(key);
  }

  private refuse(key: string, reason: string): void {
    // Refusals are rare (emoji in a name); the memory stays bounded all the same.
    if (this.refused.size >= 10_000) this.refused.clear();
    this.refused.set(key, reason);
  }

  /** The PDF a signed link names; 403 when the link was changed or has expired. */
  async pdfForLink(
    kind: RecordKind,
    id: string,
    expires: number,
    signature: string,
  ): Promise<{ pdf: Buffer | Readable; name: string }> {
    if (!this.links.verify(kind, id, expires, signature))
      throw forbidden('This PDF link is invalid or has expired. Reload the list for a fresh link.');
    const info = recordKinds[kind];
    const row = await records.findRecordById(this.db, info, id);
    if (!row) throw notFound(info.label);
    if (!this.signer) {
      // Streamed from the store (a bucket's object is never held whole here); a signed notice is made
      // from the unsigned bytes, so it takes the way below.
      const [key] = await this.ensure(kind, [row]);
      if (typeof key !== 'string') throw unprintable(key!.refused);
      const stream = await this.store.open(key).catch((err: unknown) => {
        if (err instanceof StoredFileMissing) return undefined;
        throw err;
      });
      if (stream) return { pdf: stream, name: pdfFileName(kind, row) };
      // Removed behind this process's back since it was found kept: rendered anew below.
      this.kept.delete(key);
    }
    const rendered = (await this.pdfsFor(kind, [row]))[0]!;
    if ('refused' in rendered) throw unprintable(rendered.refused);
    return { pdf: rendered.pdf, name: pdfFileName(kind, row) };
  }

  /**
   * A template (in `language`: a variant's code, or null for a default) rendered as a notice with one of
   * the caller's records: `recordId` (404 when it is not the caller's record of that kind), else the
   * newest in the template's language, else the newest; with sample values when there is none.
   */
  async preview(
    ownerId: string,
    kind: RecordKind,
    html: string,
    {
      recordId,
      language = null,
    }: { recordId?: string | undefined; language?: string | null | undefined } = {},
  ): Promise<Buffer> {
    checkPlaceholders(kind, html, 'html');
    const info = recordKinds[kind];
    let row: records.RecordRow | undefined;
    if (recordId) {
      row = await records.findRecord(this.db, info, ownerId, recordId);
      if (!row) throw notFound(info.label);
    } else {
      row = (await this.previewCandidates(ownerId, kind, language)).defaultRow;
    }
    const fields = Object.fromEntries(info.fields.map((f) => [f.key, row?.[f.key] || `[${f.label}]`]));
    const merged = withVerifyBlock(
      mergeTemplate(html, fields, 'html', this.where, { language, notice: true }),
      await verifyBlockHtml(verifyLink(this.appUrl, PREVIEW_CODE), language),
    );
    return this.render([merged]).then((pdfs) => pdfs[0]!);
  }

  /**
   * The caller's records a preview of a template in `language` may print with: those `q` finds (name,
   * loan, mask or reference number), else the newest in the language first, then the newest others.
   */
  async previewRecords(
    ownerId: string,
    kind: RecordKind,
    language: string | null,
    q: string | undefined,
  ): Promise<PreviewRecords> {
    const info = recordKinds[kind];
    const { rows, defaultRow } = await this.previewCandidates(ownerId, kind, language);
    let listed = rows;
    if (q && q.length >= 2) {
      const found = await new SearchService(this.db).search(ownerId, { q, limit: 20 });
      const ids = found.results.filter((result) => result.kind === kind).map((result) => result._id);
      const owned = await Promise.all(ids.map((id) => records.findRecord(this.db, info, ownerId, id)));
      listed = owned.filter((row): row is records.RecordRow => row !== undefined);
    }
    const toPicked = (row: records.RecordRow): PreviewRecord => ({
      _id: row.id,
      reference: (kind === 'notice' ? row.loanNo : row.maskNo) ?? '',
      custName: row.custName ?? '',
      language: row.language ?? '',
      inLanguage: inPreviewLanguage(row, language),
    });
    return {
      records: listed.slice(0, PREVIEW_RECORDS_LISTED).map(toPicked),
      defaultId: defaultRow?.id ?? null,
    };
  }

  /**
   * The newest of the caller's records, those in `language` first (a record with no language, or one
   * no template knows, is in the default's), and the one a preview prints with when none is picked.
   */
  private async previewCandidates(
    ownerId: string,
    kind: RecordKind,
    language: string | null,
  ): Promise<{ rows: records.RecordRow[]; defaultRow: records.RecordRow | undefined }> {
    const rows = await records.listRecords(this.db, recordKinds[kind], ownerId, 0, PREVIEW_LANGUAGE_SCAN);
    const matches = (row: records.RecordRow) => inPreviewLanguage(row, language);
    const sorted = [...rows.filter(matches), ...rows.filter((row) => !matches(row))];
    return { rows: sorted, defaultRow: sorted[0] };
  }

  /**
   * One HTML document of our own (an evidence summary) printed as it stands; a character no bundled font
   * covers (an emoji in a customer's name) is printed as its code point, `[U+1F600]`.
   */
  async printHtml(html: string): Promise<Buffer> {
    return (await this.render([spellOutUncovered(html)]))[0]!;
  }

  private async render(htmls: string[]): Promise<Buffer[]> {
    const outcomes = await this.renderEach(htmls);
    const refused = outcomes.find((outcome) => outcome instanceof UnprintableError);
    if (refused) throw unprintable(refused.message);
    return outcomes as Buffer[];
  }

  private async renderEach(htmls: string[]): Promise<PrintOutcome[]> {
    try {
      return await this.renderer.renderEach(htmls);
    } catch (err) {
      if (err instanceof RendererUnavailableError) throw new AppError(503, 'PDF_UNAVAILABLE', err.message);
      throw err;
    }
  }
}

/** 'pdfs/ab/abcd….signed-<settings>.pdf': the signed file beside the unsigned one it was made from. */
const signedKey = (key: string, signer: NoticeSigner) => key.replace(/\.pdf$/, `.signed-${signer.id}.pdf`);

const unprintable = (reason: string) => new AppError(422, 'NOTICE_UNPRINTABLE', reason);

/** 'LN1234 राजेश शर्मा.pdf': the loan or mask number and the customer, in the name's own script. */
export function pdfFileName(kind: RecordKind, row: Record<string, string | undefined>): string {
  const reference = kind === 'notice' ? row.loanNo : row.maskNo;
  const name = safeFileName(`${reference ?? ''} ${row.custName ?? ''}`, 120);
  return `${name || row.id || 'notice'}.pdf`;
}
