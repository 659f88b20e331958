import type { Database } from '../../db/database.ts';
import type { EmailTemplatesTable, RecordKind, WhatsappTemplatesTable } from '../../db/schema.ts';

export type TemplateTable = 'email_templates' | 'whatsapp_templates';

export type EmailTemplateRow = EmailTemplatesTable;
export type WhatsappTemplateRow = WhatsappTemplatesTable;

export async function listEmailTemplates(db: Database, offset: number, limit: number) {
  const [rows, count] = await Promise.all([
    db.selectFrom('email_templates').selectAll().orderBy('name').limit(limit).offset(offset).execute(),
    db
      .selectFrom('email_templates')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function listWhatsappTemplates(db: Database, offset: number, limit: number) {
  const [rows, count] = await Promise.all([
    db.selectFrom('whatsapp_templates').selectAll().orderBy('name').limit(limit).offset(offset).execute(),
    db
      .selectFrom('whatsapp_templates')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export function findEmailTemplate(db: Database, id: string): Promise<EmailTemplateRow | undefined> {
  return db.selectFrom('email_templates').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findWhatsappTemplate(db: Database, id: string): Promise<WhatsappTemplateRow | undefined> {
  return db.selectFrom('whatsapp_templates').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findEmailTemplateByKey(db: Database, key: string): Promise<EmailTemplateRow | undefined> {
  return db.selectFrom('email_templates').selectAll().where('key', '=', key).executeTakeFirst();
}

export function findEmailTemplatesByKeys(db: Database, keys: string[]): Promise<EmailTemplateRow[]> {
  return db.selectFrom('email_templates').selectAll().where('key', 'in', keys).execute();
}

/** The PDF templates of a kind (e-mail subject and body templates left out). */
export function pdfTemplatesOf(db: Database, kind: RecordKind): Promise<EmailTemplateRow[]> {
  return db
    .selectFrom('email_templates')
    .selectAll()
    .where('kind', '=', kind)
    .where('key', 'not like', 'email-%')
    .execute();
}

export async function updateEmailTemplate(
  db: Database,
  id: string,
  html: string,
  now: string,
): Promise<void> {
  await db.updateTable('email_templates').set({ html, updated_at: now }).where('id', '=', id).execute();
}

export async function updateWhatsappTemplate(
  db: Database,
  id: string,
  value: string,
  now: string,
): Promise<void> {
  await db.updateTable('whatsapp_templates').set({ value, updated_at: now }).where('id', '=', id).execute();
}

/** The language variants of the given default templates, by name. */
export function variantsOf(
  db: Database,
  table: TemplateTable,
  baseIds: readonly string[],
): Promise<{ id: string; name: string; language: string | null; variant_of: string | null }[]> {
  if (baseIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom(table)
    .select(['id', 'name', 'language', 'variant_of'])
    .where('variant_of', 'in', baseIds)
    .orderBy('name')
    .execute();
}

export async function insertEmailTemplate(db: Database, row: EmailTemplateRow): Promise<void> {
  await db.insertInto('email_templates').values(row).execute();
}

export async function insertWhatsappTemplate(db: Database, row: WhatsappTemplateRow): Promise<void> {
  await db.insertInto('whatsapp_templates').values(row).execute();
}

/** The WhatsApp templates of a kind: its default and the default's language variants. */
export function whatsappTemplatesOf(db: Database, kind: RecordKind): Promise<WhatsappTemplateRow[]> {
  return db.selectFrom('whatsapp_templates').selectAll().where('kind', '=', kind).orderBy('id').execute();
}
