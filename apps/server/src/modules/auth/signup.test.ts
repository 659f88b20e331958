import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { isPostgres, type Database } from '../../db/database.ts';
import { PasswordHasher } from '../../lib/password.ts';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/app.ts';
import type { UserRow } from './auth.repository.ts';
import { createAccount } from './auth.service.ts';

const register = (t: TestApp, username: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name: username, username, password: 'pass-word-1' },
  });

async function roles(t: TestApp): Promise<string[]> {
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => register(t, `first-${i}`)));
  return answers.map((res) => (res.statusCode === 201 ? res.json().role : String(res.statusCode)));
}

describe('the first account', () => {
  it('is the one ADMIN when 20 sign up at once on an empty database', async () => {
    const t = await createTestApp();
    try {
      const given = await roles(t);
      expect(given.filter((role) => role === 'ADMIN')).toHaveLength(1);
      expect(given.filter((role) => role === 'USER')).toHaveLength(19);
    } finally {
      await t.close();
    }
  });

  it('stays the one ADMIN when a second "first" account is inserted before the first commits', async () => {
    const { db, close } = await createTestDatabase();
    try {
      const passwordHash = await new PasswordHasher(10).hash('pass-word-1');
      let inserted!: () => void;
      let release!: () => void;
      const firstInserted = new Promise<void>((resolve) => (inserted = resolve));
      const held = new Promise<void>((resolve) => (release = resolve));
      const account = (username: string, then: (row: UserRow) => Promise<UserRow>) =>
        createAccount(db, { name: username, username, passwordHash }, { then: (_trx, row) => then(row) });
      // The first account's transaction has inserted and is held open.
      const first = account('first-one', async (row) => {
        inserted();
        await held;
        return row;
      });
      await firstInserted;
      const second = account('second-one', async (row) => row);
      // Released once the second is blocked on the first's row (PostgreSQL), or has had its chance to run.
      await Promise.race([second, secondIsWaiting(db)]);
      release();
      const [one, two] = await Promise.all([first, second]);
      expect([one?.role, two?.role]).toEqual(['ADMIN', 'USER']);
    } finally {
      await close();
    }
  });
});

/** PostgreSQL: until another connection waits on a lock. SQLite has one writer: a moment is enough. */
async function secondIsWaiting(db: Database): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (isPostgres(db)) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where wait_event_type = 'Lock' and datname = current_database()`.execute(db);
      if (rows[0]!.n > 0) return;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('SIGNUP', () => {
  it('closed: every sign-up, the first too, answers 403 saying an ADMIN creates accounts', async () => {
    const t = await createTestApp({ SIGNUP: 'closed' });
    try {
      const res = await register(t, 'asha');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        statusCode: 403,
        code: 'FORBIDDEN',
        message: 'Sign-up is closed. Ask an ADMIN to create your account.',
        error: 'Sign-up is closed. Ask an ADMIN to create your account.',
      });
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { username: 'asha', password: 'pass-word-1' },
          })
        ).statusCode,
      ).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('first-only: the first account signs up as ADMIN, then sign-up is closed, even for 20 at once', async () => {
    const t = await createTestApp({ SIGNUP: 'first-only' });
    try {
      const given = await roles(t);
      expect(given.filter((role) => role === 'ADMIN')).toHaveLength(1);
      expect(given.filter((role) => role === '403')).toHaveLength(19);
      const later = await register(t, 'later');
      expect(later.statusCode).toBe(403);
      expect(later.json().message).toMatch(/Sign-up is closed/);
    } finally {
      await t.close();
    }
  });

  it('open (the default) lets anyone sign up; another value stops the start naming SIGNUP', async () => {
    const t = await createTestApp();
    try {
      expect((await register(t, 'one')).statusCode).toBe(201);
      expect((await register(t, 'two')).statusCode).toBe(201);
    } finally {
      await t.close();
    }
    await expect(createTestApp({ SIGNUP: 'invite' })).rejects.toThrow(
      /SIGNUP must be open, first-only or closed/,
    );
  });
});
