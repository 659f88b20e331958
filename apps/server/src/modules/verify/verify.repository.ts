import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { RecordKind, VerifyCodesTable } from '../../db/schema.ts';
import type { DeliveryRow } from '../sending/deliveries.repository.ts';

export type VerifyCodeRow = Selectable<VerifyCodesTable>;

/** What a provider took counts as served (sent, delivered, read); the outbox and failures served nothing. */
const SERVED = ['sent', 'delivered', 'read'] as const;

export type ServedDelivery = Pick<
  DeliveryRow,
  | 'id'
  | 'record_kind'
  | 'record_id'
  | 'channel'
  | 'status'
  | 'status_at'
  | 'created_at'
  | 'pdf_key'
  | 'pdf_sha256'
>;

/** The codes the records already have, by record id. */
export async function codesOfRecords(
  db: Database,
  kind: RecordKind,
  recordIds: string[],
): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  for (let i = 0; i < recordIds.length; i += 500) {
    const rows = await db
      .selectFrom('verify_codes')
      .select(['record_id', 'code'])
      .where('record_kind', '=', kind)
      .where('record_id', 'in', recordIds.slice(i, i + 500))
      .execute();
    for (const row of rows) codes.set(row.record_id, row.code);
  }
  return codes;
}

/**
 * Writes the codes of records that have none; a record given one meanwhile (two renders at once) keeps
 * the first: the unique index on (record_kind, record_id) makes the second insert do nothing.
 */
export async function insertCodes(db: Database, rows: VerifyCodeRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('verify_codes')
      .values(rows.slice(i, i + 200))
      .onConflict((oc) => oc.columns(['record_kind', 'record_id']).doNothing())
      .execute();
}

export function findCode(db: Database, code: string): Promise<VerifyCodeRow | undefined> {
  return db.selectFrom('verify_codes').selectAll().where('code', '=', code).executeTakeFirst();
}

const servedColumns = [
  'id',
  'record_kind',
  'record_id',
  'channel',
  'status',
  'status_at',
  'created_at',
  'pdf_key',
  'pdf_sha256',
] as const;

/** The record's served deliveries that carried a file, oldest first. */
export function servedDeliveriesOf(
  db: Database,
  kind: RecordKind,
  recordId: string,
): Promise<ServedDelivery[]> {
  return db
    .selectFrom('deliveries')
    .select(servedColumns)
    .where('record_kind', '=', kind)
    .where('record_id', '=', recordId)
    .where('status', 'in', SERVED)
    .where('pdf_sha256', 'is not', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The served deliveries whose file had this SHA-256, oldest first (at most `limit`). */
export function servedDeliveriesOfFile(db: Database, sha256: string, limit = 50): Promise<ServedDelivery[]> {
  return db
    .selectFrom('deliveries')
    .select(servedColumns)
    .where('pdf_sha256', '=', sha256)
    .where('status', 'in', SERVED)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** When each delivery was first served (its first sent, delivered or read event), by delivery id. */
export async function servedAtOf(db: Database, deliveryIds: string[]): Promise<Map<string, string>> {
  const at = new Map<string, string>();
  if (deliveryIds.length === 0) return at;
  const rows = await db
    .selectFrom('delivery_events')
    .select(['delivery_id', (eb) => eb.fn.min('at').as('at')])
    .where('delivery_id', 'in', deliveryIds.slice(0, 500))
    .where('status', 'in', SERVED)
    .groupBy('delivery_id')
    .execute();
  for (const row of rows) if (row.at) at.set(row.delivery_id, String(row.at));
  return at;
}
