import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Guard } from './authenticate.ts';

export const API_DOCS_PREFIX = '/api/docs';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A multipart route's form, for the API description only: such a route reads its body as a
     * stream, so Fastify has no body to validate and the route's schema cannot carry it.
     */
    multipartForm?: z.ZodObject;
  }
}

/** The module tags, in the order the description lists them. */
const tags = [
  { name: 'health', description: 'Whether this process and its database are up.' },
  { name: 'auth', description: 'Sign-up, sign-in, profile and passwords.' },
  { name: 'dashboard', description: 'The signed-in user’s totals.' },
  { name: 'records', description: 'Credit-card records and notices, one at a time or all of a kind.' },
  { name: 'uploads', description: 'Uploading an .xlsx file before importing it.' },
  { name: 'imports', description: 'Importing records from .xlsx files, and import progress and reports.' },
  { name: 'campaigns', description: 'Campaign history: one per imported file, plus Manual entries.' },
  { name: 'sending', description: 'Sending notices by e-mail and WhatsApp, and WhatsApp status webhooks.' },
  { name: 'exports', description: 'A campaign’s delivery report (.xlsx) and its PDFs (.zip).' },
  { name: 'pdfs', description: 'Notice PDFs: signed links and the template editor’s preview.' },
  { name: 'templates', description: 'WhatsApp and PDF Editor templates; only an ADMIN changes them.' },
  {
    name: 'notice-pages',
    description:
      'The public notice page of each record (no sign-in: a check gives a short token), and revoking it.',
  },
  { name: 'responses', description: 'Disputes and requests to settle or be called back, from notice pages.' },
];

/**
 * Serves the OpenAPI description of every route at /api/docs (Swagger UI) and /api/docs/json,
 * generated from the routes' own zod schemas. Register it before the routes: it collects them as
 * they are added. Which routes need a session is read from their guards, not written twice.
 */
export async function registerApiDocs(
  app: FastifyInstance,
  guards: { requireUser: Guard; requireAdmin: Guard },
): Promise<void> {
  const guarded = new Set<unknown>([guards.requireUser, guards.requireAdmin]);
  const transform: SwaggerTransform = (input) => {
    const { schema, url } = jsonSchemaTransform(input);
    const route: RouteOptions = input.route;
    const onRequest: unknown[] = [route.onRequest ?? []].flat();
    const form = route.config?.multipartForm;
    return {
      url,
      schema: {
        ...schema,
        ...(form && {
          consumes: ['multipart/form-data'],
          body: jsonSchemaTransform({ ...input, schema: { body: form } }).schema.body,
        }),
        ...(onRequest.some((hook) => guarded.has(hook)) && { security: [{ bearerAuth: [] }] }),
        ...(onRequest.includes(guards.requireAdmin) && {
          description: `${schema.description ?? ''} Only an ADMIN may call it; anyone else gets 403.`.trim(),
        }),
      },
    };
  };

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Notice Desk API',
        version: '1.0.0',
        description:
          'The API behind the Notice Desk back office: records, imports, campaigns, notice PDFs, ' +
          'sending by e-mail and WhatsApp, and templates. Every error answers ' +
          '`{ statusCode, code, message, error }`.',
      },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'The token that POST /api/auth/login answers, sent as `Authorization: Bearer <token>`.',
          },
        },
      },
      tags,
    },
    transform,
    transformObject: jsonSchemaTransformObject,
  });

  // The page loads only its own scripts and styles, so the app's strict CSP (script-src 'self') holds.
  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    uiConfig: { deepLinking: true, docExpansion: 'list' },
  });
}
