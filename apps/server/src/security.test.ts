import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type SignedIn, type TestApp } from './test/app.ts';

/** Routes anyone may call: signing in and up, password reset, signed PDF links, provider webhooks, health, API docs. */
const publicRoutes = new Set([
  'GET /api/health',
  // Readiness for the load balancer: which parts are up, never a secret (ready-metrics.test.ts).
  'GET /api/ready',
  'GET /api/docs',
  'GET /api/docs/json',
  'GET /api/docs/yaml',
  'GET /api/docs/static/*',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/forgot-password',
  'PUT /api/auth/reset-password/:token',
  'GET /api/pdf/:kind/:id',
  'GET /api/webhooks/whatsapp',
  'POST /api/webhooks/whatsapp',
  'POST /api/webhooks/sms/msg91',
  // Providers sign their own calls (SNS signature, SendGrid key, Postmark password): checked in email-webhooks.routes.test.ts.
  'POST /api/webhooks/email',
  // The notice page before its check: what it may show to anyone with the link, and the check itself
  // (notice-pages.routes.test.ts: nothing personal, limits, the lock). Past the check a page token is
  // needed: those routes answer 401 here too.
  'GET /api/public/notices/:code',
  'POST /api/public/notices/:code/verify',
  // The verification page of a notice (issue 30): what anyone may check of a served notice, nothing
  // else personal (verify.test.ts), and a dropped file compared by its hash; rate limited per address.
  'GET /api/public/verify/:code',
  'POST /api/public/verify',
]);

const someId = '0190c000-0000-7000-8000-000000000999';
const concrete = (url: string) =>
  url.replace(':type', 'notice').replace(':kind', 'notice').replace(':token', 'x').replace(/:\w+/g, someId);

let t: TestApp;
let user: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  await signUp(t.app, 'admin');
  user = await signUp(t.app, 'user');
});
afterAll(async () => t.close());

describe('every API route', () => {
  it('answers 401 without a token, except the public ones', async () => {
    const guarded = t.app.routeTable.filter((r) => r.url.startsWith('/api') || r.url === '/temporary-upload');
    const checked = guarded.filter((r) => !publicRoutes.has(`${r.method} ${r.url}`));
    expect(checked.length).toBeGreaterThan(30);
    for (const route of checked) {
      const res = await t.app.inject({
        method: route.method as 'GET',
        url: concrete(route.url),
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
    }
  });

  it('answers 401 without a token to the HEAD beside every guarded GET', async () => {
    const reads = t.app.routeTable.filter(
      (r) => r.method === 'GET' && r.url.startsWith('/api') && !publicRoutes.has(`GET ${r.url}`),
    );
    expect(reads.length).toBeGreaterThan(15);
    for (const route of reads) {
      const res = await t.app.inject({ method: 'HEAD', url: concrete(route.url) });
      expect(res.statusCode, `HEAD ${route.url}`).toBe(401);
    }
  });

  it('answers 403 to a plain user for every template write', async () => {
    const writes = t.app.routeTable.filter((r) => /templates/i.test(r.url) && r.method !== 'GET');
    expect(writes.length).toBeGreaterThanOrEqual(3);
    for (const route of writes) {
      const res = await t.app.inject({
        method: route.method as 'PUT',
        url: concrete(route.url),
        headers: user.headers,
        payload: { value: 'x', html: 'x', kind: 'notice' },
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
    }
  });
});
