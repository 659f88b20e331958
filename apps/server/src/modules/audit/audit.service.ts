import type { AuditAction, AuditEntry, AuditList, AuditQuery } from '@notice-desk/contract/audit';
import type { Database } from '../../db/database.ts';
import { DeepPages, PAGE_STRIDE } from '../../lib/deep-pages.ts';
import { startOfDayIn } from '../../lib/time.ts';
import * as audit from './audit.repository.ts';

const parse = (json: string | null): Record<string, unknown> | null =>
  json === null ? null : (JSON.parse(json) as Record<string, unknown>);

function toEntry(row: audit.AuditRow): AuditEntry {
  return {
    _id: row.id,
    at: row.at,
    actor: row.actor_id
      ? {
          _id: row.actor_id,
          username: row.actor_current_username ?? row.actor_username ?? '',
          name: row.actor_name ?? '',
          usernameThen: row.actor_username,
        }
      : null,
    action: row.action as AuditAction,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    summary: row.summary,
    before: parse(row.before),
    after: parse(row.after),
  };
}

/** The audit log, for ADMINs (the route checks). Entries are written by the services that act. */
export class AuditService {
  /** Deep pages per filter. */
  private readonly deepPages: DeepPages<string>;

  constructor(
    private readonly db: Database,
    /** TIME_ZONE: the from and to days are days there, as the screen shows times there. */
    private readonly timeZone = 'Asia/Kolkata',
    pageStride = PAGE_STRIDE,
  ) {
    this.deepPages = new DeepPages(pageStride);
  }

  async list(query: AuditQuery): Promise<AuditList> {
    const { page, limit, action, actor } = query;
    const filter: audit.AuditFilter = {
      action,
      actor,
      after: query.from && startOfDayIn(query.from, this.timeZone),
      before: query.to && startOfDayIn(query.to, this.timeZone, 1),
    };
    const { total, version } = await audit.auditState(this.db, filter);
    const offset = (page - 1) * limit;
    const rows =
      offset >= total
        ? []
        : await this.deepPages.page(JSON.stringify(filter), version, offset, limit, {
            fromTop: (skip, size) => audit.listAudit(this.db, filter, { offset: skip, limit: size }),
            boundaries: (stride) => audit.auditBoundaries(this.db, filter, stride),
            fromKey: (fromId, skip, size) =>
              audit.listAudit(this.db, filter, { offset: skip, limit: size, fromId }),
          });
    return { items: rows.map(toEntry), total, timeZone: this.timeZone };
  }
}

/** The fields an edit changed, before and after, so the log holds what changed and nothing else. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const changed = Object.keys(after).filter((key) => before[key] !== after[key]);
  return {
    before: Object.fromEntries(changed.map((key) => [key, before[key]])),
    after: Object.fromEntries(changed.map((key) => [key, after[key]])),
  };
}
