import type { FunnelRow } from '@notice-desk/contract/funnel';
import type { NoticePageEvent } from '@notice-desk/contract/notice-page';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.ts';
import type { Channel, DeliveryStatus } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { seedDelivery } from '../../test/deliveries.ts';
import { insertPageEvents } from '../../test/page-events.ts';
import { insertImportCampaign, markCampaignReady } from '../campaigns/campaigns.repository.ts';
import { noticeKind } from '../records/record-kinds.ts';
import { insertRecords, type RecordRow } from '../records/records.repository.ts';
import * as deliveries from '../sending/deliveries.repository.ts';

let t: TestApp;
let db: Database;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  db = (await openDatabase(t.config)).db;
  // The first account is the ADMIN.
  admin = await signUp(t.app, 'funnel-admin');
});
afterAll(async () => {
  await db?.destroy();
  await t?.close();
});

const zero = {
  sent: 0,
  delivered: 0,
  read: 0,
  opened: 0,
  verified: 0,
  acknowledged: 0,
  disputed: 0,
  settleRequested: 0,
};
const rowsOf = (email: object, whatsapp: object, any: object, sms: object = {}): FunnelRow[] => [
  { channel: 'email', ...zero, ...email },
  { channel: 'whatsapp', ...zero, ...whatsapp },
  { channel: 'sms', ...zero, ...sms },
  { channel: 'any', ...zero, ...any },
];

/** A ready campaign of the owner's with `n` notices; answers its id and its records' ids. */
async function campaignWith(owner: SignedIn, n: number): Promise<{ id: string; records: string[] }> {
  const id = newId();
  const now = new Date().toISOString();
  await insertImportCampaign(db, {
    id,
    owner_id: owner.userId,
    kind: 'notice',
    name: `Funnel ${id.slice(0, 8)}.xlsx`,
    job_id: newId(),
    created_at: now,
  });
  await markCampaignReady(db, id, { imported: n, skipped: 0 });
  const rows: RecordRow[] = Array.from({ length: n }, (_, i) => {
    const row: RecordRow = {
      id: newId(),
      owner_id: owner.userId,
      campaign_id: id,
      created_at: now,
      updated_at: now,
    };
    for (const field of noticeKind.fields) row[field.key] = `${field.key} ${i}`;
    return row;
  });
  await insertRecords(db, noticeKind, rows);
  return { id, records: rows.map((r) => r.id) };
}

/** An attempt on the record's channel that reached `statuses` in turn. */
async function attempt(
  owner: SignedIn,
  campaignId: string,
  recordId: string,
  channel: Channel,
  ...statuses: DeliveryStatus[]
) {
  const [first, ...rest] = statuses;
  const id = await seedDelivery(
    db,
    { owner_id: owner.userId, campaign_id: campaignId, record_id: recordId, channel, active_key: null },
    first,
  );
  let from = first!;
  for (const status of rest) {
    await deliveries.advanceStatus(db, { id, status: from }, status, new Date().toISOString());
    from = status;
  }
}

const events = (
  owner: SignedIn,
  campaignId: string,
  recordId: string,
  channel: string | null,
  ...names: NoticePageEvent[]
) =>
  insertPageEvents(
    db,
    { owner_id: owner.userId, campaign_id: campaignId, record_id: recordId, channel },
    names,
  );

const funnelOf = (who: SignedIn, url: string) => t.app.inject({ method: 'GET', url, headers: who.headers });

