import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '@notice-desk/contract/audit';
import type { AuditLogTable } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { createTestDatabase } from '../../test/app.ts';
import { insertUser } from '../auth/auth.repository.ts';
import { appendAudit, listAudit, type AuditFilter } from './audit.repository.ts';
import { AuditService } from './audit.service.ts';

const TOTAL = 400;
const actions: AuditAction[] = ['export.evidence', 'record.create', 'record.update'];

describe('the audit log paged by key', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const asha = newId();
  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database;
    const now = new Date().toISOString();
    await insertUser(db, { id: asha, name: 'Asha', username: 'asha', password_hash: 'x', created_at: now });
    const rows: AuditLogTable[] = Array.from({ length: TOTAL }, (_, i) => ({
      id: newId(),
      // Spread over days, so a day filter keeps some.
      at: new Date(Date.UTC(2026, 10, 1 + (i % 20), 6)).toISOString(),
      actor_id: i % 3 ? asha : null,
      actor_username: i % 3 ? 'asha' : null,
      action: actions[i % actions.length]!,
      subject_type: 'notice',
      subject_id: newId(),
      summary: `entry ${i}`,
      before: null,
      after: null,
    }));
    for (let i = 0; i < rows.length; i += 100)
      await db
        .insertInto('audit_log')
        .values(rows.slice(i, i + 100))
        .execute();
  });
  afterAll(async () => database?.close());

  it('answers first, middle, last and past-the-end pages as the OFFSET query did, with each filter', async () => {
    const service = new AuditService(database.db, 'UTC', 7);
    const filters: {
      query: { action?: AuditAction; actor?: string; from?: string; to?: string };
      filter: AuditFilter;
    }[] = [
      { query: {}, filter: {} },
      { query: { action: actions[1] }, filter: { action: actions[1] } },
      { query: { actor: 'asha' }, filter: { actor: 'asha' } },
      {
        query: { from: '2026-11-03', to: '2026-11-12' },
        filter: { after: '2026-11-03T00:00:00.000Z', before: '2026-11-13T00:00:00.000Z' },
      },
    ];
    for (const { query, filter } of filters) {
      for (const limit of [1, 10, 25]) {
        const { total } = await service.list({ page: 1, limit, ...query });
        expect(total).toBeGreaterThan(0);
        const last = Math.max(1, Math.ceil(total / limit));
        for (const page of [1, 2, Math.ceil(last / 2), last - 1, last, last + 1].filter((p) => p >= 1)) {
          const answer = await service.list({ page, limit, ...query });
          const expected = await listAudit(database.db, filter, { offset: (page - 1) * limit, limit });
          expect(
            answer.items.map((e) => e._id),
            `${JSON.stringify(query)} page ${page} limit ${limit}`,
          ).toEqual(expected.map((e) => e.id));
        }
      }
    }
  });

  it('sees an entry appended after the boundaries were taken', async () => {
    const service = new AuditService(database.db, 'UTC', 7);
    const before = await service.list({ page: 4, limit: 10 });
    await appendAudit(database.db, {
      actorId: asha,
      action: actions[0]!,
      subjectType: 'notice',
      summary: 'new',
    });
    const after = await service.list({ page: 4, limit: 10 });
    expect(after.total).toBe(before.total + 1);
    expect(after.items.map((e) => e._id)).toEqual(
      (await listAudit(database.db, {}, { offset: 30, limit: 10 })).map((e) => e.id),
    );
  });
});
