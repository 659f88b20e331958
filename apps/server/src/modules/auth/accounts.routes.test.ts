import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await signUp(t.app, 'admin');
});
afterAll(async () => t.close());

const call = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object, who?: SignedIn) =>
  t.app.inject({ method, url, ...(payload && { payload }), headers: who?.headers ?? {} });
const register = (username: string, password = 'pass-word-1', name = 'Someone') =>
  call('POST', '/api/auth/register', { name, username, password });
const login = (username: string, password = 'pass-word-1') =>
  call('POST', '/api/auth/login', { username, password });
const stillSignedIn = async (who: SignedIn) =>
  (await call('PUT', '/api/auth/update-user', {}, who)).statusCode === 200;

describe('usernames', () => {
  it.each([
    ['CR LF and a header', 'ctl\r\nBcc: x@evil.test'],
    ['a zero-width space', 'as\u200bha'],
    ['a right-to-left override', 'admin\u202e'],
    ['a BOM', '\ufeffravi'],
    ['a trailing space', 'ravi '],
    ['a leading no-break space', '\u00a0ravi'],
    ['a Hangul filler', '\u3164'],
    ['a lone surrogate', 'ravi\ud800'],
  ])('are refused at sign-up with %s, naming the rule', async (_what, username) => {
    const res = await register(username);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.username).toMatch(
      /control, invisible or text-direction characters|begin or end with a space|lone surrogate|Username is required!!/,
    );
  });

  it('are stored NFKC-normalised, and sign in in any case or normalisation form', async () => {
    const res = await register('ｖｉｋｒａｍ.Ｓ', 'vikram-pass');
    expect(res.statusCode).toBe(201);
    expect(res.json().username).toBe('vikram.S');
    for (const form of ['vikram.S', 'VIKRAM.s', 'ｖｉｋｒａｍ.ｓ', 'Vikram.S'])
      expect((await login(form, 'vikram-pass')).statusCode, form).toBe(200);
  });

  it('are taken in every case and normalisation form', async () => {
    expect((await register('Straße')).statusCode).toBe(201);
    for (const taken of ['STRASSE', 'strasse', 'ｓｔｒａｓｓｅ']) {
      const res = await register(taken);
      expect(res.statusCode, taken).toBe(409);
      expect(res.json().error).toEqual({ username: 'Username is already taken.' });
    }
  });

  it('refuse look-alikes of an existing username', async () => {
    for (const name of ['mohan', 'kalpana', 'rohit', 'wasim', 'dinesh'])
      expect((await register(name)).statusCode).toBe(201);
    for (const lookAlike of [
      'rnohan', // rn for m
      'ka1pana', // 1 for l
      'kaIpana', // capital I for l
      'r0hit', // 0 for o
      'rоhit', // Cyrillic о
      'vvasim', // vv for w
      'clinesh', // cl for d
      'mоhаn', // Cyrillic о and а
    ]) {
      const res = await register(lookAlike);
      expect(res.statusCode, lookAlike).toBe(409);
      expect(res.json().error.username).toMatch(/looks like an existing one/);
    }
  });

  it('are checked on rename too, and a rename to another case of one’s own name is fine', async () => {
    await register('rename-me');
    const who = await signedIn('rename-me');
    const rename = (username: string) => call('PUT', '/api/auth/update-user', { username }, who);
    expect((await rename('admin\u200b')).statusCode).toBe(400);
    expect((await rename('ADMIN')).statusCode).toBe(409);
    expect((await rename('adrnin')).json().error.username).toMatch(/looks like an existing one/);
    expect((await rename('Rename-Me')).json()).toMatchObject({ username: 'Rename-Me' });
    expect((await login('rename-me')).statusCode).toBe(200);
  });
});

describe('passwords', () => {
  const tooShort = 'Password must be at least 8 characters.';
  const isUsername = 'Password must not be the username.';
  const tooLong = 'Password is too long: use at most 200 characters.';

  it.each([
    ['empty', '', 'Password is required!!'],
    ['7 characters', 'seven-7', tooShort],
    ['7 characters of 2 code units each', '😀'.repeat(7), tooShort],
    ['the username', 'kiran.das', isUsername],
    ['the username in capitals', 'KIRAN.DAS', isUsername],
    ['the username in full width', 'ｋｉｒａｎ.ｄａｓ', isUsername],
    ['201 characters', 'p'.repeat(201), tooLong],
  ])('are refused at sign-up when %s', async (_what, password, message) => {
    const res = await register('kiran.das', password);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ password: message });
  });

  it('are refused by change-password, update-password and reset with the same rules', async () => {
    await register('leela.kumari', 'leela-pass-1');
    const leela = await signedIn('leela.kumari', 'leela-pass-1');
    const change = (newPassword: string) =>
      call('POST', '/api/dashboard/change-password', { oldPassword: 'leela-pass-1', newPassword }, leela);
    const update = (password: string) =>
      call('PUT', '/api/auth/update-password', { oldPassword: 'leela-pass-1', password }, leela);
    expect((await change('short')).json().error).toEqual({
      newPassword: 'New Password must be at least 8 characters.',
    });
    expect((await change('x'.repeat(201))).json().error).toEqual({
      newPassword: 'New Password is too long: use at most 200 characters.',
    });
    expect((await change('LEELA.KUMARI')).json().error).toEqual({
      newPassword: 'New Password must not be the username.',
    });
    expect((await change('')).json().error).toEqual({ newPassword: 'New Password is required!' });
    expect((await update('short')).json().error).toEqual({ password: tooShort });
    expect((await update('Leela.Kumari')).json().error).toEqual({ password: isUsername });
    expect((await update('y'.repeat(201))).json().error).toEqual({ password: tooLong });
    const reset = await call('PUT', '/api/auth/reset-password/some-token', { password: 'short' });
    expect(reset.json().error).toEqual({ password: tooShort });
    // Nothing changed: the old password still signs in.
    expect((await login('leela.kumari', 'leela-pass-1')).statusCode).toBe(200);
  });
});