describe('GET /api/campaigns/:id/funnel', () => {
  it('counts each record once per step and channel, page events by their link’s channel, unknown ones in any', async () => {
    const owner = await signUp(t.app, 'funnel-owner');
    const { id, records: r } = await campaignWith(owner, 9);
    await attempt(owner, id, r[0]!, 'email', 'sent');
    await attempt(owner, id, r[1]!, 'email', 'sent', 'delivered');
    // Failed, then resent and delivered: one record, sent and delivered once.
    await attempt(owner, id, r[2]!, 'email', 'failed');
    await attempt(owner, id, r[2]!, 'email', 'sent', 'delivered');
    await attempt(owner, id, r[3]!, 'email', 'sent', 'bounced');
    await attempt(owner, id, r[4]!, 'email', 'outbox');
    await attempt(owner, id, r[5]!, 'email', 'failed');
    await attempt(owner, id, r[5]!, 'email', 'queued');
    await attempt(owner, id, r[1]!, 'whatsapp', 'sent', 'delivered', 'read');
    await attempt(owner, id, r[2]!, 'whatsapp', 'sent', 'delivered');
    await attempt(owner, id, r[6]!, 'whatsapp', 'not_serviceable');
    // Opened three times by the e-mail's link, then by WhatsApp's: once on each channel, once in any.
    await events(
      owner,
      id,
      r[1]!,
      'email',
      'link_opened',
      'link_opened',
      'check_failed',
      'link_opened',
      'verified',
      'pdf_viewed',
      'acknowledged',
    );
    await events(owner, id, r[1]!, 'whatsapp', 'link_opened');
    await events(owner, id, r[2]!, 'whatsapp', 'link_opened', 'verified', 'disputed', 'settle_requested');
    await events(owner, id, r[2]!, null, 'link_opened', 'callback_requested', 'payment_link_opened');
    await events(owner, id, r[0]!, null, 'link_opened', 'verified', 'settle_requested');
    await events(owner, id, r[7]!, 'sms', 'link_opened');

    const res = await funnelOf(owner, `/api/campaigns/${id}/funnel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rows).toEqual(
      rowsOf(
        { sent: 5, delivered: 2, opened: 1, verified: 1, acknowledged: 1 },
        { sent: 2, delivered: 2, read: 1, opened: 2, verified: 1, disputed: 1, settleRequested: 1 },
        {
          sent: 5,
          delivered: 2,
          read: 1,
          opened: 4,
          verified: 3,
          acknowledged: 1,
          disputed: 1,
          settleRequested: 2,
        },
        // An SMS link's page event counts on SMS (issue 31): opened, with no SMS sent.
        { opened: 1 },
      ),
    );
  });

  it('leaves out archived records, other campaigns and other owners', async () => {
    const owner = await signUp(t.app, 'funnel-archive');
    const other = await signUp(t.app, 'funnel-other');
    const { id, records: r } = await campaignWith(owner, 3);
    const elsewhere = await campaignWith(owner, 1);
    const theirs = await campaignWith(other, 1);
    for (const record of r) await attempt(owner, id, record, 'email', 'sent', 'delivered');
    for (const record of r) await events(owner, id, record, 'email', 'link_opened');
    await attempt(owner, elsewhere.id, elsewhere.records[0]!, 'email', 'sent');
    await events(owner, elsewhere.id, elsewhere.records[0]!, 'email', 'acknowledged');
    await attempt(other, theirs.id, theirs.records[0]!, 'whatsapp', 'sent');
    await db
      .updateTable('notices')
      .set({ archived_at: new Date().toISOString() })
      .where('id', '=', r[0]!)
      .execute();

    const res = await funnelOf(owner, `/api/campaigns/${id}/funnel`);
    expect(res.json().rows).toEqual(
      rowsOf({ sent: 2, delivered: 2, opened: 2 }, {}, { sent: 2, delivered: 2, opened: 2 }),
    );
  });

  it('answers every step at 0 for a campaign with nothing sent', async () => {
    const owner = await signUp(t.app, 'funnel-empty');
    const { id } = await campaignWith(owner, 2);
    const res = await funnelOf(owner, `/api/campaigns/${id}/funnel`);
    expect(res.statusCode).toBe(200);
    expect(res.json().rows).toEqual(rowsOf({}, {}, {}));
  });

  it('answers 404 for another’s campaign (an ADMIN’s call too) and a missing one, 400 for an id that is none', async () => {
    const owner = await signUp(t.app, 'funnel-private');
    const stranger = await signUp(t.app, 'funnel-stranger');
    const { id } = await campaignWith(owner, 1);
    for (const who of [stranger, admin]) {
      const res = await funnelOf(who, `/api/campaigns/${id}/funnel`);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Campaign not found.');
    }
    expect((await funnelOf(owner, `/api/campaigns/${newId()}/funnel`)).statusCode).toBe(404);
    for (const bad of ['not-an-id', `${id}x`, "1' or '1'='1", '%00']) {
      const res = await funnelOf(owner, `/api/campaigns/${encodeURIComponent(bad)}/funnel`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toMatch(/id/i);
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/campaigns/${id}/funnel` })).statusCode).toBe(401);
  });
});

describe('GET /api/dashboard/funnel', () => {
  it('counts the caller’s live campaigns; an ADMIN’s counts everyone’s', async () => {
    const owner = await signUp(t.app, 'funnel-dash');
    const { id: first, records: a } = await campaignWith(owner, 2);
    const { id: second, records: b } = await campaignWith(owner, 2);
    const { id: gone, records: g } = await campaignWith(owner, 1);
    await attempt(owner, first, a[0]!, 'email', 'sent', 'delivered');
    await attempt(owner, second, b[0]!, 'email', 'sent');
    await attempt(owner, second, b[1]!, 'whatsapp', 'sent', 'read');
    await events(owner, second, b[1]!, 'whatsapp', 'link_opened', 'acknowledged');
    await attempt(owner, gone, g[0]!, 'email', 'sent');
    await events(owner, gone, g[0]!, 'email', 'link_opened');
    // A deleted campaign is archived with its records: out of every count.
    await db
      .updateTable('campaigns')
      .set({ archived_at: new Date().toISOString() })
      .where('id', '=', gone)
      .execute();

    const mine = await funnelOf(owner, '/api/dashboard/funnel');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().rows).toEqual(
      rowsOf(
        { sent: 2, delivered: 1 },
        { sent: 1, delivered: 1, read: 1, opened: 1, acknowledged: 1 },
        { sent: 3, delivered: 2, read: 1, opened: 1, acknowledged: 1 },
      ),
    );
    const newcomer = await signUp(t.app, 'funnel-newcomer');
    expect((await funnelOf(newcomer, '/api/dashboard/funnel')).json().rows).toEqual(rowsOf({}, {}, {}));
    const elsewhere = await campaignWith(newcomer, 1);
    await attempt(newcomer, elsewhere.id, elsewhere.records[0]!, 'whatsapp', 'sent');
    const everyone = (await funnelOf(admin, '/api/dashboard/funnel')).json().rows as FunnelRow[];
    // Every test's campaigns so far, this one's two owners' included.
    const row = (channel: FunnelRow['channel']) => everyone.find((r) => r.channel === channel)!;
    expect(row('whatsapp').sent).toBeGreaterThanOrEqual(2);
    expect(row('any').sent).toBeGreaterThanOrEqual(4);
    expect((await funnelOf(newcomer, '/api/dashboard/funnel')).json().rows).toEqual(
      rowsOf({}, { sent: 1 }, { sent: 1 }),
    );
  });
});
