import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './app-context.ts';
import type { Config } from './config/env.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { funnelRoutes } from './modules/funnel/funnel.routes.ts';
import { evidenceRoutes } from './modules/evidence/evidence.routes.ts';
import { archiveRoutes } from './modules/archive/archive.routes.ts';
import { exportsRoutes } from './modules/exports/exports.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { importsRoutes } from './modules/imports/imports.routes.ts';
import { startOpsServer, type OpsServer } from './modules/health/ops-server.ts';
import { jobsRoutes } from './modules/jobs/jobs.routes.ts';
import { noticePagesRoutes } from './modules/notice-pages/notice-pages.routes.ts';
import { verifyRoutes } from './modules/verify/verify.routes.ts';
import { pdfsRoutes } from './modules/pdfs/pdfs.routes.ts';
import { postRoutes } from './modules/post/post.routes.ts';
import { recordsRoutes } from './modules/records/records.routes.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { legalBasisRoutes } from './modules/service-dates/legal-basis.routes.ts';
import { sendingRoutes } from './modules/sending/sending.routes.ts';
import { failedRowsRoutes } from './modules/sending/failed-rows.routes.ts';
import { fallbackRoutes } from './modules/fallback/fallback.routes.ts';
import { templatesRoutes } from './modules/templates/templates.routes.ts';
import { approvedTemplatesRoutes } from './modules/whatsapp-approved/approved-templates.routes.ts';
import { smsTemplatesRoutes } from './modules/sms-templates/sms-templates.routes.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { webhooksRoutes } from './modules/sending/webhooks.routes.ts';
import { emailWebhooksRoutes } from './modules/bounces/email-webhooks.routes.ts';
import { registerApiDocs } from './plugins/api-docs.ts';
import { createGuards } from './plugins/authenticate.ts';
import { registerDiskRoom } from './plugins/disk-room.ts';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './plugins/errors.ts';
import { trackInFlight } from './plugins/in-flight.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerRequestInput } from './plugins/request-input.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { createServices } from './services.ts';
import { httpRequestSeconds } from './lib/metrics.ts';
import type { PdfRenderer } from './lib/pdf/renderer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: { method: string; url: string }[];
    /** Resolves once work requests started and did not wait for (reset mails) has ended. */
    settled(): Promise<void>;
  }
}

/** JSON bodies above this are refused with 413; routes that take more (templates, uploads) say so themselves. */
const JSON_BODY_LIMIT = 1024 * 1024;

/** Builds the whole server (database migrated, routes registered) without listening. */
export async function buildApp(
  config: Config,
  options: {
    logStream?: NodeJS.WritableStream;
    /** A PDF renderer the caller owns and closes: the tests share one per file (test/app.ts). */
    renderer?: PdfRenderer;
  } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
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
    // TRUST_PROXY: behind a load balancer, the client's address is read from X-Forwarded-For.
    trustProxy: trustProxy(config.trustProxy),
    // JSON keyed __proto__ or constructor.prototype is refused (registerRequestInput says so in words).
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    // What Node's parser and Fastify's router refuse before any route still answers in the one shape.
    clientErrorHandler,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();

  // Every route, as registered: the security tests walk it (and so will an API description).
  const routeTable: { method: string; url: string }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      if (method !== 'HEAD') routeTable.push({ method, url: route.url });
  });
  const inFlight = trackInFlight(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON only: a text/plain body is refused with 415 rather than parsed as a string.
  app.removeContentTypeParser('text/plain');
  registerRequestInput(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Latency by route pattern (never the URL, whose ids would make a series per record): /metrics.
  app.addHook('onResponse', async (request, reply) => {
    httpRequestSeconds.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    );
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

  const services = await createServices(config, app.log, { renderer: options.renderer });
  app.decorate('settled', () => services.auth.mailsSettled());
  // Closing waits for handlers still at work (even for clients that hung up) before closing what they use.
  app.addHook('onClose', async () => {
    await inFlight.idle();
    await services.close();
  });
  // METRICS_PORT: /metrics, /api/health and /api/ready on a port of their own (modules/health/ops-server.ts).
  const { metricsPort } = config;
  if (metricsPort !== undefined) {
    let ops: OpsServer | undefined;
    app.addHook('onReady', async () => {
      ops = await startOpsServer(services, metricsPort, config.host);
    });
    app.addHook('preClose', async () => ops?.close());
  }
  if (config.runJobs)
    app.addHook('onReady', async () => {
      services.jobs.start();
      services.retention.start();
      services.fallback.start();
      services.bounceMailbox?.start();
    });
  registerDiskRoom(app, services.store);
  await app.register(multipart, {
    limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 10, parts: 12, fieldSize: 10_000 },
  });
  await registerRateLimit(app, { perMinute: config.rateLimitPerMinute, redis: services.redis });
  const context: AppContext = { ...services, guards: createGuards(services.auth) };
  await registerApiDocs(app, context.guards);

  // Each routes file in a plugin of its own: the guards it declares (guardRoutes) cover its routes only.
  for (const routes of [
    healthRoutes,
    authRoutes,
    auditRoutes,
    usersRoutes,
    jobsRoutes,
    recordsRoutes,
    searchRoutes,
    uploadsRoutes,
    importsRoutes,
    campaignsRoutes,
    templatesRoutes,
    legalBasisRoutes,
    approvedTemplatesRoutes,
    smsTemplatesRoutes,
    pdfsRoutes,
    sendingRoutes,
    failedRowsRoutes,
    webhooksRoutes,
    exportsRoutes,
    postRoutes,
    fallbackRoutes,
    evidenceRoutes,
    archiveRoutes,
    dashboardRoutes,
    funnelRoutes,
    emailWebhooksRoutes,
    noticePagesRoutes,
    verifyRoutes,
  ])
    await app.register(async (folder) => routes(folder, context));
  await registerWebApp(app, config.webDist);
  return app;
}

/** A hop count as the function proxy-addr makes of one (Fastify's types take no number), else as given. */
function trustProxy(
  setting: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/**
 * Reset tokens travel in the path, PDF-link signatures and MSG91's webhook token in the query; none
 * reaches a log line.
 */
function maskSecrets(url: string): string {
  return url
    .replace(/(\/reset-password\/)[^/?#]+/, '$1[redacted]')
    .replace(/([?&]signature=)[^&#]+/, '$1[redacted]')
    .replace(/([?&]token=)[^&#]+/, '$1[redacted]');
}
