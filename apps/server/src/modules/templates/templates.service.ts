import type { PageQuery } from '@notice-desk/contract/paging';
import {
  TEMPLATE_MAX_BYTES,
  type EmailTemplate,
  type EmailTemplateUpdate,
  type TemplateList,
  type WhatsappTemplate,
  type WhatsappTemplateUpdate,
} from '@notice-desk/contract/templates';
import type { Database } from '../../db/database.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
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

const toEmail = (row: templates.EmailTemplateRow): EmailTemplate => ({
  _id: row.id,
  key: row.key,
  name: row.name,
  html: row.html,
  kind: row.kind,
  placeholders: placeholdersFor(row.kind),
});

const toWhatsapp = (row: templates.WhatsappTemplateRow): WhatsappTemplate => ({
  _id: row.id,
  key: row.key,
  name: row.name,
  value: row.value,
  kind: row.kind,
  placeholders: placeholdersFor(row.kind),
});

/** WhatsApp and PDF Editor templates: read by every signed-in user, written only by ADMINs (the routes check). */
export class TemplatesService {
  constructor(
    private readonly db: Database,
    /** Called after a PDF template changes, so rendered PDFs keyed on the old text are not reused. */
    private readonly onPdfTemplateChanged: () => void = () => {},
  ) {}

  async listEmail({ page, limit }: PageQuery): Promise<TemplateList<EmailTemplate>> {
    const { rows, total } = await templates.listEmailTemplates(this.db, (page - 1) * limit, limit);
    return { items: rows.map(toEmail), total };
  }

  async listWhatsapp({ page, limit }: PageQuery): Promise<TemplateList<WhatsappTemplate>> {
    const { rows, total } = await templates.listWhatsappTemplates(this.db, (page - 1) * limit, limit);
    return { items: rows.map(toWhatsapp), total };
  }

  async getEmail(id: string): Promise<EmailTemplate> {
    const row = await templates.findEmailTemplate(this.db, id);
    if (!row) throw notFound('Template');
    return toEmail(row);
  }

  async getWhatsapp(id: string): Promise<WhatsappTemplate> {
    const row = await templates.findWhatsappTemplate(this.db, id);
    if (!row) throw notFound('Template');
    return toWhatsapp(row);
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
    return toEmail({ ...row, html: body.html });
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
    return toWhatsapp({ ...row, value: body.value });
  }
}
