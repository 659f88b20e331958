import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.ts';
import { createTestDatabase } from '../../test/app.ts';
import { insertUser, updateUser } from '../auth/auth.repository.ts';
import { listUsers } from './users.repository.ts';
import { UsersService } from './users.service.ts';
import { PasswordHasher } from '../../lib/password.ts';

const TOTAL = 60;
const STRIDE = 7;

describe('the Users list paged by key', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const ids: string[] = [];
  const service = () =>
    new UsersService(
      {
        db: database.db,
        auth: {} as never,
        passwords: new PasswordHasher(10),
        mailer: { send: () => Promise.reject(new Error('not called')), close: () => {} },
        smtpConfigured: false,
        appUrl: 'http://localhost',
        log: { error: () => {} },
      },
      STRIDE,
    );
  /** The page as the plain OFFSET query reads it: what key paging must answer. */
  const byOffset = async (page: number, limit: number) =>
    (await listUsers(database.db, { offset: (page - 1) * limit, limit })).map((row) => row.id);

  beforeAll(async () => {
    database = await createTestDatabase();
    const now = new Date().toISOString();
    // Names whose order differs from their ids' and from their case: 'b07', 'B12', 'Ännchen'…
    for (let i = 0; i < TOTAL; i++) {
      const id = newId();
      ids.push(id);
      const username = `${i % 2 ? 'B' : 'b'}${String((i * 37) % TOTAL).padStart(2, '0')}${i % 5 ? '' : 'Ä'}`;
      await insertUser(database.db, { id, name: username, username, password_hash: 'x', created_at: now });
    }
  });
  afterAll(async () => database?.close());

  it('answers first, middle, last and past-the-end pages as the OFFSET query does', async () => {
    const users = service();
    for (const limit of [1, 5, 10, 25]) {
      const last = Math.ceil(TOTAL / limit);
      for (const page of [1, 2, Math.ceil(last / 2), last - 1, last, last + 1].filter((p) => p >= 1)) {
        const answer = await users.list({ page, limit });
        expect(answer.total).toBe(TOTAL);
        expect(
          answer.items.map((user) => user._id),
          `page ${page} limit ${limit}`,
        ).toEqual(await byOffset(page, limit));
      }
    }
  });

  it('moves a renamed account and a new one to their places at once, past the boundaries taken before', async () => {
    const users = service();
    await users.list({ page: 5, limit: 10 });
    // The account first in the list is renamed to sort last; a new account sorts first.
    const [first] = await byOffset(1, 1);
    await updateUser(
      database.db,
      first!,
      { username: 'zz-renamed' },
      new Date(Date.now() + 1000).toISOString(),
    );
    const added = newId();
    await insertUser(database.db, {
      id: added,
      name: 'a-new',
      username: 'a-new',
      password_hash: 'x',
      created_at: new Date().toISOString(),
    });
    for (const page of [1, 3, 5, 6, 7]) {
      const answer = await users.list({ page, limit: 10 });
      expect(answer.total).toBe(TOTAL + 1);
      expect(
        answer.items.map((user) => user._id),
        `page ${page}`,
      ).toEqual(await byOffset(page, 10));
    }
    expect((await users.list({ page: 7, limit: 10 })).items.at(-1)?._id).toBe(first);
    expect((await users.list({ page: 1, limit: 10 })).items[0]?._id).toBe(added);
  });
});
