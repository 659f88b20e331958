import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
// Record fields are columns named by the API's field keys (Kysely quotes every identifier).
const creditCardFields = [
  'hub',
  'location',
  'aanNo',
  'maskNo',
  'product',
  'activity',
  'custName',
  'customerAddress',
  'emailId',
  'custMobileNo',
  'noticeBalance',
  'overdueAmount',
  'clmName',
  'clmNo',
  'limit',
  'amountExceededCreditLimit',
  'conciliatorName',
  'campDate',
  'campLocation',
  'noticeDate',
  'referenceNo',
];
const noticeFields = [
  'loanNo',
  'custName',
  'product',
  'branchAddress',
  'hub',
  'region',
  'callManager',
  'clmMob',
  'npaStage',
  'amtfin',
  'emiAmt',
  'tenure',
  'disbursalDate',
  'totalOverdueAmt',
  'address',
  'customerName2',
  'address3',
  'address4',
  'city',
  'state',
  'zipCode',
  'modelNo',
  'chassisNo',
  'engineNo',
  'regdNo',
  'concilator',
  'bankAddress',
  'conciliationDate',
  'noticeSentOn',
  'uniqueId',
  'allocationDated',
  'legalCaseId',
  'emailId',
  'custMobileNo',
  'legalManager',
  'remark',
  'modeOfDispatch',
];

async function createRecordTable(db: Kysely<any>, table: string, fields: string[]): Promise<void> {
  let builder = db.schema
    .createTable(table)
    .addColumn('id', 'text', (c) => c.primaryKey())
    // No foreign key on owner_id: an import writes its rows with an empty owner, invisible to every
    // owner-scoped query, and hands them to their owner in one short transaction when the file is done.
    // Rows still belong to a user through their campaign, which cascades.
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id').onDelete('cascade'));
  for (const field of fields) builder = builder.addColumn(field, 'text', (c) => c.notNull().defaultTo(''));
  await builder
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Ids are time-ordered (UUIDv7), so (owner_id, id) is the owner's records in the order they were created.
  await db.schema.createIndex(`${table}_owner_created_idx`).on(table).columns(['owner_id', 'id']).execute();
  await db.schema.createIndex(`${table}_campaign_idx`).on(table).columns(['campaign_id', 'id']).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('campaigns')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('imported_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped_count', 'integer', (c) => c.notNull().defaultTo(0))
    // 'importing' while an import writes its rows (the campaign is hidden), 'ready' once it is whole.
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ready'))
    .addColumn('job_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('campaigns_owner_kind_idx')
    .on('campaigns')
    .columns(['owner_id', 'kind', 'id'])
    .execute();
  // One 'Manual entries' campaign per owner and kind, whoever creates it first.
  await db.schema
    .createIndex('campaigns_manual_key')
    .on('campaigns')
    .columns(['owner_id', 'kind'])
    .unique()
    .where(sql.ref('source'), '=', 'manual')
    .execute();

  // Per owner and kind: how many records, and a version bumped by every write (list caches key on it).
  await db.schema
    .createTable('record_counts')
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('record_counts_pk', ['owner_id', 'kind'])
    .execute();

  await createRecordTable(db, 'credit_cards', creditCardFields);
  await createRecordTable(db, 'notices', noticeFields);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notices').execute();
  await db.schema.dropTable('credit_cards').execute();
  await db.schema.dropTable('record_counts').execute();
  await db.schema.dropTable('campaigns').execute();
}
