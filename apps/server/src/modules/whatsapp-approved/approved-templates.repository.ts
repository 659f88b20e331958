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
      }),
    )
    .execute();
}
