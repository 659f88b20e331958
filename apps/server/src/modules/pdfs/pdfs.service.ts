import { createHash } from 'node:crypto';
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
   * Makes sure each record's PDF is kept, rendering the missing ones; answers each record's storage key,
   * or why its notice cannot print.
   */
  async ensure(kind: RecordKind, rows: Record<string, string>[]): Promise<(string | RefusedPdf)[]> {
    const templates = await pdfTemplatesOf(this.db, kind);
    const info = recordKinds[kind];
    const documents = rows.map((row) => {
      const fields = Object.fromEntries(info.fields.map((f) => [f.key, row[f.key] ?? '']));
      const template = templateFor(kind, fields, templates);
      // The variant is part of the key: two languages never share a kept PDF, whatever their text.
      const hash = createHash('sha256')
        .update(`${template.id}\0${template.language ?? ''}\0`)
        .update(template.html)
        .update('\0')
        .update(JSON.stringify(fields))
        .update(`\0${this.where.locale}\0${this.where.timeZone}`)
        .digest('hex');
      return {
        key: `pdfs/${hash.slice(0, 2)}/${hash}.pdf`,
        template: template.id,
        html: mergeTemplate(template.html, fields, 'html', this.where),
      };
    });
    const unique = [...new Map(documents.map((doc) => [doc.key, doc])).values()];
    const kept = await Promise.all(unique.map((doc) => this.store.exists(doc.key)));
    const waits: Promise<void>[] = [];
    // One batch per template: a batch shares one document, and so one set of styles.
    const byTemplate = new Map<string, typeof unique>();
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
        const outcomes = await this.renderEach(group.map((doc) => doc.html));
        await Promise.all(
          group.map(async (doc, i) => {
            const outcome = outcomes[i]!;
            if (outcome instanceof UnprintableError) this.refuse(doc.key, outcome.message);
            else await this.store.writeBuffer(doc.key, outcome);
          }),
        );
      })();
      const settled = rendering.finally(() => group.forEach((doc) => this.inflight.delete(doc.key)));
      group.forEach((doc) => this.inflight.set(doc.key, settled));
      waits.push(settled);
    }
    await Promise.all(waits);
    return documents.map((doc) => {
      const reason = this.refused.get(doc.key);
      return reason === undefined ? doc.key : { refused: reason };
    });
  }

  private refuse(key: string, reason: string): void {
    // Refusals are rare (emoji in a name); the memory stays bounded all the same.
    if (this.refused.size >= 10_000) this.refused.clear();
    this.refused.set(key, reason);
  }

  /** PDFs for many records of one kind, rendering only those not already kept; a refusal says why. */
  async pdfsFor(kind: RecordKind, rows: Record<string, string>[]): Promise<(RenderedPdf | RefusedPdf)[]> {
    const outcomes = await this.ensure(kind, rows);
    const pdfs = new Map<string, Buffer>();
    const keys = new Set(outcomes.filter((outcome) => typeof outcome === 'string'));
    await Promise.all([...keys].map(async (key) => pdfs.set(key, await this.store.readBuffer(key))));
    return outcomes.map((outcome) => {
      if (typeof outcome !== 'string') return outcome;
      const pdf = pdfs.get(outcome)!;
      return { pdf, key: outcome, sha256: createHash('sha256').update(pdf).digest('hex') };
    });
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
