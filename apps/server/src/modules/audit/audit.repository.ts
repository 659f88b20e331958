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
 * The actor's username is copied in as it is now, so the entry keeps the name it was done under.
 */
export async function appendAudit(db: Database, fact: AuditFact): Promise<void> {
  const actorId = fact.actorId;
  await db
    .insertInto('audit_log')
    .values({
      id: newId(),
      at: nowIso(),
      actor_id: actorId,
      actor_username:
        actorId === null
          ? null
          : (eb) => eb.selectFrom('users').select('users.username').where('users.id', '=', actorId),
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
  /** The actor's username and name now. */
  actor_current_username: string | null;
  actor_name: string | null;
};

/**
 * Newest first. Filters use the (action, id) and (actor_id, id) indexes; `after` and `before` are instants
 * (ISO), `before` exclusive. The
 * actor filter matches the username an entry was written under and the actor's username now, so a
 * renamed user's entries are found by either name.
 */
export async function listAudit(
  db: Database,
  { page, limit, action, actor }: AuditQuery,
  { after, before }: { after?: string; before?: string } = {},
): Promise<{ rows: AuditRow[]; total: number }> {
  let query = db.selectFrom('audit_log').leftJoin('users', 'users.id', 'audit_log.actor_id');
  if (action) query = query.where('audit_log.action', '=', action);
  if (actor)
    query = query.where((eb) =>
      eb.or([eb('users.username', '=', actor), eb('audit_log.actor_username', '=', actor)]),
    );
  if (after) query = query.where('audit_log.at', '>=', after);
  if (before) query = query.where('audit_log.at', '<', before);
  const [rows, count] = await Promise.all([
    query
      .selectAll('audit_log')
      .select(['users.username as actor_current_username', 'users.name as actor_name'])
      .orderBy('audit_log.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}
