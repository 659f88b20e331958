import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditList } from '@notice-desk/contract/audit';
import { openDatabase } from '../../db/database.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { noticeKind } from '../records/record-kinds.ts';

let t: TestApp;
let admin: SignedIn;
let asha: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signUp(t.app, 'admin');
  asha = await signUp(t.app, 'asha');
});
afterAll(async () => t.close());

const audit = async (query = '') => {
  const res = await t.app.inject({ method: 'GET', url: `/api/audit${query}`, headers: admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AuditList>();
};

const noticeFields = (name: string) => ({
  ...Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-1`])),
  custName: name,
  loanNo: 'LN-77',
});

describe('the audit log', () => {
  let noticeId: string;

  it('records who created, edited and deleted a record, with before and after for the edit', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/notices',
      headers: asha.headers,
      payload: noticeFields('Ravi Kumar'),
    });
    noticeId = created.json<{ _id: string }>()._id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/notices/${noticeId}`,
      headers: asha.headers,
      payload: { ...noticeFields('Ravi Kumar'), city: 'Pune' },
    });

    const { items } = await audit('?actor=asha');
    const [edit, create] = items;
    expect(create).toMatchObject({
      action: 'record.create',
      actor: { username: 'asha' },
      subjectType: 'notice',
      subjectId: noticeId,
      summary: 'Notice for Ravi Kumar (loan LN-77)',
      before: null,
    });
    expect(create!.after).toMatchObject({ custName: 'Ravi Kumar', loanNo: 'LN-77' });
    // An edit keeps only what changed.
    expect(edit).toMatchObject({
      action: 'record.update',
      before: { city: 'city-1' },
      after: { city: 'Pune' },
    });

    await t.app.inject({ method: 'DELETE', url: `/api/notices/${noticeId}`, headers: asha.headers });
    const [deleted] = (await audit('?action=record.delete')).items;
    expect(deleted).toMatchObject({ actor: { username: 'asha' }, subjectId: noticeId });
    expect(deleted!.before).toMatchObject({ custName: 'Ravi Kumar', city: 'Pune' });
  });

  it('records template changes with the text before and after', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/whatsapptemplates/getdata?page=1&limit=10',
      headers: admin.headers,
    });
    const template = list.json<{ items: { _id: string; value: string; kind: string }[] }>().items[0]!;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/whatsapptemplates/update/${template._id}`,
      headers: admin.headers,
      payload: { value: 'Dear {{custName}}, please call us.' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = (await audit('?action=template.update')).items;
    expect(entry).toMatchObject({
      actor: { username: 'admin' },
      subjectId: template._id,
      before: { value: template.value },
      after: { value: 'Dear {{custName}}, please call us.' },
    });
  });

  it('records sends and sign-ups, newest first, filtered by day', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/notices',
      headers: asha.headers,
      payload: { ...noticeFields('Meena Shah'), emailId: 'meena@example.com', modeOfDispatch: 'Email' },
    });
    const id = created.json<{ _id: string }>()._id;
    await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/send-mail',
      headers: asha.headers,
      payload: { data: [id], type: 'notice' },
    });
    const [sent] = (await audit('?action=notice.send')).items;
    expect(sent).toMatchObject({
      summary: 'Notice records sent: 1 by e-mail, 0 by WhatsApp',
      after: { records: [id], email: 1, whatsapp: 0, resend: false },
    });

    // Days are TIME_ZONE's (Asia/Kolkata), as the screen shows times: today there, not in UTC.
    const dayIn = (ms: number) => new Date(ms + 5.5 * 3600_000).toISOString().slice(0, 10);
    const today = dayIn(Date.now());
    const all = await audit(`?from=${today}&to=${today}&limit=100`);
    expect(all.timeZone).toBe('Asia/Kolkata');
    expect(all.items.map((e: AuditEntry) => e.action)).toContain('user.register');
    expect((await audit(`?from=${dayIn(Date.now() + 86_400_000)}`)).items).toEqual([]);
    expect((await audit(`?to=${dayIn(Date.now() - 86_400_000)}`)).items).toEqual([]);
    expect((await audit('?to=9999-12-31')).total).toBe(all.total);
    const times = all.items.map((e) => e.at);
    expect(times).toEqual([...times].sort().reverse());
    expect((await audit('?to=2000-01-01')).items).toEqual([]);
  });

  it('is for ADMINs only, and refuses filters it cannot read, naming them', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/audit', headers: asha.headers });
    expect(res.statusCode).toBe(403);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/audit?from=22-11-2026&action=stole',
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/from must be a date written YYYY-MM-DD/);
  });

  it('cannot be changed or deleted, even by SQL', async () => {
    const { db } = await openDatabase(t.config);
    try {
      await expect(
        db.updateTable('audit_log').set({ summary: 'nothing happened' }).execute(),
      ).rejects.toThrow(/append-only/);
      await expect(db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
    } finally {
      await db.destroy();
    }
    expect((await audit()).total).toBeGreaterThan(5);
  });
});
