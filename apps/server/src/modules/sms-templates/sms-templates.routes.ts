import { smsTemplateUpdate } from '@notice-desk/contract/sms-templates';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';
import { kindTemplateRoutes } from '../templates/kind-template-routes.ts';

/** The DLT template per record kind for SMS: ADMIN only, like the templates screen that shows it. */
export function smsTemplatesRoutes(app: App, { smsTemplates, guards }: AppContext): void {
  guardRoutes(app, guards.requireAdmin);
  kindTemplateRoutes(app, {
    url: '/api/smstemplates/dlt',
    list: {
      summary: 'DLT templates for SMS',
      description:
        "For each record kind: the DLT template its SMS go on (the DLT template id, the text as registered with {#var#} slots, the SMS text with a placeholder where each slot is, and the placeholder filling each slot), and how long the SMS can be: segments and whether it needs Unicode (UCS-2), with every slot at its 30 characters. via is msg91, or outbox without MSG91's settings.",
    },
    update: {
      summary: 'Set the DLT template of a record kind',
      description:
        "Sets the DLT template a kind's SMS go on. text must be registeredText character for character, with a placeholder ({{loanNo}}, {{noticeDate | date}}, or {{noticeLink}} / {{noticeCode}} for the notice page) where each {#var#} is: the first difference is refused (422 DLT_TEXT_MISMATCH) with its position and both characters (code points shown, so a look-alike letter is seen). A placeholder that names no field of the kind is refused (400). Each slot's value is checked again at every send: at most 30 characters.",
      body: smsTemplateUpdate,
    },
    service: smsTemplates,
  });
}
