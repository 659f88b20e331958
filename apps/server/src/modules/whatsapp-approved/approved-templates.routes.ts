import { approvedTemplateUpdate } from '@notice-desk/contract/whatsapp-approved';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';
import { kindTemplateRoutes } from '../templates/kind-template-routes.ts';

/** The approved WhatsApp template per record kind: ADMIN only, like the templates screen that shows it. */
export function approvedTemplatesRoutes(app: App, { approvedTemplates, guards }: AppContext): void {
  guardRoutes(app, guards.requireAdmin);
  kindTemplateRoutes(app, {
    url: '/api/whatsapptemplates/approved',
    list: {
      summary: 'Approved WhatsApp templates',
      description:
        'For each record kind: the approved WhatsApp template it is sent with (name, language, the record fields that fill its body parameters in order) and its status read from Meta now: APPROVED, PENDING, REJECTED (with the reason), MISSING, or UNKNOWN when WHATSAPP_BUSINESS_ACCOUNT_ID is not set. usable says whether a send with it would go. mode is WHATSAPP_MODE, or outbox without the Cloud API.',
    },
    update: {
      summary: 'Set the approved WhatsApp template of a record kind',
      description:
        'Sets the template a kind is sent with: its name and language at Meta and the record fields for its body parameters {{1}}, {{2}}… in order. A field the kind does not have is refused (400); a template Meta does not have in that language, or whose body has another number of parameters than the fields given, is refused (422). A PENDING or REJECTED template may be set; sends wait for it to be APPROVED.',
      body: approvedTemplateUpdate,
    },
    service: approvedTemplates,
  });
}
