import type {
  ApprovedTemplate,
  ApprovedTemplates,
  ApprovedTemplateState,
  ApprovedTemplateUpdate,
} from '@notice-desk/contract/whatsapp-approved';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { nowIso } from '../../lib/time.ts';
import type { ProviderTemplate, WhatsappTemplateDirectory } from '../../lib/whatsapp.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import { recordKinds } from '../records/record-kinds.ts';
import * as approved from './approved-templates.repository.ts';

/** How long a template's status read from Meta is believed by sends (the screen always asks afresh). */
const STATUS_FRESH_MS = 30_000;

const knownStates = new Set<ApprovedTemplateState>(['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED']);

/** What a send needs of a kind's template: its name, language and the fields for its parameters. */
export interface TemplateToSend {
  name: string;
  language: string;
  bodyFields: string[];
  /** Whether the body's last parameter (one more than the fields) takes the notice page's address. */
  linkInBody: boolean;
  /** The URL button whose dynamic suffix takes the page's code, when the template has one. */
  linkButtonIndex: number | null;
}

/** Where the link goes, as kept: the button, the body or neither ('button and body' is only the API's word). */
type LinkBy = 'button' | 'body' | 'none';

/** A template as described for the screen, with what only the sends need. */
type Described = Omit<ApprovedTemplate, 'linkBy'> & {
  linkBy?: LinkBy;
  linkButtonIndex: number | null;
  linkInBody: boolean;
};

/** What the API answers of a described template: where the link goes in detail stays with the sends. */
function answerOf({ linkButtonIndex, linkInBody, ...template }: Described): ApprovedTemplate {
  void linkButtonIndex;
  return template.linkBy === 'button' && linkInBody ? { ...template, linkBy: 'button and body' } : template;
}

/**
 * How a row keeps where the link goes. A template with a URL button and a spare body parameter gets the
 * link in both (the button's suffix, and the whole address as the spare parameter's text: Meta refuses
 * a message with a body parameter left out, and the staff who left it spare meant it for the link), so
 * link_by says the body takes it ('body') and link_button_index which button takes it too.
 */
const storedLink = (described: Described) => ({
  link_by: described.linkInBody ? ('body' as const) : (described.linkBy ?? null),
  link_button_index: described.linkButtonIndex,
});

/** Parameters a body may have for the fields mapped to it: one each, or one more for the notice page's link. */
const fitsFields = (bodyParameters: number, fields: number) =>
  bodyParameters === fields || bodyParameters === fields + 1;

export interface ApprovedTemplatesDeps {
  db: Database;
  /** Meta's template listing; absent when the Cloud API or WHATSAPP_BUSINESS_ACCOUNT_ID is not set. */
  directory: WhatsappTemplateDirectory | undefined;
  mode: ApprovedTemplates['mode'];
}

/**
 * The approved WhatsApp template each record kind is sent with: set by an ADMIN, its status read from
 * the WhatsApp Business Management API. In template mode a send is refused, before anything is
 * claimed, unless its kind's template is approved, has a document header and one field per parameter.
 */
export class ApprovedTemplatesService {
  private readonly seen = new Map<string, { at: number; templates: ProviderTemplate[] }>();

  constructor(private readonly deps: ApprovedTemplatesDeps) {}

  async list(): Promise<ApprovedTemplates> {
    const rows = new Map((await approved.listApprovedTemplates(this.deps.db)).map((r) => [r.record_kind, r]));
    const items = await Promise.all(
      (Object.keys(recordKinds) as RecordKind[]).map(async (kind) =>
        answerOf(await this.describe(kind, rows.get(kind), true)),
      ),
    );
    return { mode: this.deps.mode, items };
  }

