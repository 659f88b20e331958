import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The lint rule of eslint.config.js that keeps SQL in repositories, run on code placed at each kind of path.
const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

const builtQuery = `import type { Database } from '../../db/database.ts';
export const names = (db: Database) => db.selectFrom('users').select('name').execute();
export const rename = (db: Database) => db.transaction().execute((trx) => trx.updateTable('users').set({ name: 'x' }).execute());
`;
const rawSql = `import { sql } from 'kysely';
export const one = () => sql\`select 1\`;
`;

// What the first rule let through: kysely by namespace, and the database under another name or taken apart.
const namespaceSql = `import * as k from 'kysely';
export const one = () => k.sql\`select 1\`;
`;
const aliasedQuery = `import type { Database } from '../../db/database.ts';
export function names(db: Database) {
  const q = db;
  const { selectFrom } = db;
  const { ['deleteFrom']: remove } = db;
  const start = q['insertInto'];
  return [q.selectFrom('users').execute(), selectFrom.call(db, 'users').execute(), remove, start];
}
`;

async function refusals(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('SQL lives in repositories, and lint holds it', () => {
  it.each([
    'apps/server/src/modules/campaigns/campaigns.service.ts',
    'apps/server/src/modules/health/health.routes.ts',
    'apps/server/src/jobs/job-runner.ts',
    'apps/server/src/worker.ts',
  ])('refuses a query built or SQL written in %s', async (file) => {
    expect(await refusals(builtQuery, file)).toEqual([
      'Only repositories (*.repository.ts) build queries: call one, or add a function to one.',
      'Only repositories (*.repository.ts) build queries: call one, or add a function to one.',
    ]);
    expect(await refusals(rawSql, file)).toEqual([
      'Only repositories (*.repository.ts) write SQL: call one, or add a function to one.',
    ]);
    expect(await refusals(namespaceSql, file)).toEqual([
      'Only repositories (*.repository.ts) write SQL: call one, or add a function to one.',
    ]);
    expect(await refusals(aliasedQuery, file)).toEqual(
      Array(4).fill('Only repositories (*.repository.ts) build queries: call one, or add a function to one.'),
    );
  });

  it('lets a service import kysely types, by name or by namespace', async () => {
    const types = `import type * as k from 'kysely';
import { type Kysely } from 'kysely';
export type Db = k.Kysely<object> | Kysely<object>;
`;
    expect(await refusals(types, 'apps/server/src/modules/campaigns/campaigns.service.ts')).toEqual([]);
  });

  it.each([
    'apps/server/src/modules/campaigns/campaigns.repository.ts',
    'apps/server/src/jobs/jobs.repository.ts',
    'apps/server/src/db/bulk-insert.ts',
    'apps/server/src/db/migrations/20261126_151722_records_record_state.ts',
    'apps/server/src/modules/campaigns/campaigns-search.routes.test.ts',
  ])('lets %s build queries and write SQL', async (file) => {
    expect(await refusals(builtQuery, file)).toEqual([]);
    expect(await refusals(rawSql, file)).toEqual([]);
    expect(await refusals(namespaceSql, file)).toEqual([]);
    expect(await refusals(aliasedQuery, file)).toEqual([]);
  });
});
