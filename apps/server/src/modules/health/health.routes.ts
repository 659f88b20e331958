import { timingSafeEqual } from 'node:crypto';
import type { App, AppContext } from '../../app-context.ts';
import { pingDatabase } from './health.repository.ts';

export function healthRoutes(app: App, { db, databaseKind, ready, metrics, config }: AppContext): void {
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

  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness check',
        description:
          "Answers 200 with status 'ready' when this process can do its work: the database answers, the data folder takes writes, Redis answers (when REDIS_URL is set) and Chromium is there (in a process that runs jobs). Otherwise 503 with status 'not ready' and, per part, 'ok', 'not used' or what is wrong. Point a load balancer's or orchestrator's readiness probe here.",
      },
    },
    async (_req, reply) => {
      const { ready: isReady, checks } = await ready();
      return reply.status(isReady ? 200 : 503).send({ status: isReady ? 'ready' : 'not ready', checks });
    },
  );

  // /metrics on the public port only with METRICS_TOKEN, to a request bearing it; else it is served on
  // METRICS_PORT alone (modules/health/ops-server.ts), or nowhere.
  const token = config.metricsToken;
  if (token)
    app.get(
      '/metrics',
      {
        schema: {
          tags: ['health'],
          summary: 'Prometheus metrics',
          description:
            'Prometheus text format. Served here only when METRICS_TOKEN is set, to a request with `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); METRICS_PORT serves it without a token on a port of its own.',
        },
      },
      async (req, reply) => {
        if (!bearerMatches(req.headers.authorization, token))
          return reply.status(401).header('www-authenticate', 'Bearer').send({
            error: 'Unauthorized',
            message: '/metrics needs Authorization: Bearer <METRICS_TOKEN>.',
          });
        const { contentType, body } = await metrics();
        return reply.type(contentType).send(body);
      },
    );
}

/** Whether `header` is `Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
