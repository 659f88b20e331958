import type { Database } from '../../db/database.ts';
import type { RecordKind, WhatsappApprovedTemplatesTable } from '../../db/schema.ts';
import { kindTemplatesIn } from '../templates/kind-templates.repository.ts';

export type ApprovedTemplateRow = WhatsappApprovedTemplatesTable;

/** The approved template of each record kind: every kind's, one kind's, and a kind's set in place of the one it had. */
export const {
  list: listApprovedTemplates,
  find: findApprovedTemplate,
  save: saveApprovedTemplate,
} = kindTemplatesIn('whatsapp_approved_templates');

/** How the kind's template carries the notice page's link, as Meta's copy of it says now. */
export async function saveLinkBy(
  db: Database,
  kind: RecordKind,
  linkBy: ApprovedTemplateRow['link_by'],
  linkButtonIndex: number | null,
): Promise<void> {
  await db
    .updateTable('whatsapp_approved_templates')
    .set({ link_by: linkBy, link_button_index: linkButtonIndex })
    .where('record_kind', '=', kind)
    .execute();
}