  async update(actorId: string, kind: RecordKind, body: ApprovedTemplateUpdate): Promise<ApprovedTemplate> {
    const known = new Set(recordKinds[kind].fields.map((f) => f.key));
    const unknown = body.bodyFields.filter((field) => !known.has(field));
    if (unknown.length > 0)
      throw badRequest(
        `${unknown.map((f) => `'${f}'`).join(', ')} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} of ${recordKinds[kind].label.toLowerCase()} records.`,
      );
    const row: approved.ApprovedTemplateRow = {
      record_kind: kind,
      name: body.name,
      language: body.language,
      body_fields: JSON.stringify(body.bodyFields),
      updated_at: nowIso(),
      link_by: null,
      link_button_index: null,
    };
    const described = await this.describe(kind, row, true);
    Object.assign(row, storedLink(described));
    // A name Meta does not know, or a parameter count the fields do not match, is refused; a template
    // still PENDING (or REJECTED, to be fixed at Meta) may be set, and sends wait for its approval.
    if (described.status.state === 'MISSING')
      throw new AppError(422, 'WHATSAPP_TEMPLATE_NOT_FOUND', described.status.reason!);
    if (
      described.status.bodyParameters !== null &&
      !fitsFields(described.status.bodyParameters, body.bodyFields.length)
    )
      throw new AppError(422, 'WHATSAPP_TEMPLATE_PARAMETERS', described.status.reason!);
    const before = await approved.findApprovedTemplate(this.deps.db, kind);
    await this.deps.db.transaction().execute(async (trx) => {
      await approved.saveApprovedTemplate(trx, row);
      await appendAudit(trx, {
        actorId,
        action: 'template.update',
        subjectType: 'template',
        subjectId: `whatsapp-approved-${kind}`,
        summary: `Approved WhatsApp template for ${recordKinds[kind].label.toLowerCase()} records: ${body.name} (${body.language})`,
        before: before
          ? { name: before.name, language: before.language, bodyFields: before.body_fields }
          : null,
        after: { name: body.name, language: body.language, bodyFields: body.bodyFields },
      });
    });
    return answerOf(described);
  }

  /**
   * The template a send of this kind goes with, or undefined when none is needed (session mode, the
   * outbox). Refuses (409, or 422 for parameters that do not match) when it is not set, not approved,
   * unknown to Meta, or not usable as it is mapped: before anything is claimed.
   */
  async readyFor(kind: RecordKind): Promise<TemplateToSend | undefined> {
    if (this.deps.mode !== 'template') return undefined;
    const row = await approved.findApprovedTemplate(this.deps.db, kind);
    const label = recordKinds[kind].label.toLowerCase();
    if (!row)
      throw new AppError(
        409,
        'WHATSAPP_TEMPLATE_NOT_SET',
        `No approved WhatsApp template is set for ${label} records: an ADMIN sets one on the WhatsApp templates screen. Nothing was sent.`,
      );
    const described = await this.describe(kind, row, false);
    if (!described.usable) {
      const mismatch =
        described.status.state === 'APPROVED' &&
        described.status.bodyParameters !== null &&
        !fitsFields(described.status.bodyParameters, described.bodyFields.length);
      throw new AppError(
        mismatch ? 422 : 409,
        mismatch ? 'WHATSAPP_TEMPLATE_PARAMETERS' : 'WHATSAPP_TEMPLATE_NOT_APPROVED',
        `The WhatsApp template for ${label} records cannot be used: ${described.status.reason} Nothing was sent.`,
      );
    }
    // A template edited at Meta since it was set (a URL button added), or a row kept before both the
    // button and the body could take the link: the sends go as the template is now.
    const link = storedLink(described);
    if (
      (link.link_by ?? 'none') !== (row.link_by ?? 'none') ||
      link.link_button_index !== row.link_button_index
    )
      await approved.saveLinkBy(this.deps.db, kind, link.link_by ?? 'none', link.link_button_index);
    return {
      name: row.name,
      language: row.language,
      bodyFields: described.bodyFields,
      linkInBody: described.linkInBody,
      linkButtonIndex: described.linkButtonIndex,
    };
  }

