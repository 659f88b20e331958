import { auditQuery } from '@notice-desk/contract/audit';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';

export function auditRoutes(app: App, { audit, guards }: AppContext): void {
  guardRoutes(app, guards.requireAdmin);
  app.get(
    '/api/audit',
    {
      schema: {
        summary: 'Browse the audit log',
        description:
          'ADMIN only. Who created, edited, deleted, imported, sent, exported and changed templates, when and with what (before and after for edits), newest first; filter by action, actor username and date range.',
        tags: ['audit'],
        querystring: auditQuery,
      },
    },
    (req) => audit.list(req.query),
  );
}