describe('update-password', () => {
  it('needs the current password: a stolen token alone cannot set a new one', async () => {
    await register('mallika', 'mallika-pass');
    const stolen = await signedIn('mallika', 'mallika-pass');
    const update = (body: object) => call('PUT', '/api/auth/update-password', body, stolen);
    const missing = await update({ password: 'attacker-pass' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toEqual({ oldPassword: 'Old Password is required!' });
    const wrong = await update({ oldPassword: 'guess-pass', password: 'attacker-pass' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('Old password is incorrect.');
    expect((await login('mallika', 'attacker-pass')).statusCode).toBe(401);
    expect((await login('mallika', 'mallika-pass')).statusCode).toBe(200);
  });
});

describe('changing a password', () => {
  for (const [route, body] of [
    [
      'POST /api/dashboard/change-password',
      (old: string, next: string) => ({ oldPassword: old, newPassword: next }),
    ],
    ['PUT /api/auth/update-password', (old: string, next: string) => ({ oldPassword: old, password: next })],
  ] as const) {
    it(`by ${route} ends every other session of the user and keeps this one`, async () => {
      const username = `sessions-${route.length}`;
      await register(username, 'first-pass');
      const laptop = await signedIn(username, 'first-pass');
      const phone = await signedIn(username, 'first-pass');
      const stolen = await signedIn(username, 'first-pass');
      const other = await signedIn('admin');
      const [method, url] = route.split(' ') as ['POST' | 'PUT', string];
      const res = await call(method, url, body('first-pass', 'second-pass'), laptop);
      expect(res.statusCode, res.body).toBe(200);
      expect(await stillSignedIn(laptop)).toBe(true);
      expect(await stillSignedIn(phone)).toBe(false);
      const refused = await call('GET', '/api/dashboard', undefined, stolen);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toMatch(/session has expired or is not valid/);
      // Another user's sessions are not touched.
      expect(await stillSignedIn(other)).toBe(true);
      // A session opened after the change works.
      expect(await stillSignedIn(await signedIn(username, 'second-pass'))).toBe(true);
    });
  }
});

describe('renames', () => {
  it('are audited, and past actions keep the name they were done under beside the name now', async () => {
    await register('sunita', 'sunita-pass', 'Sunita');
    const sunita = await signedIn('sunita', 'sunita-pass');
    const admin = await signedIn('admin');
    const before = await call('PUT', '/api/auth/update-user', { name: 'Sunita R' }, sunita);
    expect(before.statusCode).toBe(200);
    const renamed = await call('PUT', '/api/auth/update-user', { username: 'sunita.r' }, sunita);
    expect(renamed.json()).toMatchObject({ username: 'sunita.r', _id: sunita.userId });

    const audit = async (query: string) =>
      (await call('GET', `/api/audit?${query}`, undefined, admin)).json<{
        items: { action: string; actor: Record<string, unknown>; before: unknown; after: unknown }[];
      }>().items;
    const [rename, nameChange, signup] = await audit('actor=sunita');
    expect(rename).toMatchObject({
      action: 'user.rename',
      actor: { _id: sunita.userId, username: 'sunita.r', usernameThen: 'sunita', name: 'Sunita R' },
      before: { username: 'sunita' },
      after: { username: 'sunita.r' },
    });
    expect(nameChange).toMatchObject({
      action: 'user.rename',
      before: { name: 'Sunita' },
      after: { name: 'Sunita R' },
    });
    expect(signup).toMatchObject({ action: 'user.register', actor: { usernameThen: 'sunita' } });
    // The new name finds them too: nothing vanished under it.
    expect((await audit('actor=sunita.r')).map((e) => e.action)).toEqual([
      'user.rename',
      'user.rename',
      'user.register',
    ]);
  });
});

async function signedIn(username: string, password = 'pass-word-1'): Promise<SignedIn> {
  const res = await login(username, password);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  const { token, user } = res.json<{ token: string; user: { _id: string } }>();
  return { token, userId: user._id, headers: { authorization: `Bearer ${token}` } };
}
