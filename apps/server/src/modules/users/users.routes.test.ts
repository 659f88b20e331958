import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditList } from '@notice-desk/contract/audit';
import type { CreateUserAnswer, ManagedUser, UserList } from '@notice-desk/contract/users';
import { openDatabase } from '../../db/database.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { startSmtpListener } from '../../test/peers.ts';
import { UsersService } from './users.service.ts';
import { PasswordHasher } from '../../lib/password.ts';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let admin: SignedIn;
let asha: SignedIn;
let ashaPassword = 'pass-word-1';

beforeAll(async () => {
  smtp = await startSmtpListener();
  t = await createTestApp({ SMTP_URL: smtp.url });
  admin = await signUp(t.app, 'admin');
  asha = await signUp(t.app, 'asha');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

type Method = 'GET' | 'POST' | 'PATCH';
const call = (method: Method, url: string, who: SignedIn | null, payload?: object) =>
  t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload && { payload }) });
const login = (username: string, password = 'pass-word-1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
const signIn = async (username: string, password = 'pass-word-1'): Promise<SignedIn> => {
  const res = await login(username, password);
  expect(res.statusCode, res.body).toBe(200);
  const { token, user } = res.json<{ token: string; user: { _id: string } }>();
  return { token, userId: user._id, headers: { authorization: `Bearer ${token}` } };
};
const create = async (payload: object, who: SignedIn = admin) => {
  const res = await call('POST', '/api/users', who, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreateUserAnswer>();
};
const patch = (id: string, payload: object, who: SignedIn = admin) =>
  call('PATCH', `/api/users/${id}`, who, payload);
const auditOf = async (action: string) => {
  const res = await call('GET', `/api/audit?action=${action}`, admin);
  return res.json<AuditList>().items;
};
const resetPassword = async (id: string, payload: object = {}) => {
  const res = await call('POST', `/api/users/${id}/password`, admin, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ message: string; password?: string; mailedTo?: string }>();
};
/** The service on a connection of its own, without SMTP and past the routes' guard. */
const withService = async (work: (users: UsersService) => Promise<void>) => {
  const { db } = await openDatabase(t.config);
  try {
    await work(
      new UsersService({
        db,
        auth: { forgetCheckedSessions: () => {} } as never,
        passwords: new PasswordHasher(10),
        mailer: { send: () => Promise.reject(new Error('not called')), close: () => {} },
        smtpConfigured: false,
        appUrl: 'http://localhost',
        log: { error: () => {} },
      }),
    );
  } finally {
    await db.destroy();
  }
};
/** A request any signed-in user may make: 200 while the session lasts. */
const ownProfile = (who: SignedIn) => call('GET', '/api/dashboard', who);

const someId = '01900000-0000-7000-8000-000000000000';

describe('the users API', () => {
  it('answers 401 signed out and 403 to a plain user, on every endpoint', async () => {
    const endpoints: [Method, string, object?][] = [
      ['GET', '/api/users'],
      ['POST', '/api/users', { username: 'x1', password: 'pass-word-1' }],
      ['PATCH', `/api/users/${asha.userId}`, { disabled: true }],
      ['POST', `/api/users/${admin.userId}/password`, {}],
    ];
    for (const [method, url, payload] of endpoints) {
      expect((await call(method, url, null, payload)).statusCode, `${method} ${url}`).toBe(401);
      const res = await call(method, url, asha, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe('Only an ADMIN can do this.');
    }
    // Nothing was done by those calls.
    expect((await ownProfile(asha)).statusCode).toBe(200);
  });

  it('lists users a page at a time in username order, with role, status and last sign-in', async () => {
    const res = await call('GET', '/api/users?page=1&limit=1', admin);
    expect(res.statusCode).toBe(200);
    const page = res.json<UserList>();
    expect(page.total).toBeGreaterThanOrEqual(2);
    expect(page.items).toEqual([
      expect.objectContaining({
        _id: admin.userId,
        username: 'admin',
        role: 'ADMIN',
        disabled: false,
        lastSignInAt: expect.any(String),
      }),
    ]);
    expect(page.items[0]).not.toHaveProperty('password_hash');
    for (const query of ['?limit=0', '?limit=101', '?page=x'])
      expect((await call('GET', `/api/users${query}`, admin)).statusCode, query).toBe(400);
  });

  it('creates a user with a given password, or a generated one answered once', async () => {
    const given = await create({ username: 'ravi@example.com', name: 'Ravi', password: 'ravi-pass-1' });
    expect(given.password).toBeUndefined();
    expect(given.user).toMatchObject({ name: 'Ravi', role: 'USER', disabled: false, lastSignInAt: null });
    await signIn('ravi@example.com', 'ravi-pass-1');

    const generated = await create({ username: 'meena', role: 'ADMIN' });
    expect(generated.user).toMatchObject({ name: 'meena', username: 'meena', role: 'ADMIN' });
    expect(generated.password).toMatch(/^[\w]{4}-[\w]{4}-[\w]{4}-[\w]{4}$/);
    const meena = await signIn('meena', generated.password);
    expect((await call('GET', '/api/users', meena)).statusCode).toBe(200);

    const [entry] = await auditOf('user.create');
    expect(entry).toMatchObject({
      actor: { username: 'admin' },
      subjectId: generated.user._id,
      summary: 'meena created as ADMIN by admin',
    });
    expect(JSON.stringify(entry)).not.toContain(generated.password!);
  });

  it('refuses bad input to create, naming what is wrong', async () => {
    const cases: [object, number, RegExp][] = [
      [{ username: 'Asha', password: 'pass-word-1' }, 409, /Username is already taken/],
      [{ username: 'аsha', password: 'pass-word-1' }, 409, /looks like an existing one/], // Cyrillic а
      [{ username: 'new1', password: 'short' }, 400, /at least 8 characters/],
      [{ username: 'new1', password: 'x'.repeat(201) }, 400, /too long/],
      [{ username: 'newuser-1', password: 'NEWUSER-1' }, 400, /must not be the username/],
      [{ username: 'new1', role: 'OWNER' }, 400, /role must be ADMIN or USER/],
      [{ username: 'new1', role: 'admin' }, 400, /role must be ADMIN or USER/],
      [{ password: 'pass-word-1' }, 400, /Username is required/],
      [{ username: 'bad\u200bname' }, 400, /invisible/],
      [{ username: 'new1', name: 'x'.repeat(101) }, 400, /at most 100/],
    ];
    for (const [payload, status, message] of cases) {
      const res = await call('POST', '/api/users', admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(JSON.stringify(res.json()), JSON.stringify(payload)).toMatch(message);
    }
    const list = (await call('GET', '/api/users?limit=100', admin)).json<UserList>();
    expect(list.items.map((user) => user.username)).not.toContain('new1');
  });

  it("disables a signed-in user: the session's next request answers 401, sign-in is refused, enable restores it", async () => {
    await create({ username: 'kiran', password: 'kiran-pass-1' });
    const kiran = await signIn('kiran', 'kiran-pass-1');
    // Checked once, so the token is in the session cache when the account is disabled.
    expect((await ownProfile(kiran)).statusCode).toBe(200);

    const res = await patch(kiran.userId, { disabled: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ManagedUser>()).toMatchObject({ username: 'kiran', disabled: true });

    const next = await ownProfile(kiran);
    expect(next.statusCode).toBe(401);
    expect(next.json().message).toMatch(/session has expired/);
    const refused = await login('kiran', 'kiran-pass-1');
    expect(refused.statusCode).toBe(401);
    // The generic answer, as for a wrong password: whether the account exists stays unsaid.
    expect(refused.json().message).toBe('Invalid username or password.');

    expect((await patch(kiran.userId, { disabled: false })).json<ManagedUser>().disabled).toBe(false);
    await signIn('kiran', 'kiran-pass-1');

    const entries = [...(await auditOf('user.disable')), ...(await auditOf('user.enable'))];
    expect(entries.map((entry) => entry.summary)).toEqual([
      'kiran disabled by admin',
      'kiran enabled by admin',
    ]);
  });

  it('makes a user an ADMIN and a plain user again, audited', async () => {
    const { user } = await create({ username: 'farah', password: 'farah-pass-1' });
    const farah = await signIn('farah', 'farah-pass-1');
    expect((await call('GET', '/api/users', farah)).statusCode).toBe(403);
    expect((await patch(user._id, { role: 'ADMIN' })).json<ManagedUser>().role).toBe('ADMIN');
    // The checked session carried the old role: it is asked again.
    expect((await call('GET', '/api/users', farah)).statusCode).toBe(200);
    expect((await patch(user._id, { role: 'USER' })).json<ManagedUser>().role).toBe('USER');
    expect((await call('GET', '/api/users', farah)).statusCode).toBe(403);
    expect((await auditOf('user.promote'))[0]).toMatchObject({
      summary: 'farah made an ADMIN by admin',
      before: { role: 'USER' },
      after: { role: 'ADMIN' },
    });
    expect((await auditOf('user.demote'))[0]).toMatchObject({ summary: 'farah made a plain user by admin' });
  });

  it('refuses bad input to update: unknown or malformed id, nothing to change, bad values', async () => {
    const cases: [string, object, number, RegExp][] = [
      [someId, { disabled: true }, 404, /User not found/],
      ['not-an-id', { disabled: true }, 400, /not a user id/],
      [asha.userId, {}, 400, /Give disabled or role/],
      [asha.userId, { role: 'ROOT' }, 400, /role must be ADMIN or USER/],
      [asha.userId, { disabled: 'yes' }, 400, /disabled must be true or false/],
    ];
    for (const [id, payload, status, message] of cases) {
      const res = await patch(id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().message, JSON.stringify(payload)).toMatch(message);
    }
    expect((await call('POST', `/api/users/${someId}/password`, admin, {})).statusCode).toBe(404);
  });

  it('never disables or demotes the last enabled ADMIN, even two ADMINs at once', async () => {
    const { user: other } = await create({ username: 'second-admin', role: 'ADMIN' });
    const { user: meena } = (await call('GET', '/api/users?limit=100', admin))
      .json<UserList>()
      .items.map((user) => ({ user }))
      .find(({ user }) => user.username === 'meena')!;
    // meena (an ADMIN from an earlier test) and second-admin step down; admin is left.
    expect((await patch(meena._id, { disabled: true })).statusCode).toBe(200);
    expect((await patch(other._id, { role: 'USER' })).statusCode).toBe(200);
    for (const change of [{ disabled: true }, { role: 'USER' }, { disabled: true, role: 'USER' }]) {
      const res = await patch(admin.userId, change);
      expect(res.statusCode, JSON.stringify(change)).toBe(409);
      expect(res.json().message).toMatch(/last enabled ADMIN/);
    }

    // Two ADMINs each demoting the other at the same moment (past the guard, in the service): one stays.
    await patch(other._id, { role: 'ADMIN' });
    await withService(async (users) => {
      const actor = (_id: string, username: string) => ({
        _id,
        username,
        name: username,
        role: 'ADMIN' as const,
      });
      const answers = await Promise.allSettled([
        users.update(actor(admin.userId, 'admin'), other._id, { role: 'USER' }),
        users.update(actor(other._id, 'second-admin'), admin.userId, { role: 'USER' }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = answers.find((answer) => answer.status === 'rejected')!;
      expect(String(refused.reason)).toMatch(/last enabled ADMIN/);
      const { items } = await users.list({ page: 1, limit: 100 });
      const admins = items.filter((user) => user.role === 'ADMIN' && !user.disabled);
      expect(admins).toHaveLength(1);
      // Back to admin as the one ADMIN, for the tests after.
      if (admins[0]!._id !== admin.userId) {
        await users.update(actor(other._id, 'second-admin'), admin.userId, { role: 'ADMIN' });
        await users.update(actor(admin.userId, 'admin'), other._id, { role: 'USER' });
      }
    });
  });

  it("resets a password: shown once, the old one and the user's sessions end, audited without it", async () => {
    const asha2 = await signIn('asha');
    const { password, message } = await resetPassword(asha.userId);
    expect(message).toMatch(/shown only once/);
    expect((await ownProfile(asha2)).statusCode).toBe(401);
    expect((await login('asha')).statusCode).toBe(401);
    ashaPassword = password!;
    asha = await signIn('asha', ashaPassword);
    const [entry] = await auditOf('user.password-reset');
    expect(entry).toMatchObject({ summary: 'Password of asha reset by admin', subjectId: asha.userId });
    expect(JSON.stringify(entry)).not.toContain(password!);
  });

  it('mails the new password to a username that is an address, and says why it cannot otherwise', async () => {
    const ravi = (await call('GET', '/api/users?limit=100', admin))
      .json<UserList>()
      .items.find((user) => user.username === 'ravi@example.com')!;
    const answer = await resetPassword(ravi._id, { sendByMail: true });
    expect(answer).toEqual({
      message: 'A new password was mailed to ravi@example.com.',
      mailedTo: 'ravi@example.com',
    });
    const mail = smtp.mails.find((received) => received.to.includes('ravi@example.com'))!;
    const mailed = /^([\w]{4}-[\w]{4}-[\w]{4}-[\w]{4})$/m.exec(mail.raw)![1]!;
    await signIn('ravi@example.com', mailed);

    const notAnAddress = await call('POST', `/api/users/${asha.userId}/password`, admin, {
      sendByMail: true,
    });
    expect(notAnAddress.statusCode).toBe(400);
    expect(notAnAddress.json().message).toMatch(/not an e-mail address/);
    const notABoolean = await call('POST', `/api/users/${asha.userId}/password`, admin, { sendByMail: 1 });
    expect(notABoolean.statusCode).toBe(400);
    expect(notABoolean.json().message).toMatch(/sendByMail must be true or false/);
    // The refusals left Asha's password as it was.
    await signIn('asha', ashaPassword);
  });

  it('refuses to mail a password when SMTP is not set up', async () => {
    await withService(async (users) => {
      const actor = { _id: admin.userId, name: 'admin', username: 'admin', role: 'ADMIN' as const };
      await expect(users.resetPassword(actor, asha.userId, true)).rejects.toThrow(/Mail is not set up/);
    });
  });
});
