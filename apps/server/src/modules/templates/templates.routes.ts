import { z } from 'zod';
import { pageQuery } from '@notice-desk/contract/paging';
import { recordId } from '@notice-desk/contract/record-fields';
import {
  emailTemplateUpdate,
  TEMPLATE_MAX_BYTES,
  whatsappTemplateUpdate,
} from '@notice-desk/contract/templates';
import type { App, AppContext } from '../../app-context.ts';

const idParams = z.object({ id: recordId });

export function templatesRoutes(app: App, { templates, guards }: AppContext): void {
  const signedIn = { onRequest: guards.requireUser };
  const adminOnly = { onRequest: guards.requireAdmin };

  app.get(
    '/api/whatsapptemplates/getdata',
    { ...signedIn, schema: { querystring: pageQuery.extend({ limit: pageQuery.shape.limit.default(50) }) } },
    (req) => templates.listWhatsapp(req.query),
  );
  app.get('/api/whatsapptemplates/:id', { ...signedIn, schema: { params: idParams } }, (req) =>
    templates.getWhatsapp(req.params.id),
  );
  app.put(
    '/api/whatsapptemplates/update/:id',
    { ...adminOnly, schema: { params: idParams, body: whatsappTemplateUpdate } },
    (req) => templates.updateWhatsapp(req.params.id, req.body),
  );

  app.get(
    '/api/emailTemplates/getdata',
    { ...signedIn, schema: { querystring: pageQuery.extend({ limit: pageQuery.shape.limit.default(25) }) } },
    (req) => templates.listEmail(req.query),
  );
  app.get('/api/emailTemplates/:id', { ...signedIn, schema: { params: idParams } }, (req) =>
    templates.getEmail(req.params.id),
  );
  app.put(
    '/api/emailTemplates/update/:id',
    // A template may be up to 2 MB of HTML (the service checks); escaping in JSON can double it.
    {
      ...adminOnly,
      bodyLimit: TEMPLATE_MAX_BYTES * 2,
      schema: { params: idParams, body: emailTemplateUpdate },
    },
    (req) => templates.updateEmail(req.params.id, req.body),
  );
}
