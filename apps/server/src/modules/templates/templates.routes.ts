import { z } from 'zod';
import { pagingQuery, type PageQuery } from '@notice-desk/contract/paging';
import { recordId } from '@notice-desk/contract/record-fields';
import {
  emailTemplateUpdate,
  TEMPLATE_MAX_BYTES,
  templateVariantCreate,
  whatsappTemplateUpdate,
  type TemplateVariantCreate,
} from '@notice-desk/contract/templates';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutesBy, onlyReads } from '../../plugins/authenticate.ts';

const idParams = z.object({ id: recordId });
const tags = ['templates'];

/**
 * What tells the two template channels' routes apart: their URLs, their words in the API docs, their
 * page size, their update body and the service calls behind them. The routes themselves are the same.
 */
type TemplateChannel<TUpdate extends z.ZodType> = {
  /** e.g. '/api/whatsapptemplates': the list under /getdata, one template under /{id}. */
  baseUrl: string;
  /** One template, in the docs' summaries: 'WhatsApp template'. */
  noun: string;
  /** The spec's page size of the channel's list. */
  defaultLimit: number;
  update: TUpdate;
  /** Bytes an update's body may take, when more than Fastify's default. */
  bodyLimit?: number;
  docs: { list: string; get: string; update: string; addVariant: string };
  list: (query: PageQuery) => Promise<unknown>;
  get: (id: string) => Promise<unknown>;
  save: (actorId: string, id: string, body: z.infer<TUpdate>) => Promise<unknown>;
  addVariant: (actorId: string, id: string, body: TemplateVariantCreate) => Promise<unknown>;
};

/** A channel's list, one template, update and new language variant. */
function templateChannelRoutes<TUpdate extends z.ZodType>(app: App, channel: TemplateChannel<TUpdate>): void {
  const { baseUrl, noun, docs } = channel;
  app.get(
    `${baseUrl}/getdata`,
    {
      schema: {
        tags,
        summary: `List ${noun}s`,
        description: docs.list,
        querystring: pagingQuery({ limit: channel.defaultLimit }),
      },
    },
    (req) => channel.list(req.query),
  );
  app.get(
    `${baseUrl}/:id`,
    { schema: { tags, summary: `Get a ${noun}`, description: docs.get, params: idParams } },
    (req) => channel.get(req.params.id),
  );
  app.put(
    `${baseUrl}/update/:id`,
    {
      bodyLimit: channel.bodyLimit,
      schema: {
        tags,
        summary: `Change a ${noun}`,
        description: docs.update,
        params: idParams,
        body: channel.update,
      },
    },
    // The type provider cannot see through the generic schema; Fastify has parsed the body by it.
    (req) => channel.save(req.user._id, req.params.id, req.body as z.infer<TUpdate>),
  );
  app.post(
    `${baseUrl}/:id/variants`,
    {
      schema: {
        tags,
        summary: `Add a language variant to a ${noun}`,
        description: docs.addVariant,
        params: idParams,
        body: templateVariantCreate,
      },
    },
    async (req, reply) =>
      reply.code(201).send(await channel.addVariant(req.user._id, req.params.id, req.body)),
  );
}

export function templatesRoutes(app: App, { templates, guards }: AppContext): void {
  // Anyone signed in reads the templates (sending uses them); only an ADMIN changes them.
  guardRoutesBy(app, (route) => (onlyReads(route) ? guards.requireUser : guards.requireAdmin));

  templateChannelRoutes(app, {
    baseUrl: '/api/whatsapptemplates',
    noun: 'WhatsApp template',
    defaultLimit: 50,
    update: whatsappTemplateUpdate,
    docs: {
      list: 'Answers a page of the WhatsApp message templates (50 by default), each with its text and the {{placeholders}} it may use.',
      get: 'Answers one WhatsApp template: key, name, text (value) and the placeholders it may use.',
      update:
        'Saves a WhatsApp template’s text (value). Key and name cannot change, and a {{placeholder}} that names no field of the template’s kind, or a format that is not | inr, | words or | date ({{noticeBalance | inr}}), is refused with its name.',
      addVariant:
        'Adds a variant of a WhatsApp template in a language (hi, Hindi, हिन्दी), starting as a copy of its text; answers 201 with it. A record whose language names that language is sent the variant. 400 for a language that is not one of India’s scheduled languages or English, or for a variant; 409 when the template already has that language.',
    },
    list: (query) => templates.listWhatsapp(query),
    get: (id) => templates.getWhatsapp(id),
    save: (actorId, id, body) => templates.updateWhatsapp(actorId, id, body),
    addVariant: (actorId, id, body) => templates.addWhatsappVariant(actorId, id, body),
  });
  templateChannelRoutes(app, {
    baseUrl: '/api/emailTemplates',
    noun: 'PDF Editor template',
    defaultLimit: 25,
    update: emailTemplateUpdate,
    // A template may be up to 2 MB of HTML (the service checks); escaping in JSON can double it.
    bodyLimit: TEMPLATE_MAX_BYTES * 2,
    docs: {
      list: 'Answers a page of the PDF Editor templates (25 by default) with the total: the notice PDF of each kind, the credit-card activity templates, and the e-mail subject and body of each kind.',
      get: 'Answers one PDF Editor template: key, name, HTML and the placeholders it may use.',
      update:
        'Saves a PDF Editor template’s HTML (up to 2 MB, else 413). Key and name cannot change, and a {{placeholder}} that names no field of the template’s kind, or a format that is not | inr, | words or | date ({{noticeBalance | inr}}), is refused with its name. PDFs rendered from the old text are not reused.',
      addVariant:
        'Adds a variant of a default PDF template (the notice template or a credit-card activity template) in a language, named by code, English or native name (hi, Hindi, हिन्दी), starting as a copy of the default’s HTML; answers 201 with it. A record whose language names that language prints the variant; any other record prints the default. 400 for a language that is not one of India’s scheduled languages or English, or for a variant or an e-mail subject or body; 409 when the template already has that language.',
    },
    list: (query) => templates.listEmail(query),
    get: (id) => templates.getEmail(id),
    save: (actorId, id, body) => templates.updateEmail(actorId, id, body),
    addVariant: (actorId, id, body) => templates.addEmailVariant(actorId, id, body),
  });
}
