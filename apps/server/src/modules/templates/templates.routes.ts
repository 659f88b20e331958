import { z } from 'zod';
import { pagingQuery } from '@notice-desk/contract/paging';
import { recordId } from '@notice-desk/contract/record-fields';
import {
  emailTemplateUpdate,
  TEMPLATE_MAX_BYTES,
  templateVariantCreate,
  whatsappTemplateUpdate,
} from '@notice-desk/contract/templates';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutesBy, onlyReads } from '../../plugins/authenticate.ts';

const idParams = z.object({ id: recordId });
const tags = ['templates'];

export function templatesRoutes(app: App, { templates, guards }: AppContext): void {
  // Anyone signed in reads the templates (sending uses them); only an ADMIN changes them.
  guardRoutesBy(app, (route) => (onlyReads(route) ? guards.requireUser : guards.requireAdmin));

  app.get(
    '/api/whatsapptemplates/getdata',
    {
      schema: {
        tags,
        summary: 'List WhatsApp templates',
        description:
          'Answers a page of the WhatsApp message templates (50 by default), each with its text and the {{placeholders}} it may use.',
        querystring: pagingQuery({ limit: 50 }),
      },
    },
    (req) => templates.listWhatsapp(req.query),
  );
  app.get(
    '/api/whatsapptemplates/:id',
    {
      schema: {
        tags,
        summary: 'Get a WhatsApp template',
        description:
          'Answers one WhatsApp template: key, name, text (value) and the placeholders it may use.',
        params: idParams,
      },
    },
    (req) => templates.getWhatsapp(req.params.id),
  );
  app.put(
    '/api/whatsapptemplates/update/:id',
    {
      schema: {
        tags,
        summary: 'Change a WhatsApp template',
        description:
          'Saves a WhatsApp template’s text (value). Key and name cannot change, and a {{placeholder}} that names no field of the template’s kind, or a format that is not | inr, | words or | date ({{noticeBalance | inr}}), is refused with its name.',
        params: idParams,
        body: whatsappTemplateUpdate,
      },
    },
    (req) => templates.updateWhatsapp(req.user._id, req.params.id, req.body),
  );

  app.get(
    '/api/emailTemplates/getdata',
    {
      schema: {
        tags,
        summary: 'List PDF Editor templates',
        description:
          'Answers a page of the PDF Editor templates (25 by default) with the total: the notice PDF of each kind, the credit-card activity templates, and the e-mail subject and body of each kind.',
        querystring: pagingQuery({ limit: 25 }),
      },
    },
    (req) => templates.listEmail(req.query),
  );
  app.get(
    '/api/emailTemplates/:id',
    {
      schema: {
        tags,
        summary: 'Get a PDF Editor template',
        description: 'Answers one PDF Editor template: key, name, HTML and the placeholders it may use.',
        params: idParams,
      },
    },
    (req) => templates.getEmail(req.params.id),
  );
  app.put(
    '/api/emailTemplates/update/:id',
    // A template may be up to 2 MB of HTML (the service checks); escaping in JSON can double it.
    {
      bodyLimit: TEMPLATE_MAX_BYTES * 2,
      schema: {
        tags,
        summary: 'Change a PDF Editor template',
        description:
          'Saves a PDF Editor template’s HTML (up to 2 MB, else 413). Key and name cannot change, and a {{placeholder}} that names no field of the template’s kind, or a format that is not | inr, | words or | date ({{noticeBalance | inr}}), is refused with its name. PDFs rendered from the old text are not reused.',
        params: idParams,
        body: emailTemplateUpdate,
      },
    },
    (req) => templates.updateEmail(req.user._id, req.params.id, req.body),
  );

  app.post(
    '/api/emailTemplates/:id/variants',
    {
      schema: {
        tags,
        summary: 'Add a language variant to a PDF Editor template',
        description:
          'Adds a variant of a default PDF template (the notice template or a credit-card activity template) in a language, named by code, English or native name (hi, Hindi, हिन्दी), starting as a copy of the default’s HTML; answers 201 with it. A record whose language names that language prints the variant; any other record prints the default. 400 for a language that is not one of India’s scheduled languages or English, or for a variant or an e-mail subject or body; 409 when the template already has that language.',
        params: idParams,
        body: templateVariantCreate,
      },
    },
    async (req, reply) =>
      reply.code(201).send(await templates.addEmailVariant(req.user._id, req.params.id, req.body)),
  );
  app.post(
    '/api/whatsapptemplates/:id/variants',
    {
      schema: {
        tags,
        summary: 'Add a language variant to a WhatsApp template',
        description:
          'Adds a variant of a WhatsApp template in a language (hi, Hindi, हिन्दी), starting as a copy of its text; answers 201 with it. A record whose language names that language is sent the variant. 400 for a language that is not one of India’s scheduled languages or English, or for a variant; 409 when the template already has that language.',
        params: idParams,
        body: templateVariantCreate,
      },
    },
    async (req, reply) =>
      reply.code(201).send(await templates.addWhatsappVariant(req.user._id, req.params.id, req.body)),
  );
}
