import {
  smsLinkPlaceholders,
  type SmsTemplate,
  type SmsTemplates,
  type SmsTemplateUpdate,
} from '@notice-desk/contract/sms-templates';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { DocumentLocale } from '../../lib/indian-format.ts';
import { nowIso } from '../../lib/time.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import { recordKinds } from '../records/record-kinds.ts';
import { checkPlaceholders, mergeTemplate } from '../templates/placeholders.ts';
import {
  compareWithRegistered,
  DLT_SLOT,
  DLT_SLOT_MAX,
  fillSlots,
  normaliseLineEnds,
  placeholdersOf,
  smsLength,
} from './dlt-text.ts';
import * as repo from './sms-templates.repository.ts';

export interface SmsTemplatesDeps {
  db: Database;
  via: 'msg91' | 'outbox';
  entityId: string | undefined;
  sender: string | undefined;
  where?: DocumentLocale | undefined;
}

/** A record's SMS, made on its kind's DLT template: the text, its DLT template id and whether it needs Unicode. */
export interface RenderedSms {
  text: string;
  dltTemplateId: string;
  unicode: boolean;
}

const linkPlaceholders: ReadonlySet<string> = new Set(smsLinkPlaceholders);

/**
 * The DLT template per record kind (issue 31): an ADMIN sets its DLT id, its registered text and the
 * SMS text, which must be the registered text character for character with a placeholder where each
 * {#var#} is. Checked on save and again before every SMS, whose slots each take at most 30 characters.
 */
export class SmsTemplatesService {
  constructor(private readonly deps: SmsTemplatesDeps) {}

  async list(): Promise<SmsTemplates> {
    const rows = new Map((await repo.listSmsTemplates(this.deps.db)).map((row) => [row.record_kind, row]));
    return {
      via: this.deps.via,
      entityId: this.deps.entityId ?? null,
      sender: this.deps.sender ?? null,
      items: (Object.keys(recordKinds) as RecordKind[]).map((kind) => itemOf(kind, rows.get(kind))),
    };
  }

  async update(actorId: string, kind: RecordKind, body: SmsTemplateUpdate): Promise<SmsTemplate> {
    const registered = normaliseLineEnds(body.registeredText);
    const text = normaliseLineEnds(body.text);
    this.check(kind, registered, text);
    const before = await repo.findSmsTemplate(this.deps.db, kind);
    const row: repo.SmsTemplateRow = {
      record_kind: kind,
      dlt_template_id: body.dltTemplateId,
      registered_text: registered,
      text,
      updated_at: nowIso(),
      updated_by: actorId,
    };
    await this.deps.db.transaction().execute(async (trx) => {
      await repo.saveSmsTemplate(trx, row);
      await appendAudit(trx, {
        actorId,
        action: 'sms-template.update',
        subjectType: kind,
        summary: `DLT template of ${recordKinds[kind].label.toLowerCase()} SMS set to ${body.dltTemplateId}`,
        before: before
          ? {
              dltTemplateId: before.dlt_template_id,
              registeredText: before.registered_text,
              text: before.text,
            }
          : null,
        after: { dltTemplateId: row.dlt_template_id, registeredText: registered, text },
      });
    });
    return itemOf(kind, row);
  }

  /** Refuses (409) a send of this kind by SMS before anything is claimed when it has no usable DLT template. */
  async readyFor(kind: RecordKind): Promise<void> {
    const row = await repo.findSmsTemplate(this.deps.db, kind);
    if (!row)
      throw new AppError(
        409,
        'NO_SMS_TEMPLATE',
        `No DLT template is set for ${recordKinds[kind].label.toLowerCase()} SMS. An ADMIN sets it on the templates screen.`,
      );
    const mismatch = compareWithRegistered(row.registered_text, row.text);
    if (mismatch) throw new AppError(409, 'SMS_TEMPLATE_MISMATCH', mismatch.message, mismatchData(mismatch));
  }

  /**
   * What renders each record's SMS in a send job: the kind's template, checked again, and for a record
   * its text (each slot's value checked) or why it cannot go. Null when the kind has no template.
   */
  async renderer(
    kind: RecordKind,
  ): Promise<
    | ((
        row: Record<string, string>,
        link: { url: string; code: string } | undefined,
      ) => RenderedSms | { refused: string })
    | null
  > {
    const row = await repo.findSmsTemplate(this.deps.db, kind);
    if (!row) return null;
    const mismatch = compareWithRegistered(row.registered_text, row.text);
    const placeholders = placeholdersOf(row.text);
    const where = this.deps.where;
    return (record, link) => {
      if (mismatch) return { refused: mismatch.message };
      const values = placeholders.map((placeholder) => {
        if (placeholder === 'noticeLink') return link?.url ?? '';
        if (placeholder === 'noticeCode') return link ? `${link.code}?c=s` : '';
        return mergeTemplate(`{{${placeholder}}}`, record, 'text', where);
      });
      const filled = fillSlots(row.registered_text, placeholders, values);
      if ('refused' in filled) return filled;
      return {
        text: filled.text,
        dltTemplateId: row.dlt_template_id,
        unicode: smsLength(filled.text).unicode,
      };
    };
  }

  /** The save's checks: every placeholder a field (or the link), and the text the registered text exactly. */
  private check(kind: RecordKind, registered: string, text: string): void {
    const withoutLinks = placeholdersOf(text)
      .filter((p) => !linkPlaceholders.has(p.split('|')[0]!.trim()))
      .map((p) => `{{${p}}}`)
      .join(' ');
    checkPlaceholders(kind, withoutLinks, 'text');
    const mismatch = compareWithRegistered(registered, text);
    if (mismatch) throw new AppError(422, 'DLT_TEXT_MISMATCH', mismatch.message, { text: mismatch.message });
  }
}

const mismatchData = (m: { position: number; expected: string; found: string }) => ({
  position: String(m.position),
  expected: m.expected,
  found: m.found,
});

function itemOf(kind: RecordKind, row: repo.SmsTemplateRow | undefined): SmsTemplate {
  const registered = row?.registered_text ?? '';
  // The longest the SMS can be: each slot at the 30 characters DLT allows.
  const longest = registered.split(DLT_SLOT).join('x'.repeat(DLT_SLOT_MAX));
  return {
    kind,
    dltTemplateId: row?.dlt_template_id ?? null,
    registeredText: registered,
    text: row?.text ?? '',
    slotFields: row ? placeholdersOf(row.text) : [],
    length: row ? smsLength(longest) : { characters: 0, segments: 0, unicode: false },
    updatedAt: row?.updated_at ?? null,
  };
}
