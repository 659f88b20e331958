import fs from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { SessionTokens } from '../../lib/tokens.ts';
import { createTestApp, signUp, type TestApp } from '../../test/app.ts';
import { deleteSessions } from './auth.repository.ts';
import { AuthService } from './auth.service.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ LOGIN_MAX_ATTEMPTS: '3', LOGIN_WINDOW: '1m' });
});
afterEach(async () => {
  await t.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });
const put = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'PUT', url, payload: payload as object, headers });

function outboxMails(): string[] {
  const dir = path.join(t.config.dataDir, 'outbox');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')) : [];
}

function resetTokenFromMail(mail: string): string {
  const unfolded = mail.replace(/=\r?\n/g, '');
  const match = /reset-password\/([A-Za-z0-9_-]+)/.exec(unfolded);
  if (!match?.[1]) throw new Error('no reset link in mail');
  return match[1];
}

describe('register', () => {
  it('makes the first account ADMIN and later ones plain users, never returning the password', async () => {
    const first = await post('/api/auth/register', { name: 'Asha', username: 'asha', password: 'secret-1' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ _id: expect.any(String), name: 'Asha', username: 'asha', role: 'ADMIN' });
    const second = await post('/api/auth/register', { name: 'Ravi', username: 'ravi', password: 'secret-2' });
    expect(second.json().role).toBe('USER');
    expect(first.body + second.body).not.toMatch(/secret|password/i);
  });

  it('refuses a username already taken, whatever its case', async () => {
    await post('/api/auth/register', { name: 'Asha', username: 'asha', password: 'pass-word-1' });
    const again = await post('/api/auth/register', {
      name: 'Other',
      username: 'ASHA',
      password: 'pass-word-2',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toEqual({ username: 'Username is already taken.' });
  });

  it("names every empty field with the spec's message", async () => {
    const res = await post('/api/auth/register', { name: ' ', username: '', password: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      name: 'Name is required!!',
      username: 'Username is required!!',
      password: 'Password is required!!',
    });
    const missing = await post('/api/auth/register', {});
    expect(Object.keys(missing.json().error)).toEqual(['name', 'username', 'password']);
  });

  it('refuses a 10,000-character username and stores nothing', async () => {
    const res = await post('/api/auth/register', { name: 'A', username: 'u'.repeat(10_000), password: 'p' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.username).toBe('Must be at most 100 characters.');
    const login = await post('/api/auth/login', { username: 'u'.repeat(100), password: 'p' });
    expect(login.statusCode).toBe(401);
  });
});

describe('login', () => {
  beforeEach(async () => {
    await post('/api/auth/register', { name: 'Asha', username: 'asha', password: 'right-pass' });
  });

  it('answers a token and the user', async () => {
    const res = await post('/api/auth/login', { username: 'Asha', password: 'right-pass' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toEqual({ _id: expect.any(String), name: 'Asha', username: 'asha', role: 'ADMIN' });
    const me = await put('/api/auth/update-user', {}, { authorization: `Bearer ${body.token}` });
    expect(me.statusCode).toBe(200);
  });

  it('gives a longer session when the device is remembered', async () => {
    const expiry = async (remember: boolean) => {
      const { token } = (
        await post('/api/auth/login', { username: 'asha', password: 'right-pass', remember })
      ).json();
      return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).exp as number;
    };
    const short = await expiry(false);
    const long = await expiry(true);
    expect(long - short).toBeGreaterThan(20 * 86400);
  });

  it('says the same thing for an unknown username and a wrong password', async () => {
    const wrong = await post('/api/auth/login', { username: 'asha', password: 'nope' });
    const unknown = await post('/api/auth/login', { username: 'nobody', password: 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().error).toEqual({ password: 'Invalid username or password.' });
    expect(unknown.json().error).toEqual(wrong.json().error);
  });

  it('names empty fields', async () => {
    const res = await post('/api/auth/login', { username: '', password: '' });
    expect(res.json().error).toEqual({
      username: 'Username is required!!',
      password: 'Password is required!!',
    });
  });

  it('limits failed attempts per username and address with a 429, then lets the real user in after the window', async () => {
    for (let i = 0; i < 3; i++)
      expect((await post('/api/auth/login', { username: 'asha', password: 'bad' })).statusCode).toBe(401);
    const blocked = await post('/api/auth/login', { username: 'asha', password: 'right-pass' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toMatch(/Too many login attempts\. Try again in \d+ seconds?\./);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The window (1 minute) passes: the clock the limits read is moved, not waited for.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      const after = await post('/api/auth/login', { username: 'asha', password: 'right-pass' });
      expect(after.statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('signed-in account', () => {
  it('updates the profile and refuses a taken username', async () => {
    await signUp(t.app, 'ravi');
    const asha = await signUp(t.app, 'asha');
    const res = await put('/api/auth/update-user', { name: 'Asha K' }, asha.headers);
    expect(res.json()).toMatchObject({ name: 'Asha K', username: 'asha' });
    const taken = await put('/api/auth/update-user', { username: 'Ravi' }, asha.headers);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toEqual({ username: 'Username is already taken.' });
  });

  it('changes the password only with the right old password', async () => {
    const asha = await signUp(t.app, 'asha', 'old-pass');
    const wrong = await post(
      '/api/dashboard/change-password',
      { oldPassword: 'bad', newPassword: 'new-pass' },
      asha.headers,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('Old password is incorrect.');
    const empty = await post(
      '/api/dashboard/change-password',
      { oldPassword: '', newPassword: '' },
      asha.headers,
    );
    expect(empty.json().error).toEqual({
      oldPassword: 'Old Password is required!',
      newPassword: 'New Password is required!',
    });
    const ok = await post(
      '/api/dashboard/change-password',
      { oldPassword: 'old-pass', newPassword: 'new-pass' },
      asha.headers,
    );
    expect(ok.json()).toEqual({ message: 'Password updated successfully.' });
    expect((await post('/api/auth/login', { username: 'asha', password: 'old-pass' })).statusCode).toBe(401);
    expect((await post('/api/auth/login', { username: 'asha', password: 'new-pass' })).statusCode).toBe(200);
  });

  it('sets a new password through update-password, given the current one', async () => {
    const asha = await signUp(t.app, 'asha', 'old-pass');
    const res = await put(
      '/api/auth/update-password',
      { oldPassword: 'old-pass', password: 'fresh-pass' },
      asha.headers,
    );
    expect(res.statusCode).toBe(200);
    expect((await post('/api/auth/login', { username: 'asha', password: 'fresh-pass' })).statusCode).toBe(
      200,
    );
  });

  it('refuses every account route without a token', async () => {
    expect((await put('/api/auth/update-user', { name: 'x' })).statusCode).toBe(401);
    expect((await put('/api/auth/update-password', { oldPassword: 'a', password: 'x' })).statusCode).toBe(
      401,
    );
    expect(
      (await post('/api/dashboard/change-password', { oldPassword: 'a', newPassword: 'b' })).statusCode,
    ).toBe(401);
  });
});

describe('password reset', () => {
  it('answers the same whether or not the account exists, and mails a link only to a real one', async () => {
    await signUp(t.app, 'asha@example.com');
    const known = await post('/api/auth/forgot-password', { email: 'asha@example.com' });
    const unknown = await post('/api/auth/forgot-password', { email: 'nobody@example.com' });
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    await t.app.settled();
    const mails = outboxMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('To: asha@example.com');
  });

  it('resets once with the mailed token, ends older sessions, and refuses the token a second time', async () => {
    const asha = await signUp(t.app, 'asha@example.com', 'old-pass');
    await post('/api/auth/forgot-password', { email: 'asha@example.com' });
    await t.app.settled();
    const token = resetTokenFromMail(outboxMails()[0]!);
    const reset = await put(`/api/auth/reset-password/${token}`, { password: 'brand-new' });
    expect(reset.statusCode).toBe(200);
    expect(
      (await post('/api/auth/login', { username: 'asha@example.com', password: 'brand-new' })).statusCode,
    ).toBe(200);
    expect((await put('/api/auth/update-user', {}, asha.headers)).statusCode).toBe(401);
    const again = await put(`/api/auth/reset-password/${token}`, { password: 'other-pass' });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('This reset link is invalid, used or expired.');
  });

  it('stores the token hashed and refuses it once expired', async () => {
    await signUp(t.app, 'asha@example.com');
    await post('/api/auth/forgot-password', { email: 'asha@example.com' });
    await t.app.settled();
    const token = resetTokenFromMail(outboxMails()[0]!);
    const { db } = await openDatabase(t.config);
    try {
      const rows = await db.selectFrom('password_resets').selectAll().execute();
      expect(rows.map((r) => r.token_hash)).not.toContain(token);
      await db
        .updateTable('password_resets')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute();
    } finally {
      await db.destroy();
    }
    const expired = await put(`/api/auth/reset-password/${token}`, { password: 'pass-word-2' });
    expect(expired.json().error).toBe('This reset link is invalid, used or expired.');
  });
});

describe('tokens', () => {
  const secret = new TextEncoder().encode('test-secret-test-secret-test-secret-0123');
  const callWith = (token: string) => put('/api/auth/update-user', {}, { authorization: `Bearer ${token}` });

  it('refuses a tampered, expired, unsigned or foreign-signed token with 401', async () => {
    const asha = await signUp(t.app, 'asha');
    const [h, p, s] = asha.token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${s}`;
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`;
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(asha.userId)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 100)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(secret);
    const foreign = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(asha.userId)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    for (const token of [tampered, none, expired, foreign, 'garbage']) {
      const res = await callWith(token);
      expect(res.statusCode, token).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    }
    expect((await callWith(asha.token)).statusCode).toBe(200);
  });

  it('does not keep a check that read the session before a forget and finished after it', async () => {
    const asha = await signUp(t.app, 'asha');
    const { db } = await openDatabase(t.config);
    try {
      const tokens = new SessionTokens('test-secret-test-secret-test-secret-0123');
      let release = (): void => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const auth = new AuthService({
        db,
        tokens: { verify: async (token: string) => (await held, tokens.verify(token)) } as never,
      } as never);
      // A request checks the token while an ADMIN disables the account: the check's read may land
      // before the change and its answer after the forget that follows it.
      const checking = auth.authenticate(asha.token);
      auth.forgetCheckedSessions();
      release();
      expect(await checking).not.toBeNull();
      await deleteSessions(db, asha.userId);
      // The next request asks the database again, and the session is gone.
      expect(await auth.authenticate(asha.token)).toBeNull();
    } finally {
      await db.destroy();
    }
  });
});

describe('bad input', () => {
  it('answers malformed JSON, a wrong content type, an empty body and a 2 MB body with clear 4xx', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: '{"username": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/not valid JSON/);

    const text = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: 'username=a',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().message).toMatch(/Unsupported content type/);

    const noBody = await t.app.inject({ method: 'POST', url: '/api/auth/login' });
    expect(noBody.statusCode).toBe(400);
    expect(noBody.json().message).toMatch(/body/);

    const huge = await post('/api/auth/register', {
      name: 'x'.repeat(2 * 1024 * 1024),
      username: 'big',
      password: 'p',
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ statusCode: 413, message: 'The request body is too large.' });
    expect((await post('/api/auth/login', { username: 'big', password: 'p' })).statusCode).toBe(401);
  });

  it('answers unknown API routes with a JSON 404 and keeps serving', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'No route GET /api/nowhere.' });
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toMatchObject({ status: 'ok' });
  });

  it('sends security headers and a request id, and no server version', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers.server).toBeUndefined();
  });
});
