import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { SESSION_CACHE_MS } from './auth.service.ts';

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signUp(t.app, 'admin');
  await signUp(t.app, 'meera');
  await signUp(t.app, 'tarun');
  await signUp(t.app, 'kiran');
});
afterAll(async () => t.close());

const call = (method: 'POST' | 'GET', url: string, who?: SignedIn, app: FastifyInstance = t.app) =>
  app.inject({ method, url, headers: who?.headers ?? {} });
const works = async (who: SignedIn, app?: FastifyInstance) =>
  (await call('GET', '/api/dashboard', who, app)).statusCode;

async function signIn(username: string, remember = false): Promise<SignedIn> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password: 'pass-word-1', remember },
  });
  expect(res.statusCode).toBe(200);
  const { token, user } = res.json<{ token: string; user: { _id: string } }>();
  return { token, userId: user._id, headers: { authorization: `Bearer ${token}` } };
}

const auditOf = async (subject: SignedIn) => {
  const res = await call('GET', '/api/audit?action=user.sessions-end&limit=100', admin);
  return res
    .json<{ items: { subjectId: string; summary: string }[] }>()
    .items.filter((entry) => entry.subjectId === subject.userId);
};

describe('logout', () => {
  it('ends the session on the server: the same token, replayed, answers 401 at once', async () => {
    const meera = await signIn('meera');
    const other = await signIn('meera');
    expect(await works(meera)).toBe(200); // checked, so this process holds it in its cache
    const res = await call('POST', '/api/auth/logout', meera);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Logged out successfully.' });
    expect(await works(meera)).toBe(401);
    expect((await call('POST', '/api/auth/logout', meera)).statusCode).toBe(401);
    expect((await call('POST', '/api/auth/refresh', meera)).statusCode).toBe(401);
    // Only that sign-in ended.
    expect(await works(other)).toBe(200);
  });

  it('reaches another process on the same database within SESSION_CACHE_MS', async () => {
    const second = await buildApp(t.config);
    try {
      const meera = await signIn('meera');
      expect(await works(meera, second)).toBe(200);
      expect((await call('POST', '/api/auth/logout', meera)).statusCode).toBe(200);
      const start = Date.now();
      vi.useFakeTimers({ toFake: ['Date'], now: start });
      try {
        // The other process checked the token a moment ago and trusts it a little longer, no more.
        vi.setSystemTime(start + SESSION_CACHE_MS + 1);
        expect(await works(meera, second)).toBe(401);
      } finally {
        vi.useRealTimers();
      }
    } finally {
      await second.close();
    }
  });
});

describe('staying signed in', () => {
  it('gives a new token for the same session, which logout ends with the old one', async () => {
    const tarun = await signIn('tarun', true);
    const res = await call('POST', '/api/auth/refresh', tarun);
    expect(res.statusCode).toBe(200);
    const { token, user } = res.json<{ token: string; user: { username: string } }>();
    expect(user.username).toBe('tarun');
    const refreshed = { ...tarun, token, headers: { authorization: `Bearer ${token}` } };
    const [, payload] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { exp: number; iat: number };
    // A remembered device's token is refreshed for as long again: REMEMBER_TTL, not SESSION_TTL.
    expect(claims.exp - claims.iat).toBe(t.config.rememberTtlSeconds);
    expect(await works(refreshed)).toBe(200);
    expect((await call('POST', '/api/auth/logout', refreshed)).statusCode).toBe(200);
    expect(await works(tarun)).toBe(401);
    expect(await works(refreshed)).toBe(401);
  });
});

describe('ending other sessions from Change Password', () => {
  it('ends every other sign-in of the user, keeps this one, says how many and audits it', async () => {
    const here = await signIn('kiran');
    await call('POST', '/api/auth/end-other-sessions', here); // the one sign-up opened
    const laptop = await signIn('kiran');
    const phone = await signIn('kiran');
    const meera = await signIn('meera');
    const res = await call('POST', '/api/auth/end-other-sessions', here);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: '2 sessions ended.', ended: 2 });
    expect(await works(here)).toBe(200);
    expect(await works(laptop)).toBe(401);
    expect(await works(phone)).toBe(401);
    expect(await works(meera)).toBe(200);
    expect((await call('POST', '/api/auth/end-other-sessions', here)).json()).toEqual({
      message: 'There were no other sessions.',
      ended: 0,
    });
    expect((await auditOf(here))[1]).toMatchObject({ summary: 'kiran ended 2 sessions of their own' });
  });

  it('needs a session (401)', async () => {
    expect((await call('POST', '/api/auth/end-other-sessions')).statusCode).toBe(401);
  });
});

describe("an ADMIN ending a user's sessions from Users", () => {
  it('signs the user out everywhere, keeps the password, says how many and audits it', async () => {
    const one = await signIn('meera');
    const two = await signIn('meera');
    const res = await call('POST', `/api/users/${one.userId}/end-sessions`, admin);
    expect(res.statusCode).toBe(200);
    const { ended, message } = res.json<{ ended: number; message: string }>();
    // Meera's sign-ins from the tests above that are still open count too.
    expect(ended).toBeGreaterThanOrEqual(2);
    expect(message).toBe(`${ended} sessions of meera ended.`);
    expect(await works(one)).toBe(401);
    expect(await works(two)).toBe(401);
    expect(await works(admin)).toBe(200);
    expect(await works(await signIn('meera'))).toBe(200);
    expect((await auditOf(one))[0]).toMatchObject({ summary: `${ended} sessions of meera ended by admin` });
  });

  it('is refused to a plain user, even for their own account (403), and the sessions stay', async () => {
    const meera = await signIn('meera');
    const tarun = await signIn('tarun');
    const res = await call('POST', `/api/users/${tarun.userId}/end-sessions`, meera);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/Only an ADMIN/);
    expect((await call('POST', `/api/users/${meera.userId}/end-sessions`, meera)).statusCode).toBe(403);
    expect(await works(tarun)).toBe(200);
    expect((await call('POST', `/api/users/${tarun.userId}/end-sessions`)).statusCode).toBe(401);
  });

  it('answers 404 for an unknown user and 400 for an id that is not one', async () => {
    const unknown = await call('POST', '/api/users/00000000-0000-4000-8000-000000000000/end-sessions', admin);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/User/);
    const bad = await call('POST', '/api/users/not-an-id/end-sessions', admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/not a user id/);
  });
});

describe('the Users list', () => {
  it('says the TIME_ZONE its sign-in times are shown in', async () => {
    const res = await call('GET', '/api/users', admin);
    expect(res.json().timeZone).toBe(t.config.timeZone);
  });
});
