import { jobList, jobListQuery } from '@notice-desk/contract/jobs';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';

/** The ADMIN's Jobs screen. A plain user is answered 403, no session 401. */
export function jobsRoutes(app: App, { jobList: list, guards }: AppContext): void {
  guardRoutes(app, guards.requireAdmin);

  app.get(
    '/api/jobs',
    {
      schema: {
        tags: ['jobs'],
        summary: 'List jobs',
        description:
          "ADMIN only. Every user's imports and sends as jobs, newest first, a page at a time: kind, state (queued, running, done, failed), attempts of the most allowed, the last error, progress and age; `kind` and `state` narrow the list. With the server's TIME_ZONE, in which the screen shows times.",
        querystring: jobListQuery,
        response: { 200: jobList },
      },
    },
    (req) => list.list(req.query),
  );
}
