import type { App, AppContext } from '../../app-context.ts';

export function dashboardRoutes(app: App, { dashboard, guards }: AppContext): void {
  app.get(
    '/api/dashboard',
    {
      onRequest: guards.requireUser,
      schema: {
        tags: ['dashboard'],
        summary: 'Dashboard totals',
        description:
          'Answers the caller’s totals (credit cards, notices, campaigns of each kind) and their latest e-mail and WhatsApp deliveries with status and error.',
      },
    },
    (req) => dashboard.info(req.user._id),
  );
}
