import { createHash, type Hash } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { safeFileName } from '../../lib/file-names.ts';
import { INDIAN_DEFAULTS, type DocumentLocale } from '../../lib/indian-format.ts';
import type { PdfLinks } from '../../lib/pdf/links.ts';
import { spellOutUncovered } from '../../lib/pdf/fonts.ts';
import {
  RendererUnavailableError,
  UnprintableError,
  type PdfRenderer,
  type PrintOutcome,
} from '../../lib/pdf/renderer.ts';
import type { FileStore } from '../../lib/storage.ts';
import { recordKinds } from '../records/record-kinds.ts';
import * as records from '../records/records.repository.ts';
import { checkPlaceholders, mergeTemplate } from '../templates/placeholders.ts';
import { defaultsOf, variantFor } from '../templates/language-variants.ts';
import { pdfTemplatesOf, type EmailTemplateRow } from '../templates/templates.repository.ts';

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
  html: () => string;
}

/** A record whose notice cannot print as it stands (a character no bundled font covers): why. */
export interface RefusedPdf {
  refused: string;
}

const squash = (text: string) => text.toLowerCase().replace(/\s+/g, '');

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
  ) {}

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
      const pdf = await this.store.readBuffer(key).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined;
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
    const hashes = new Map(
      [...pdfs].map(([key, pdf]) => [key, createHash('sha256').update(pdf).digest('hex')]),
    );
    return documents.map((doc) => {
      const reason = this.refused.get(doc.key);
      if (reason !== undefined) return { refused: reason };
      return { pdf: pdfs.get(doc.key)!, key: doc.key, sha256: hashes.get(doc.key)! };
    });
  }

  /**
   * Each record's document: where its PDF is kept, named by a hash of (template, variant, fields, locale),
   * and its merged HTML, made only when it has to be printed.
   */
  private async documentsFor(kind: RecordKind, rows: Record<string, string>[]): Promise<PdfDocument[]> {
    const templates = await pdfTemplatesOf(this.db, kind);
    const info = recordKinds[kind];
    // The template's part of the hash once per template, not once per record.
    const templateHashes = new Map<string, Hash>();
    const hashOf = (template: EmailTemplateRow) => {
      let hash = templateHashes.get(template.id);
      if (!hash) {
        // The variant is part of the key: two languages never share a kept PDF, whatever their text.
        hash = createHash('sha256')
          .update(`${template.id}\0${template.language ?? ''}\0`)
          .update(template.html)
          .update('\0');
        templateHashes.set(template.id, hash);
      }
      return hash.copy();
    };
    return rows.map((row) => {
      const fields = Object.fromEntries(info.fields.map((f) => [f.key, row[f.key] ?? '']));
      const template = templateFor(kind, fields, templates);
      const hash = hashOf(template)
        .update(JSON.stringify(fields))
        .update(`\0${this.where.locale}\0${this.where.timeZone}`)
        .digest('hex');
      return {
        key: `pdfs/${hash.slice(0, 2)}/${hash}.pdf`,
        template: template.id,
        html: () => mergeTemplate(template.html, fields, 'html', this.where),
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
        const outcomes = await this.renderEach(group.map((doc) => doc.html()));
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
  ): Promise<{ pdf: Buffer; name: string }> {
    if (!this.links.verify(kind, id, expires, signature))
      throw forbidden('This PDF link is invalid or has expired. Reload the list for a fresh link.');
    const info = recordKinds[kind];
    const row = await records.findRecordById(this.db, info, id);
    if (!row) throw notFound(info.label);
    const rendered = (await this.pdfsFor(kind, [row]))[0]!;
    if ('refused' in rendered) throw unprintable(rendered.refused);
    return { pdf: rendered.pdf, name: pdfFileName(kind, row) };
  }

  /** A template rendered with one of the caller's records, or with sample values when there is none. */
  async preview(ownerId: string, kind: RecordKind, html: string): Promise<Buffer> {
    checkPlaceholders(kind, html, 'html');
    const info = recordKinds[kind];
    const [row] = await records.listRecords(this.db, info, ownerId, 0, 1);
    const fields = Object.fromEntries(info.fields.map((f) => [f.key, row?.[f.key] || `[${f.label}]`]));
    return this.render([mergeTemplate(html, fields, 'html', this.where)]).then((pdfs) => pdfs[0]!);
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

const unprintable = (reason: string) => new AppError(422, 'NOTICE_UNPRINTABLE', reason);

/** 'LN1234 राजेश शर्मा.pdf': the loan or mask number and the customer, in the name's own script. */
export function pdfFileName(kind: RecordKind, row: Record<string, string | undefined>): string {
  const reference = kind === 'notice' ? row.loanNo : row.maskNo;
  const name = safeFileName(`${reference ?? ''} ${row.custName ?? ''}`, 120);
  return `${name || row.id || 'notice'}.pdf`;
}
