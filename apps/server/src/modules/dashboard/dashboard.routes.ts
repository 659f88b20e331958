import { mailDetailsQuery } from '@notice-desk/contract/dashboard';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';

export function dashboardRoutes(app: App, { dashboard, guards }: AppContext): void {
  guardRoutes(app, guards.requireUser);
  app.get(
    '/api/dashboard',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Dashboard totals',
        description:
          'Answers the caller’s totals (credit cards, notices, campaigns of each kind) and their latest e-mail and WhatsApp deliveries with status and error.',
      },
    },
    (req) => dashboard.info(req.user._id),
  );
  app.get(
    '/api/dashboard/mails',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Mails Details, paged',
        description:
          "The caller's e-mail and WhatsApp deliveries, newest first, a page at a time (limit up to 500, 20 when absent), with status and error; `status` keeps one status only (queued, outbox, sent, delivered, read, failed, bounced). Deliveries of archived records are left out. Answers the page's items and the total.",
        querystring: mailDetailsQuery,
      },
    },
    (req) => dashboard.mails(req.user._id, req.query),
  );
}
