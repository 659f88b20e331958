import type { Database } from '../../db/database.ts';
import type { RecordKind, WhatsappApprovedTemplatesTable } from '../../db/schema.ts';

export type ApprovedTemplateRow = WhatsappApprovedTemplatesTable;

export function listApprovedTemplates(db: Database): Promise<ApprovedTemplateRow[]> {
  return db.selectFrom('whatsapp_approved_templates').selectAll().execute();
}

export function findApprovedTemplate(
  db: Database,
  kind: RecordKind,
): Promise<ApprovedTemplateRow | undefined> {
  return db
    .selectFrom('whatsapp_approved_templates')
    .selectAll()
    .where('record_kind', '=', kind)
    .executeTakeFirst();
}

/** Sets a kind's template, replacing the one it had. */
export async function saveApprovedTemplate(db: Database, row: ApprovedTemplateRow): Promise<void> {
  await db
    .insertInto('whatsapp_approved_templates')
    .values(row)
    .onConflict((oc) =>
      oc.column('record_kind').doUpdateSet({
        name: row.name,
        language: row.language,
        body_fields: row.body_fields,
        updated_at: row.updated_at,
        link_by: row.link_by,
        link_button_index: row.link_button_index,
      }),
    )
    .execute();
}

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
