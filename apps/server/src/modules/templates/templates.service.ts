import type { PageQuery } from '@notice-desk/contract/paging';
import {
  TEMPLATE_MAX_BYTES,
  type EmailTemplate,
  type EmailTemplateUpdate,
  type TemplateList,
  type WhatsappTemplate,
  type TemplateLanguage,
  type TemplateVariantCreate,
  type WhatsappTemplateUpdate,
} from '@notice-desk/contract/templates';
import { languageOf, languages, type Language } from '@notice-desk/contract/languages';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { RecordKind } from '../../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { nowIso } from '../../lib/time.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import { checkPlaceholders, placeholdersFor } from './placeholders.ts';
import * as templates from './templates.repository.ts';

function checkFixed(row: { key: string; name: string }, body: { key?: string; name?: string }): void {
  if (
    (body.key !== undefined && body.key !== row.key) ||
    (body.name !== undefined && body.name !== row.name)
  ) {
    throw badRequest('The key and name of a template cannot be changed.');
  }
}

type Variants = Awaited<ReturnType<typeof templates.variantsOf>>;

/** The language columns of a row as the API answers them, with a default's variants. */
const languageOfRow = (
  row: { id: string; language: string | null; variant_of: string | null },
  variants: Variants,
): TemplateLanguage => ({
  language: row.language,
  variantOf: row.variant_of,
  variants: variants
    .filter((variant) => variant.variant_of === row.id)
    .map((variant) => ({ _id: variant.id, language: variant.language ?? '', name: variant.name })),
});

const toEmail = (row: templates.EmailTemplateRow, variants: Variants = []): EmailTemplate => ({
  _id: row.id,
  key: row.key,
  name: row.name,
  html: row.html,
  kind: row.kind,
  placeholders: placeholdersFor(row.kind),
  ...languageOfRow(row, variants),
});

const toWhatsapp = (row: templates.WhatsappTemplateRow, variants: Variants = []): WhatsappTemplate => ({
  _id: row.id,
  key: row.key,
  name: row.name,
  value: row.value,
  kind: row.kind,
  placeholders: placeholdersFor(row.kind),
  ...languageOfRow(row, variants),
});

/** The language a new variant is in, or a 400 that lists the languages there are. */
function variantLanguage(value: string): Language {
  const language = languageOf(value);
  if (language) return language;
  const known = languages.map((l) => l.name).join(', ');
  const message = `‘${value.trim().slice(0, 100)}’ is not a language a template can be written in. Choose one of: ${known}.`;
  throw badRequest(message, { language: message });
}

/** Only a default template of a notice PDF, an activity or a WhatsApp text takes variants. */
function checkTakesVariants(row: { key: string; variant_of: string | null; language: string | null }): void {
  if (row.variant_of !== null)
    throw badRequest('This template is itself a language variant: add the language to its default template.');
  if (row.key.startsWith('email-'))
    throw badRequest(
      'The e-mail subject and body have no language variants: only PDF and WhatsApp templates do.',
    );
}

const duplicate = (base: { name: string }, language: Language) =>
  conflict(`${base.name} already has a ${language.name} variant.`, {
    language: `${base.name} already has a ${language.name} variant.`,
  });

/** A new variant of `base` in `language`: its own id, key and name, the default's kind. */
function variantRow(
  base: { id: string; key: string; name: string; kind: RecordKind },
  language: Language,
): Omit<templates.EmailTemplateRow, 'html'> {
  const now = nowIso();
  return {
    id: newId(),
    key: `${base.key}.${language.code}`,
    name: `${base.name} (${language.name})`,
    kind: base.kind,
    language: language.code,
    variant_of: base.id,
    created_at: now,
    updated_at: now,
  };
}

/** WhatsApp and PDF Editor templates: read by every signed-in user, written only by ADMINs (the routes check). */
export class TemplatesService {
  constructor(
    private readonly db: Database,
    /** Called after a PDF template changes, so rendered PDFs keyed on the old text are not reused. */
    private readonly onPdfTemplateChanged: () => void = () => {},
  ) {}

  async listEmail({ page, limit }: PageQuery): Promise<TemplateList<EmailTemplate>> {
    const { rows, total } = await templates.listEmailTemplates(this.db, (page - 1) * limit, limit);
    const variants = await templates.variantsOf(
      this.db,
      'email_templates',
      rows.map((row) => row.id),
    );
    return { items: rows.map((row) => toEmail(row, variants)), total };
  }

