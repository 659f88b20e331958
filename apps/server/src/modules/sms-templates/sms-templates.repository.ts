import type { SmsDltTemplatesTable } from '../../db/schema.ts';
import { kindTemplatesIn } from '../templates/kind-templates.repository.ts';

export type SmsTemplateRow = SmsDltTemplatesTable;

/** The DLT template of each record kind: every kind's, one kind's, and a kind's set in place of the one it had. */
export const {
  list: listSmsTemplates,
  find: findSmsTemplate,
  save: saveSmsTemplate,
} = kindTemplatesIn('sms_dlt_templates');
