import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/app.ts';

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
}

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes?: Record<string, Record<string, unknown>> };
}

const isDocsRoute = (url: string) => url === '/api/docs' || url.startsWith('/api/docs/');
const isApiRoute = (url: string) => url.startsWith('/api/') || url === '/temporary-upload';
/** Fastify writes `/api/campaigns/:id`, OpenAPI `/api/campaigns/{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

let t: TestApp;
let webDist: string;
let doc: OpenApiDocument;
const operation = (method: string, url: string): Operation | undefined =>
  doc.paths[openApiPath(url)]?.[method.toLowerCase()];

beforeAll(async () => {
  // A built web app, so its static-file routes exist and can be seen to stay out of the description.
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-web-'));
  fs.mkdirSync(path.join(webDist, 'static'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>app</title>');
  fs.writeFileSync(path.join(webDist, 'static', 'app.js'), '');
  t = await createTestApp({ WEB_DIST: webDist });
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json<OpenApiDocument>();
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('the API description at /api/docs/json', () => {
  it('is an OpenAPI 3 document that describes bearer sessions', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes?.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
  });

  it('describes every API route with a description', () => {
    const routes = t.app.routeTable.filter((r) => isApiRoute(r.url) && !isDocsRoute(r.url));
    expect(routes.length).toBeGreaterThan(30);
    const undescribed = routes
      .filter((r) => !operation(r.method, r.url)?.description?.trim())
      .map((r) => `${r.method} ${r.url}`);
    expect(undescribed, 'routes missing from /api/docs/json or without a description').toEqual([]);
  });

  it('leaves out the web app, its static files and the docs pages themselves', () => {
    expect(t.app.routeTable.some((r) => r.url === '/index.html')).toBe(true);
    const stray = Object.keys(doc.paths).filter((p) => !isApiRoute(p) || isDocsRoute(p));
    expect(stray).toEqual([]);
  });

  it('asks for the bearer token exactly where a route needs a session', () => {
    const bearer = [{ bearerAuth: [] }];
    expect(operation('GET', '/api/dashboard')?.security).toEqual(bearer);
    expect(operation('PUT', '/api/emailTemplates/update/:id')?.security).toEqual(bearer);
    expect(operation('PUT', '/api/emailTemplates/update/:id')?.description).toMatch(/Only an ADMIN/);
    expect(operation('POST', '/temporary-upload')?.security).toEqual(bearer);
    for (const open of ['POST /api/auth/login', 'GET /api/health', 'GET /api/pdf/:kind/:id']) {
      const [method, url] = open.split(' ') as [string, string];
      expect(operation(method, url)?.security, open).toBeUndefined();
    }
  });

  it('takes request shapes from the routes’ zod schemas, multipart forms included', () => {
    const login = operation('POST', '/api/auth/login')?.requestBody?.content['application/json'];
    expect(Object.keys(login?.schema.properties ?? {})).toEqual(['username', 'password', 'remember']);
    const upload = operation('POST', '/api/notices/upload-import-file')?.requestBody?.content;
    expect(upload?.['multipart/form-data']?.schema.properties).toMatchObject({
      file: { type: 'string', format: 'binary' },
      file_name: { type: 'string' },
    });
  });
});

describe('the API description page at /api/docs', () => {
  it('answers Swagger UI as HTML under the app’s CSP, loading only its own scripts', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('swagger-ui');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self';/);
    // script-src 'self' refuses inline scripts: every script the page has must be a file of its own.
    const scripts = page.body.match(/<script\b[^>]*>[^<]*<\/script>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toMatch(/^<script src="[^"]+"[^>]*>\s*<\/script>$/);

    const bundle = await t.app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
  });
});