  /**
   * What a send job sends WhatsApp messages with, from the database alone (the request checked Meta):
   * undefined outside template mode, null when no template is set.
   */
  async mappingOf(kind: RecordKind): Promise<TemplateToSend | null | undefined> {
    if (this.deps.mode !== 'template') return undefined;
    const row = await approved.findApprovedTemplate(this.deps.db, kind);
    return row
      ? {
          name: row.name,
          language: row.language,
          bodyFields: JSON.parse(row.body_fields) as string[],
          linkInBody: row.link_by === 'body',
          linkButtonIndex: row.link_button_index,
        }
      : null;
  }

  private async describe(
    kind: RecordKind,
    row: approved.ApprovedTemplateRow | undefined,
    fresh: boolean,
  ): Promise<Described> {
    const none = { kind, name: null, language: null, bodyFields: [] };
    if (!row)
      return {
        ...none,
        status: { state: 'UNKNOWN', reason: 'No template is set.', bodyParameters: null },
        usable: false,
        linkButtonIndex: null,
        linkInBody: false,
      };
    const bodyFields = JSON.parse(row.body_fields) as string[];
    const base = { kind, name: row.name, language: row.language, bodyFields };
    const unknown = (reason: string) => ({
      ...base,
      status: { state: 'UNKNOWN' as const, reason, bodyParameters: null },
      usable: false,
      linkButtonIndex: null,
      linkInBody: false,
    });
    if (!this.deps.directory)
      return unknown('WHATSAPP_BUSINESS_ACCOUNT_ID is not set, so its status at Meta cannot be read.');
    let found: ProviderTemplate[];
    try {
      found = await this.find(row.name, fresh);
    } catch (err) {
      return unknown(`WhatsApp could not be asked for its status: ${(err as Error).message}`);
    }
    const match = found.find((t) => t.language === row.language);
    if (!match) {
      const elsewhere = found.map((t) => t.language).join(', ');
      return {
        ...base,
        status: {
          state: 'MISSING',
          reason: elsewhere
            ? `WhatsApp has no template '${row.name}' in ${row.language}; it has it in ${elsewhere}.`
            : `WhatsApp has no template called '${row.name}'.`,
          bodyParameters: null,
        },
        usable: false,
        linkButtonIndex: null,
        linkInBody: false,
      };
    }
    const state = knownStates.has(match.status as ApprovedTemplateState)
      ? (match.status as ApprovedTemplateState)
      : 'UNKNOWN';
    const reason =
      state === 'REJECTED'
        ? `Meta rejected it: ${match.rejectedReason ?? 'no reason given'}.`
        : state !== 'APPROVED'
          ? `It is ${match.status} at Meta, not APPROVED.`
          : !fitsFields(match.bodyParameters, bodyFields.length)
            ? `Its body has ${match.bodyParameters} parameter(s) but ${bodyFields.length} field(s) are mapped to it: map one field to each (the last may be left for the notice page's link).`
            : match.headerFormat !== 'DOCUMENT'
              ? `Its header is ${match.headerFormat ? `a ${match.headerFormat.toLowerCase()}` : 'missing'}, not a document: the notice PDF goes as the header.`
              : null;
    // The notice page's link: a URL button's suffix where the template has one, and the body's spare
    // parameter where it has one (both when it has both: see storedLink; the API says 'button and body').
    const linkInBody = match.bodyParameters === bodyFields.length + 1;
    const linkBy: LinkBy = match.urlButtonIndex !== undefined ? 'button' : linkInBody ? 'body' : 'none';
    return {
      ...base,
      status: { state, reason, bodyParameters: match.bodyParameters },
      usable: state === 'APPROVED' && reason === null,
      linkBy,
      linkButtonIndex: match.urlButtonIndex ?? null,
      linkInBody,
    };
  }

  private async find(name: string, fresh: boolean): Promise<ProviderTemplate[]> {
    const cached = this.seen.get(name);
    if (!fresh && cached && Date.now() - cached.at < STATUS_FRESH_MS) return cached.templates;
    const templates = await this.deps.directory!.find(name);
    this.seen.set(name, { at: Date.now(), templates });
    return templates;
  }
}
