import type { AuditAction, AuditQuery } from '@notice-desk/contract/audit';
import type { Database } from '../../db/database.ts';
import type { AuditLogTable } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { nowIso } from '../../lib/time.ts';

export interface AuditFact {
  /** Who did it: a user id, or null for the admin command line. */
  actorId: string | null;
  action: AuditAction;
  subjectType: string;
  subjectId?: string | null;
  summary: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/**
 * Appends one entry. Call it with the transaction that made the change, so the change and its entry
 * are written together or not at all. The table refuses updates and deletes (database triggers).
 */
export async function appendAudit(db: Database, fact: AuditFact): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: newId(),
      at: nowIso(),
      actor_id: fact.actorId,
      action: fact.action,
      subject_type: fact.subjectType,
      subject_id: fact.subjectId ?? null,
      summary: fact.summary.slice(0, 500),
      before: fact.before ? JSON.stringify(fact.before) : null,
      after: fact.after ? JSON.stringify(fact.after) : null,
    })
    .execute();
}

export type AuditRow = AuditLogTable & {
  actor_username: string | null;
  actor_name: string | null;
};

/** Newest first. Filters use the (action, id) and (actor_id, id) indexes; days are UTC and inclusive. */
export async function listAudit(
  db: Database,
  { page, limit, action, actor, from, to }: AuditQuery,
): Promise<{ rows: AuditRow[]; total: number }> {
  let query = db.selectFrom('audit_log').leftJoin('users', 'users.id', 'audit_log.actor_id');
  if (action) query = query.where('audit_log.action', '=', action);
  if (actor) query = query.where('users.username', '=', actor);
  if (from) query = query.where('audit_log.at', '>=', `${from}T00:00:00.000Z`);
  if (to) query = query.where('audit_log.at', '<=', `${to}T23:59:59.999Z`);
  const [rows, count] = await Promise.all([
    query
      .selectAll('audit_log')
      .select(['users.username as actor_username', 'users.name as actor_name'])
      .orderBy('audit_log.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}
