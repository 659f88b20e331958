import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres, openDatabase, type Database } from '../../db/database.ts';
import { migrateToLatest, migrations } from '../../db/migrate.ts';
import { newId } from '../../lib/ids.ts';
import { PasswordHasher } from '../../lib/password.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { fillUsernameSkeletons } from './auth.service.ts';

/**
 * Accounts made before usernames were compared by key and skeleton: unique by lower(username) only.
 * Upgrading keeps every one of them; where two now collide, the oldest keeps the name.
 */
let t: TestApp;
let db: Database;
const legacy = ['Straße', 'STRASSE', 'ａｓｈａ', 'asha', 'rohit', 'r0hit'];

beforeAll(async () => {
  t = await createTestApp();
  db = (await openDatabase(t.config)).db;
  const schema = isPostgres(db)
    ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s
    : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  // Back to the schema before usernames were keyed, with accounts of that time, oldest first.
  const back = await migrator.migrateTo('20261123_02_audit');
  if (back.error) throw back.error;
  const passwordHash = await new PasswordHasher(10).hash('pass-word-1');
  for (const [i, username] of legacy.entries())
    await sql`insert into users (id, name, username, password_hash, role, tokens_valid_after, created_at, updated_at)
      values (${newId()}, ${username}, ${username}, ${passwordHash}, ${i === 0 ? 'ADMIN' : 'USER'}, 0,
        ${`2026-01-0${i + 1}T00:00:00.000Z`}, ${`2026-01-0${i + 1}T00:00:00.000Z`})`.execute(db);
  await migrateToLatest(db, schema);
  await fillUsernameSkeletons(db);
});
afterAll(async () => {
  await db.destroy();
  await t.close();
});

const login = (username: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password: 'pass-word-1' } });
const userOf = async (username: string) =>
  (await login(username)).json().user?.username as string | undefined;

describe('the usernames migration', () => {
  it('keeps every account, each signing in with its exact username', async () => {
    for (const username of legacy) expect(await userOf(username), username).toBe(username);
  });

  it('gives a shared key to the oldest account: other spellings reach it, not the later duplicate', async () => {
    expect(await userOf('strasse')).toBe('Straße');
    expect(await userOf('ASHA')).toBe('ａｓｈａ');
  });

  it('refuses new sign-ups and renames to any of the names, or their look-alikes', async () => {
    for (const username of ['STRASSE', 'strasse', 'Asha', 'ROHIT', 'rоhit']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { name: 'New', username, password: 'pass-word-2' },
      });
      expect(res.statusCode, username).toBe(409);
    }
  });

  it('stores a key and a skeleton for every account, unique', async () => {
    const rows = await db.selectFrom('users').select(['username_key', 'username_skeleton']).execute();
    expect(rows.every((row) => row.username_key && row.username_skeleton)).toBe(true);
    expect(new Set(rows.map((row) => row.username_key)).size).toBe(rows.length);
    expect(new Set(rows.map((row) => row.username_skeleton)).size).toBe(rows.length);
  });
});
