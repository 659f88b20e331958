import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share, except the
// triggers that make the log append-only, which each database writes its own way.
export async function up(db: Kysely<any>): Promise<void> {
  // Who did what, when, with what. No foreign keys: an entry outlives the record it speaks of.
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    // Null for the admin command line, which acts as nobody signed in.
    .addColumn('actor_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text')
    .addColumn('summary', 'text', (c) => c.notNull())
    // JSON
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .execute();
  // Ids are time-ordered (UUIDv7): newest first is id descending, with or without a filter.
  await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'id']).execute();
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_id', 'id']).execute();

  const postgres = (
    await sql<{ v: string }>`select version() as v`.execute(db).catch(() => undefined)
  )?.rows[0]?.v.startsWith('PostgreSQL');
  if (postgres) {
    await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
      begin raise exception 'The audit log is append-only.'; end $$`.execute(db);
    await sql`create trigger audit_log_append_only before update or delete on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
  } else {
    for (const event of ['update', 'delete'])
      await sql`create trigger ${sql.raw(`audit_log_no_${event}`)} before ${sql.raw(event)} on audit_log
        begin select raise(abort, 'The audit log is append-only.'); end`.execute(db);
  }

  // When a send last started to hand a delivery to its provider: a delivery still queued with this set
  // was in flight when its process stopped, and is sent again under the same message id.
  await db.schema.alterTable('deliveries').addColumn('attempted_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deliveries').dropColumn('attempted_at').execute();
  await db.schema.dropTable('audit_log').execute();
  await sql`drop function if exists audit_log_append_only`.execute(db).catch(() => undefined);
}
