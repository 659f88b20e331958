import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  type Kysely,
  PostgresAdapter,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

interface ColumnRow {
  table: string;
  kind: string;
  schema: string;
  column: string;
  not_null: boolean;
  has_default: boolean;
  type: string;
  type_schema: string;
  comment: string | null;
  sequence: string | null;
}

/**
 * Kysely's PostgreSQL introspector, limited to the connection's own schema (the first of its search_path).
 * Kysely's own reads the tables of every schema in the database and calls functions that look each schema
 * up by name (`has_schema_privilege`, `pg_get_serial_sequence`): a schema another process drops meanwhile
 * fails the read with `schema "…" does not exist`. The migrator reads the tables before it takes its lock,
 * so a migration failed whenever another test file dropped its schema at that moment (CI, two files at a
 * time); in production, any schema dropped in the same database would do the same.
 */
export class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<SchemaMetadata>`select nspname as name from pg_catalog.pg_namespace`.execute(
      this.db,
    );
    return rows;
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    // Functions in the select list run only for the rows kept: this schema's.
    const { rows } = await sql<ColumnRow>`
      select c.relname as table, c.relkind as kind, n.nspname as schema, a.attname as column,
        a.attnotnull as not_null, a.atthasdef as has_default, t.typname as type, tn.nspname as type_schema,
        col_description(a.attrelid, a.attnum) as comment,
        pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) as sequence
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum >= 0 and not a.attisdropped
      join pg_catalog.pg_type t on t.oid = a.atttypid
      join pg_catalog.pg_namespace tn on tn.oid = t.typnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname, a.attnum`.execute(this.db);
    const internal = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && internal.has(row.table)) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.kind === 'v', columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.sequence !== null,
        comment: row.comment ?? undefined,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** PostgreSQL as Kysely speaks it, with the introspector above. */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }

  override createAdapter(): PostgresAdapter {
    return new PollingLockAdapter();
  }
}

/** Kysely's migration lock id (its PostgresAdapter's), so releases of either kind match. */
const MIGRATION_LOCK_ID = '3853314791062309107';

/**
 * Kysely's PostgreSQL adapter, but a process waiting for the migration lock asks for it every 100 ms
 * (pg_try_advisory_lock) instead of waiting inside a statement. A statement that waits holds a
 * snapshot, and `CREATE INDEX CONCURRENTLY` (a migration run outside a transaction, db/migrate.ts)
 * waits for every older snapshot to end: a second process waiting for the lock while the first built
 * such an index was a deadlock ("deadlock detected"). Between two asks the waiting session holds none.
 */
class PollingLockAdapter extends PostgresAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    for (;;) {
      const { rows } = await sql<{
        got: boolean;
      }>`select pg_try_advisory_lock(${sql.lit(MIGRATION_LOCK_ID)}::bigint) as got`.execute(db);
      if (rows[0]?.got) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`select pg_advisory_unlock(${sql.lit(MIGRATION_LOCK_ID)}::bigint)`.execute(db);
  }
}
