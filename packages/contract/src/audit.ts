import { z } from 'zod';
import { pagingQuery } from './paging.ts';

/** What staff did, in the product's words. Each action names the kind of thing it touched. */
export const auditActions = [
  'record.create',
  'record.update',
  'record.delete',
  'record.delete-all',
  'campaign.import',
  'campaign.delete',
  'notice.send',
  'notice.test-send',
  'export.report',
  'export.zip',
  'export.evidence',
  'template.update',
  'template.variant.create',
  'sms-template.update',
  'legal-basis.set',
  'legal-basis.clear',
  'user.register',
  'user.password-reset',
  'user.create',
  'user.promote',
  'user.rename',
  'user.password-change',
  'user.disable',
  'user.enable',
  'user.demote',
  'user.sessions-end',
  'notice-link.revoke',
  'notice-response.handled',
  'post.articles',
  'post.tracking',
  'post.proof',
  'fallback.ladder',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** Labels the audit screen shows for each action. */
export const auditActionLabels: Record<AuditAction, string> = {
  'record.create': 'Created a record',
  'record.update': 'Edited a record',
  'record.delete': 'Deleted a record',
  'record.delete-all': 'Deleted all records',
  'campaign.import': 'Imported a file',
  'campaign.delete': 'Deleted a campaign',
  'notice.send': 'Sent notices',
  'notice.test-send': 'Sent a test notice',
  'export.report': 'Exported a report',
  'export.zip': 'Exported PDFs',
  'export.evidence': 'Downloaded an evidence bundle',
  'template.update': 'Changed a template',
  'template.variant.create': 'Added a template language',
  'sms-template.update': 'Set an SMS DLT template',
  'legal-basis.set': 'Set a legal basis',
  'legal-basis.clear': 'Cleared a legal basis',
  'user.register': 'Signed up',
  'user.password-reset': 'Reset a password',
  'user.create': 'Created a user',
  'user.promote': 'Promoted to ADMIN',
  'user.rename': 'Changed name or username',
  'user.password-change': 'Changed a password',
  'user.disable': 'Disabled a user',
  'user.enable': 'Enabled a user',
  'user.demote': 'Made a plain user',
  'user.sessions-end': 'Ended sessions',
  'notice-link.revoke': 'Revoked a notice link',
  'notice-response.handled': 'Marked a response handled',
  'post.articles': 'Gave article numbers',
  'post.tracking': 'Imported post tracking',
  'post.proof': 'Uploaded an AD card or returned envelope',
  'fallback.ladder': 'Set a fallback ladder',
};

const isoDate = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${name} must be a date written YYYY-MM-DD.` })
    .optional();

/**
 * GET /api/audit: newest first, filtered by action, actor (a username, exact: the one an entry was
 * written under or the actor's username now) and date range (days in the server's TIME_ZONE, inclusive).
 */
export const auditQuery = pagingQuery({ limit: 25, limitMax: 100 }).extend({
  action: z.enum(auditActions, { error: 'action must be one of the audit actions.' }).optional(),
  actor: z.string().trim().max(100, { error: 'actor must be at most 100 characters.' }).optional(),
  from: isoDate('from'),
  to: isoDate('to'),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export interface AuditEntry {
  _id: string;
  /** ISO time. */
  at: string;
  /**
   * Who did it (null for the admin command line): the user's id, username and name now, and the username
   * the entry was written under (null on entries from before it was kept).
   */
  actor: { _id: string; username: string; name: string; usernameThen: string | null } | null;
  action: AuditAction;
  /** 'notice', 'credit-card', 'campaign', 'template', 'user'. */
  subjectType: string;
  subjectId: string | null;
  /** One line a person reads: 'Notice for Ravi Kumar', '3 notices by e-mail and WhatsApp'. */
  summary: string;
  /** Field values before and after, for edits; the new values for creations; what was done, otherwise. */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface AuditList {
  items: AuditEntry[];
  total: number;
  /** The server's TIME_ZONE (Asia/Kolkata): times are shown, and from/to days read, in it. */
  timeZone: string;
}
