import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // What the job is about, for finding an owner's latest job of a sort (an import of notices: 'notice').
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_after', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('locked_by', 'text')
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_claim_idx').on('jobs').columns(['status', 'run_after']).execute();
  await db.schema
    .createIndex('jobs_owner_subject_idx')
    .on('jobs')
    .columns(['owner_id', 'kind', 'subject', 'id'])
    .execute();

  // Files uploaded for import: who uploaded them and under what name, so a stored name is only ever the uploader's.
  await db.schema
    .createTable('uploads')
    .addColumn('stored_name', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // The rows an import skipped and why, kept for its downloadable report.
  await db.schema
    .createTable('import_problems')
    .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('row_number', 'integer', (c) => c.notNull())
    .addColumn('column_name', 'text', (c) => c.notNull())
    .addColumn('problem', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('import_problems_job_idx')
    .on('import_problems')
    .columns(['job_id', 'row_number'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_problems').execute();
  await db.schema.dropTable('uploads').execute();
  await db.schema.dropTable('jobs').execute();
}
