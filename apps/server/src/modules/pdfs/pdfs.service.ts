import { createHash } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { INDIAN_DEFAULTS, type DocumentLocale } from '../../lib/indian-format.ts';
import type { PdfLinks } from '../../lib/pdf/links.ts';
import { RendererUnavailableError, type PdfRenderer } from '../../lib/pdf/renderer.ts';
import type { FileStore } from '../../lib/storage.ts';
import { recordKinds } from '../records/record-kinds.ts';
import * as records from '../records/records.repository.ts';
import { checkPlaceholders, fillPlaceholders } from '../templates/placeholders.ts';
import { pdfTemplatesOf, type EmailTemplateRow } from '../templates/templates.repository.ts';

export interface RenderedPdf {
  /** SHA-256 of the PDF bytes. */
  sha256: string;
  pdf: Buffer;
  /** Where the PDF is kept (storage key). */
  key: string;
}

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => escapes[c]!);
const squash = (text: string) => text.toLowerCase().replace(/\s+/g, '');

/**
 * A template with every `{{field}}` replaced by the record's value, HTML-escaped so values stay text;
 * `{{field | date}}` and the like are formatted for `where` (LOCALE, TIME_ZONE).
 */
export function mergeTemplate(
  html: string,
  fields: Record<string, string | undefined>,
  where: DocumentLocale = INDIAN_DEFAULTS,
): string {
  return fillPlaceholders(html, fields, escapeHtml, where);
}

/**
 * The template a record prints with: for a credit card, the activity template whose key or name matches
 * its Activity (ignoring case and spaces), else the default; for a notice, the notice template.
 */
export function templateFor(
  kind: RecordKind,
  fields: Record<string, string | undefined>,
  templates: EmailTemplateRow[],
): EmailTemplateRow {
  const fallback = templates.find((t) => t.key === `${kind}-default`) ?? templates[0];
  if (!fallback) throw new AppError(500, 'NO_TEMPLATE', `There is no PDF template for ${kind} records.`);
  if (kind !== 'credit-card' || !fields.activity) return fallback;
  const activity = squash(fields.activity);
  return templates.find((t) => squash(t.key) === activity || squash(t.name) === activity) ?? fallback;
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

  /** Makes sure each record's PDF is kept, rendering the missing ones; answers each record's storage key. */
  async ensure(kind: RecordKind, rows: Record<string, string>[]): Promise<string[]> {
    const templates = await pdfTemplatesOf(this.db, kind);
    const info = recordKinds[kind];
    const documents = rows.map((row) => {
      const fields = Object.fromEntries(info.fields.map((f) => [f.key, row[f.key] ?? '']));
      const template = templateFor(kind, fields, templates);
      const hash = createHash('sha256')
        .update(template.html)
        .update('\0')
        .update(JSON.stringify(fields))
        .update(`\0${this.where.locale}\0${this.where.timeZone}`)
        .digest('hex');
      return {
        key: `pdfs/${hash.slice(0, 2)}/${hash}.pdf`,
        template: template.id,
        html: mergeTemplate(template.html, fields, this.where),
      };
    });
    const unique = [...new Map(documents.map((doc) => [doc.key, doc])).values()];
    const kept = await Promise.all(unique.map((doc) => this.store.exists(doc.key)));
    const waits: Promise<void>[] = [];
    // One batch per template: a batch shares one document, and so one set of styles.
    const byTemplate = new Map<string, typeof unique>();
    unique.forEach((doc, i) => {
      const running = this.inflight.get(doc.key);
      if (kept[i]) return;
      if (running) return void waits.push(running);
      const group = byTemplate.get(doc.template);
      if (group) group.push(doc);
      else byTemplate.set(doc.template, [doc]);
    });
    for (const group of byTemplate.values()) {
      const rendering = (async () => {
        const pdfs = await this.render(group.map((doc) => doc.html));
        await Promise.all(group.map((doc, i) => this.store.writeBuffer(doc.key, pdfs[i]!)));
      })();
      const settled = rendering.finally(() => group.forEach((doc) => this.inflight.delete(doc.key)));
      group.forEach((doc) => this.inflight.set(doc.key, settled));
      waits.push(settled);
    }
    await Promise.all(waits);
    return documents.map((doc) => doc.key);
  }

  /** PDFs for many records of one kind, rendering only those not already kept. */
  async pdfsFor(kind: RecordKind, rows: Record<string, string>[]): Promise<RenderedPdf[]> {
    const keys = await this.ensure(kind, rows);
    const pdfs = new Map<string, Buffer>();
    await Promise.all([...new Set(keys)].map(async (key) => pdfs.set(key, await this.store.readBuffer(key))));
    return keys.map((key) => {
      const pdf = pdfs.get(key)!;
      return { pdf, key, sha256: createHash('sha256').update(pdf).digest('hex') };
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
    const [rendered] = await this.pdfsFor(kind, [row]);
    return { pdf: rendered!.pdf, name: pdfFileName(kind, row) };
  }

  /** A template rendered with one of the caller's records, or with sample values when there is none. */
  async preview(ownerId: string, kind: RecordKind, html: string): Promise<Buffer> {
    checkPlaceholders(kind, html, 'html');
    const info = recordKinds[kind];
    const [row] = await records.listRecords(this.db, info, ownerId, 0, 1);
    const fields = Object.fromEntries(info.fields.map((f) => [f.key, row?.[f.key] || `[${f.label}]`]));
    return this.render([mergeTemplate(html, fields, this.where)]).then((pdfs) => pdfs[0]!);
  }

  /** One HTML document of our own (an evidence summary) printed as it stands. */
  async printHtml(html: string): Promise<Buffer> {
    return (await this.render([html]))[0]!;
  }

  private async render(htmls: string[]): Promise<Buffer[]> {
    try {
      return await this.renderer.renderMany(htmls);
    } catch (err) {
      if (err instanceof RendererUnavailableError) throw new AppError(503, 'PDF_UNAVAILABLE', err.message);
      throw err;
    }
  }
}

/** 'LN1234 Asha Kumar.pdf': the loan or mask number and the customer, safe as a file name. */
export function pdfFileName(kind: RecordKind, row: Record<string, string | undefined>): string {
  const reference = kind === 'notice' ? row.loanNo : row.maskNo;
  const name = `${reference ?? ''} ${row.custName ?? ''}`
    .replace(/[^\p{L}\p{N} ._-]+/gu, '_')
    .trim()
    .slice(0, 120);
  return `${name || row.id || 'notice'}.pdf`;
}
