import type { Database } from '../../db/database.ts';
import type { RecordKind, SmsDltTemplatesTable } from '../../db/schema.ts';

export type SmsTemplateRow = SmsDltTemplatesTable;

export function listSmsTemplates(db: Database): Promise<SmsTemplateRow[]> {
  return db.selectFrom('sms_dlt_templates').selectAll().orderBy('record_kind').execute();
}

export function findSmsTemplate(db: Database, kind: RecordKind): Promise<SmsTemplateRow | undefined> {
  return db.selectFrom('sms_dlt_templates').selectAll().where('record_kind', '=', kind).executeTakeFirst();
}

/** Sets a kind's DLT template, replacing the one it had. */
export async function saveSmsTemplate(db: Database, row: SmsTemplateRow): Promise<void> {
  await db
    .insertInto('sms_dlt_templates')
    .values(row)
    .onConflict((oc) =>
      oc.column('record_kind').doUpdateSet({
        dlt_template_id: row.dlt_template_id,
        registered_text: row.registered_text,
        text: row.text,
        updated_at: row.updated_at,
        updated_by: row.updated_by,
      }),
    )
    .execute();
}
