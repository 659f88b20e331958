import { randomUUID } from 'node:crypto';
import path from 'node:path';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './app-context.ts';
import type { Config } from './config/env.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createMailer } from './lib/mailer.ts';
import { resolveSecret } from './lib/secret.ts';
import { FailureThrottle } from './lib/throttle.ts';
import { SessionTokens } from './lib/tokens.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { recordsRoutes } from './modules/records/records.routes.ts';
import { RecordsService } from './modules/records/records.service.ts';
import { createGuards } from './plugins/authenticate.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerWebApp } from './plugins/web-app.ts';

/** JSON bodies above this are refused with 413; routes that take more (templates, uploads) say so themselves. */
const JSON_BODY_LIMIT = 1024 * 1024;

/** Builds the whole server (database migrated, routes registered) without listening. */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
      serializers: {
        req: (req) => ({ method: req.method, url: maskSecrets(req.url), remoteAddress: req.ip }),
      },
    },
    bodyLimit: JSON_BODY_LIMIT,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: false,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON only: a text/plain body is refused with 415 rather than parsed as a string.
  app.removeContentTypeParser('text/plain');
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });

  const { db, kind } = await openDatabase(config);
  app.addHook('onClose', async () => db.destroy());
  await migrateToLatest(db);

  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
  });
  app.addHook('onClose', async () => mailer.close());

  const auth = new AuthService({
    db,
    tokens: new SessionTokens(resolveSecret(config.jwtSecret, config.dataDir)),
    mailer,
    loginThrottle: new FailureThrottle(config.loginMaxAttempts, config.loginWindowSeconds * 1000),
    sessionTtlSeconds: config.sessionTtlSeconds,
    rememberTtlSeconds: config.rememberTtlSeconds,
    appUrl: config.appUrl,
  });
  const context: AppContext = {
    config,
    db,
    databaseKind: kind,
    mailer,
    auth,
    records: new RecordsService(db),
    guards: createGuards(auth),
  };

  healthRoutes(app, context);
  authRoutes(app, context);
  recordsRoutes(app, context);
  await registerWebApp(app, config.webDist);
  return app;
}

/** Reset tokens travel in the path; they never reach a log line. */
function maskSecrets(url: string): string {
  return url.replace(/(\/reset-password\/)[^/?#]+/, '$1[redacted]');
}
