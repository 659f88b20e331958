import type { AuditAction } from '@notice-desk/contract/audit';
import type { Database } from '../../db/database.ts';
import { idBoundaries } from '../../db/id-boundaries.ts';
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

/** Which entries a list shows: `after` and `before` are instants (ISO), `before` exclusive. */
export interface AuditFilter {
  action?: AuditAction | undefined;
  actor?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

/**
 * The entries the filter keeps. Filters use the (action, id) and (actor_id, id) indexes. The actor filter
 * matches the username an entry was written under and the actor's username now, so a renamed user's
 * entries are found by either name.
 */
function auditEntries(db: Database, { action, actor, after, before }: AuditFilter) {
  let query = db.selectFrom('audit_log').leftJoin('users', 'users.id', 'audit_log.actor_id');
  if (action) query = query.where('audit_log.action', '=', action);
  if (actor)
    query = query.where((eb) =>
      eb.or([eb('users.username', '=', actor), eb('audit_log.actor_username', '=', actor)]),
    );
  if (after) query = query.where('audit_log.at', '>=', after);
  if (before) query = query.where('audit_log.at', '<', before);
  return query;
}

/** A page of entries, newest first: `offset` rows on from the entry `fromId` (included) when given. */
export function listAudit(
  db: Database,
  filter: AuditFilter,
  { offset, limit, fromId }: { offset: number; limit: number; fromId?: string },
): Promise<AuditRow[]> {
  return auditEntries(db, filter)
    .$if(fromId !== undefined, (query) => query.where('audit_log.id', '<=', fromId!))
    .selectAll('audit_log')
    .select(['users.username as actor_current_username', 'users.name as actor_name'])
    .orderBy('audit_log.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The ids at positions 0, stride, 2·stride, … of the filtered entries, newest first. */
export function auditBoundaries(db: Database, filter: AuditFilter, stride: number): Promise<string[]> {
  return idBoundaries(db, auditEntries(db, filter), 'audit_log.id', stride);
}

/**
 * How many entries the filter keeps, and a version of that list. The log is only appended to, so a new
 * entry (a newer id) or a rename that moves entries in or out of an actor filter (the count) changes it.
 */
export async function auditState(
  db: Database,
  filter: AuditFilter,
): Promise<{ total: number; version: string }> {
  const row = await auditEntries(db, filter)
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('audit_log.id').as('newest')])
    .executeTakeFirst();
  const total = Number(row?.n ?? 0);
  return { total, version: `${total}:${row?.newest ?? ''}` };
}
