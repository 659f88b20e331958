import type { Database } from '../../db/database.ts';
import type { RecordKind, SmsDltTemplatesTable, WhatsappApprovedTemplatesTable } from '../../db/schema.ts';

/** The tables that keep a channel's template one row per record kind, and their rows. */
interface KindTemplateTables {
  sms_dlt_templates: SmsDltTemplatesTable;
  whatsapp_approved_templates: WhatsappApprovedTemplatesTable;
}

export interface KindTemplateQueries<Row> {
  /** Every kind's row, in kind order. */
  list(db: Database): Promise<Row[]>;
  find(db: Database, kind: RecordKind): Promise<Row | undefined>;
  /** Sets a kind's row in place of the one it had. */
  save(db: Database, row: Row): Promise<void>;
}

/** The queries of a table kept one row per record kind: the SMS DLT templates, the approved WhatsApp templates. */
export function kindTemplatesIn<T extends keyof KindTemplateTables>(
  table: T,
): KindTemplateQueries<KindTemplateTables[T]> {
  // Kysely cannot type a query on a table named by a type parameter. These name no column but the key,
  // record_kind, which every such table has, and write a row whole: they are typed on one of the tables.
  const named = table as 'sms_dlt_templates';
  const queries: KindTemplateQueries<SmsDltTemplatesTable> = {
    list: (db) => db.selectFrom(named).selectAll().orderBy('record_kind').execute(),
    find: (db, kind) => db.selectFrom(named).selectAll().where('record_kind', '=', kind).executeTakeFirst(),
    save: async (db, row) => {
      const { record_kind: _kind, ...columns } = row;
      await db
        .insertInto(named)
        .values(row)
        .onConflict((oc) => oc.column('record_kind').doUpdateSet(columns))
        .execute();
    },
  };
  return queries as unknown as KindTemplateQueries<KindTemplateTables[T]>;
}
