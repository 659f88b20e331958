import type { App, AppContext } from '../../app-context.ts';
import { pingDatabase } from './health.repository.ts';

export function healthRoutes(app: App, { db, databaseKind }: AppContext): void {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Health check',
        description:
          "Answers 200 with status 'ok' and the database kind while the database is reachable, 503 otherwise. Point a load balancer's health check here.",
      },
    },
    async (_req, reply) => {
      try {
        await pingDatabase(db);
        return { status: 'ok', database: databaseKind };
      } catch {
        return reply.status(503).send({ status: 'unavailable', database: databaseKind });
      }
    },
  );
}