  async listWhatsapp({ page, limit }: PageQuery): Promise<TemplateList<WhatsappTemplate>> {
    const { rows, total } = await templates.listWhatsappTemplates(this.db, (page - 1) * limit, limit);
    const variants = await templates.variantsOf(
      this.db,
      'whatsapp_templates',
      rows.map((row) => row.id),
    );
    return { items: rows.map((row) => toWhatsapp(row, variants)), total };
  }

  async getEmail(id: string): Promise<EmailTemplate> {
    const row = await templates.findEmailTemplate(this.db, id);
    if (!row) throw notFound('Template');
    return toEmail(row, await templates.variantsOf(this.db, 'email_templates', [row.id]));
  }

  async getWhatsapp(id: string): Promise<WhatsappTemplate> {
    const row = await templates.findWhatsappTemplate(this.db, id);
    if (!row) throw notFound('Template');
    return toWhatsapp(row, await templates.variantsOf(this.db, 'whatsapp_templates', [row.id]));
  }

  async updateEmail(actorId: string, id: string, body: EmailTemplateUpdate): Promise<EmailTemplate> {
    const row = await templates.findEmailTemplate(this.db, id);
    if (!row) throw notFound('Template');
    checkFixed(row, body);
    if (Buffer.byteLength(body.html) > TEMPLATE_MAX_BYTES) {
      throw new AppError(
        413,
        'TEMPLATE_TOO_LARGE',
        'The template is larger than 2 MB, the most a template may be.',
      );
    }
    checkPlaceholders(row.kind, body.html, 'html');
    await this.db.transaction().execute(async (trx) => {
      await templates.updateEmailTemplate(trx, id, body.html, nowIso());
      await appendAudit(trx, {
        actorId,
        action: 'template.update',
        subjectType: 'template',
        subjectId: id,
        summary: `PDF Editor template ${row.name}`,
        before: { html: row.html },
        after: { html: body.html },
      });
    });
    this.onPdfTemplateChanged();
    return this.getEmail(id);
  }

  async updateWhatsapp(actorId: string, id: string, body: WhatsappTemplateUpdate): Promise<WhatsappTemplate> {
    const row = await templates.findWhatsappTemplate(this.db, id);
    if (!row) throw notFound('Template');
    checkFixed(row, body);
    checkPlaceholders(row.kind, body.value, 'value');
    await this.db.transaction().execute(async (trx) => {
      await templates.updateWhatsappTemplate(trx, id, body.value, nowIso());
      await appendAudit(trx, {
        actorId,
        action: 'template.update',
        subjectType: 'template',
        subjectId: id,
        summary: `WhatsApp template ${row.name}`,
        before: { value: row.value },
        after: { value: body.value },
      });
    });
    return this.getWhatsapp(id);
  }

  /** Adds a language variant to a default PDF template, starting as a copy of the default's HTML. */
  async addEmailVariant(
    actorId: string,
    baseId: string,
    body: TemplateVariantCreate,
  ): Promise<EmailTemplate> {
    const base = await templates.findEmailTemplate(this.db, baseId);
    if (!base) throw notFound('Template');
    checkTakesVariants(base);
    const language = variantLanguage(body.language);
    const row: templates.EmailTemplateRow = {
      ...variantRow(base, language),
      html: base.html,
    };
    await this.insertVariant(actorId, base, language, row.id, (trx) =>
      templates.insertEmailTemplate(trx, row),
    );
    this.onPdfTemplateChanged();
    return toEmail(row);
  }

  /** Adds a language variant to a WhatsApp template, starting as a copy of its text. */
  async addWhatsappVariant(
    actorId: string,
    baseId: string,
    body: TemplateVariantCreate,
  ): Promise<WhatsappTemplate> {
    const base = await templates.findWhatsappTemplate(this.db, baseId);
    if (!base) throw notFound('Template');
    checkTakesVariants(base);
    const language = variantLanguage(body.language);
    const row: templates.WhatsappTemplateRow = { ...variantRow(base, language), value: base.value };
    await this.insertVariant(actorId, base, language, row.id, (trx) =>
      templates.insertWhatsappTemplate(trx, row),
    );
    return toWhatsapp(row);
  }

  private async insertVariant(
    actorId: string,
    base: { name: string },
    language: Language,
    id: string,
    insert: (trx: Database) => Promise<void>,
  ): Promise<void> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await insert(trx);
        await appendAudit(trx, {
          actorId,
          action: 'template.variant.create',
          subjectType: 'template',
          subjectId: id,
          summary: `${base.name}: ${language.name} variant added`,
          before: null,
          after: { language: language.code },
        });
      });
    } catch (err) {
      // The unique index on (variant_of, language), and on the key, refuses a second one.
      if (isUniqueViolation(err)) throw duplicate(base, language);
      throw err;
    }
  }
}
