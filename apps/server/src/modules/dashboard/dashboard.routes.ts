import type { App, AppContext } from '../../app-context.ts';

export function dashboardRoutes(app: App, { dashboard, guards }: AppContext): void {
  app.get('/api/dashboard', { onRequest: guards.requireUser }, (req) => dashboard.info(req.user._id));
}
