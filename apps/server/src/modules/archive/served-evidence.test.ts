import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, isPostgres, type Database } from '../../db/database.ts';
import type { DeliveryStatus } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { unzip } from '../../test/zip.ts';
import { creditCardKind, noticeKind, type RecordKindInfo } from '../records/record-kinds.ts';

/**
 * Served evidence is never destroyed: a row's Delete, Delete All and a campaign's Delete archive every
 * record with a delivery that was attempted or is under way, and erase only records never sent.
 */

let t: TestApp;
let db: Database;
let root: SignedIn;
let asha: SignedIn;
let ravi: SignedIn;

beforeEach(async () => {
  t = await createTestApp();
  root = await signUp(t.app, 'root'); // the first account: ADMIN
  asha = await signUp(t.app, 'asha');
  ravi = await signUp(t.app, 'ravi');
  db = (await openDatabase(t.config)).db;
});
afterEach(async () => {
  await db.destroy();
  await t.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (who: SignedIn, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

/** What became of a record's sending before the delete; `served` says whether that is evidence. */
interface SendState {
  name: string;
  status?: DeliveryStatus;
  attempted?: boolean;
  /** Still holding the record's send on its channel (being sent now). */
  active?: boolean;
  served: boolean;
}

const states: SendState[] = [
  { name: 'written to the outbox', status: 'outbox', attempted: true, served: true },
  { name: 'sent', status: 'sent', attempted: true, served: true },
  { name: 'delivered', status: 'delivered', attempted: true, served: true },
  { name: 'read', status: 'read', attempted: true, served: true },
  { name: 'failed after an attempt', status: 'failed', attempted: true, served: true },
  { name: 'claimed and being sent', status: 'queued', active: true, served: true },
  { name: 'failed before any attempt', status: 'failed', served: false },
  { name: 'never sent', served: false },
];

const sample = (info: RecordKindInfo, tag: string) =>
  Object.fromEntries(info.fields.map((f) => [f.key, `${f.key} ${tag}`]));

async function createRecord(who: SignedIn, info: RecordKindInfo, tag: string) {
  const res = await call(who, 'POST', info.routes.base, { ...sample(info, tag), custName: `Zubin ${tag}` });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ _id: string; campaignId: string }>();
}

/** Records the state's delivery (and its events) as the sending service would have. */
async function recordDelivery(
  who: SignedIn,
  info: RecordKindInfo,
  record: { _id: string; campaignId: string },
  state: SendState,
): Promise<string | undefined> {
  if (!state.status) return undefined;
  const id = newId();
  const at = new Date().toISOString();
  await db
    .insertInto('deliveries')
    .values({
      id,
      owner_id: who.userId,
      record_kind: info.kind,
      record_id: record._id,
      campaign_id: record.campaignId,
      channel: 'email',
      active_key: state.active ? `${record._id}:email` : null,
      recipient: 'customer@example.com',
      recipient_name: 'Zubin',
      status: state.status,
      status_at: at,
      provider_message_id: state.attempted ? `<${id}@test>` : null,
      error: state.status === 'failed' ? 'refused' : null,
      pdf_sha256: null,
      pdf_key: null,
      created_at: at,
      attempted_at: state.attempted ? at : null,
    })
    .execute();
  await db
    .insertInto('delivery_events')
    .values([
      { delivery_id: id, status: 'queued', at, detail: null },
      ...(state.status === 'queued' ? [] : [{ delivery_id: id, status: state.status, at, detail: null }]),
    ])
    .execute();
  return id;
}

/** Records of the kind, one per state, each with its delivery; answers them with the state. */
async function recordsInEveryState(who: SignedIn, info: RecordKindInfo) {
  const made = [];
  for (const [i, state] of states.entries()) {
    const record = await createRecord(who, info, `s${i}`);
    const deliveryId = await recordDelivery(who, info, record, state);
    made.push({ ...record, state, deliveryId });
  }
  return made;
}

const rowsOf = async (info: RecordKindInfo, ids: string[]) =>
  (await db.selectFrom(info.table).select(['id', 'archived_at']).where('id', 'in', ids).execute()) as {
    id: string;
    archived_at: string | null;
  }[];

const deliveriesOf = (recordIds: string[]) =>
  db.selectFrom('deliveries').select(['id', 'status']).where('record_id', 'in', recordIds).execute();

const eventsOf = (deliveryIds: string[]) =>
  deliveryIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('delivery_events').selectAll().where('delivery_id', 'in', deliveryIds).execute();

const servedCount = states.filter((s) => s.served).length;
const unservedCount = states.length - servedCount;

describe.each([noticeKind, creditCardKind])('deleting $label records', (info) => {
  const { base, list, deleteAll } = info.routes;
  const archiveList = `/api/archive/${base.replace('/api/', '')}`;

  it('Delete All archives served records, erases the rest, and says how many of each before and after', async () => {
    const made = await recordsInEveryState(asha, info);
    const ravis = await createRecord(ravi, info, 'ravi');
    await recordDelivery(ravi, info, ravis, states[1]!);
    const served = made.filter((r) => r.state.served);
    const unserved = made.filter((r) => !r.state.served);
    const servedDeliveries = served.map((r) => r.deliveryId!);
    const eventsBefore = await eventsOf(servedDeliveries);

    const preview = await call(asha, 'GET', `${deleteAll}/preview`);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({ archive: servedCount, erase: unservedCount });

    const res = await call(asha, 'POST', deleteAll);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: 'All Credit cards deleted successfully.',
      deleted: states.length,
      archived: servedCount,
      erased: unservedCount,
    });

    // Gone from the lists, the counts, search, the dashboard and the campaign list.
    expect((await call(asha, 'GET', list)).json()).toMatchObject({ items: [], total: 0 });
    const search = await call(asha, 'GET', '/api/search?q=zubin');
    expect(search.json().results.filter((r: { kind: string }) => r.kind === info.kind)).toEqual([]);
    const dashboard = (await call(asha, 'GET', '/api/dashboard')).json();
    expect(info.kind === 'notice' ? dashboard.totalNotices : dashboard.totalCreditCards).toBe(0);
    expect(info.kind === 'notice' ? dashboard.totalNoticeCampaigns : dashboard.totalCreditCardCampaigns).toBe(
      0,
    );
    expect(dashboard.mailInfo).toEqual([]);
    expect((await call(asha, 'GET', `/api/campaigns/${info.kind}`)).json().total).toBe(0);
    expect(
      (await call(asha, 'GET', `/api/campaigns/single-campaign/${made[0]!.campaignId}`)).statusCode,
    ).toBe(404);
    for (const record of made) {
      expect((await call(asha, 'GET', `${base}/${record._id}`)).statusCode).toBe(404);
      expect((await call(asha, 'PUT', `${base}/${record._id}`, sample(info, 'edit'))).statusCode).toBe(404);
      expect((await call(asha, 'GET', `${base}/${record._id}/delete-preview`)).statusCode).toBe(404);
    }
    // A second Delete All finds nothing more to do.
    expect((await call(asha, 'GET', `${deleteAll}/preview`)).json()).toEqual({ archive: 0, erase: 0 });

    // Served records, their deliveries and every event are kept; the others are really erased.
    const rows = await rowsOf(
      info,
      made.map((r) => r._id),
    );
    expect(rows.map((r) => r.id).sort()).toEqual(served.map((r) => r._id).sort());
    expect(rows.every((r) => r.archived_at !== null)).toBe(true);
    expect((await deliveriesOf(served.map((r) => r._id))).length).toBe(servedCount);
    expect(await eventsOf(servedDeliveries)).toEqual(expect.arrayContaining(eventsBefore));
    expect((await eventsOf(servedDeliveries)).length).toBe(eventsBefore.length);
    expect(await deliveriesOf(unserved.map((r) => r._id))).toEqual([]);
    const failedEarly = unserved.flatMap((r) => (r.deliveryId ? [r.deliveryId] : []));
    expect(await eventsOf(failedEarly)).toEqual([]);

    // Evidence still downloads for every archived record; an erased record has none.
    for (const record of served) {
      const bundle = await call(asha, 'GET', `${base}/${record._id}/evidence`);
      expect(bundle.statusCode, record.state.name).toBe(200);
      const files = await unzip(bundle.rawPayload);
      const deliveries = JSON.parse(files.find((f) => f.name === 'deliveries.json')!.data.toString());
      expect(deliveries.records[0].deliveries).toHaveLength(1);
    }
    for (const record of unserved)
      expect((await call(asha, 'GET', `${base}/${record._id}/evidence`)).statusCode).toBe(404);

    // Another owner's records are untouched.
    expect((await call(ravi, 'GET', list)).json().total).toBe(1);

    // The audit log keeps both counts.
    const audit = (await call(root, 'GET', '/api/audit?action=record.delete-all')).json();
    expect(audit.items[0].after).toMatchObject({ archived: servedCount, erased: unservedCount });
    expect(audit.items[0].summary).toContain(`archived ${servedCount}`);

    // The ADMIN sees them in the archive; a plain user may not look.
    const archived = await call(root, 'GET', archiveList);
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json().total).toBe(servedCount);
    expect(archived.json().items[0]).toMatchObject({ kind: info.kind, owner: { username: 'asha' } });
    expect((await call(asha, 'GET', archiveList)).statusCode).toBe(403);
    expect((await call(asha, 'GET', '/api/archive/campaigns')).statusCode).toBe(403);
    const admin = await call(root, 'GET', `${archiveList}/${served[0]!._id}/evidence`);
    expect(admin.statusCode).toBe(200);
    expect((await call(asha, 'GET', `${archiveList}/${served[0]!._id}/evidence`)).statusCode).toBe(403);
    // Only archived records are there: a live record's id is not.
    expect((await call(root, 'GET', `${archiveList}/${ravis._id}/evidence`)).statusCode).toBe(404);
    const campaigns = (await call(root, 'GET', '/api/archive/campaigns')).json();
    expect(campaigns.items).toEqual([
      expect.objectContaining({ _id: made[0]!.campaignId, name: 'Manual entries', records: servedCount }),
    ]);

    // A record typed in afterwards brings the Manual entries campaign back, holding only the new record.
    const fresh = await createRecord(asha, info, 'fresh');
    expect(fresh.campaignId).toBe(made[0]!.campaignId);
    expect((await call(asha, 'GET', list)).json().total).toBe(1);
    const detail = (await call(asha, 'GET', `/api/campaigns/single-campaign/${fresh.campaignId}`)).json();
    expect(detail.total).toBe(1);
    expect(detail.completedCounts).toBe(0);
  }, 120_000);

  it("a row's Delete archives a served record and erases one never sent, and says which", async () => {
    const made = await recordsInEveryState(asha, info);
    let live = made.length;
    const found = async (tag: string) =>
      (await call(asha, 'GET', `/api/search?q=${encodeURIComponent(`Zubin ${tag}`)}`))
        .json()
        .results.map((r: { _id: string }) => r._id);
    for (const [i, record] of made.entries()) {
      expect(await found(`s${i}`), record.state.name).toContain(record._id);
      const expected = record.state.served ? { archive: 1, erase: 0 } : { archive: 0, erase: 1 };
      const preview = await call(asha, 'GET', `${base}/${record._id}/delete-preview`);
      expect(preview.json(), record.state.name).toEqual(expected);
      const res = await call(asha, 'DELETE', `${base}/${record._id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json(), record.state.name).toEqual({
        message: info.deletedMessage,
        archived: expected.archive,
        erased: expected.erase,
      });
      live -= 1;
      const page = (await call(asha, 'GET', `${list}?limit=100`)).json();
      expect(page.total).toBe(live);
      expect(page.items.map((r: { _id: string }) => r._id)).not.toContain(record._id);
      expect((await call(asha, 'DELETE', `${base}/${record._id}`)).statusCode).toBe(404);
      expect(await found(`s${i}`), record.state.name).not.toContain(record._id);
      const evidence = await call(asha, 'GET', `${base}/${record._id}/evidence`);
      expect(evidence.statusCode, record.state.name).toBe(record.state.served ? 200 : 404);
    }
    const rows = await rowsOf(
      info,
      made.map((r) => r._id),
    );
    expect(rows.map((r) => r.id).sort()).toEqual(
      made
        .filter((r) => r.state.served)
        .map((r) => r._id)
        .sort(),
    );
    const audit = (await call(root, 'GET', '/api/audit?action=record.delete&limit=100')).json();
    expect(audit.items.map((e: { after: object }) => e.after)).toEqual(
      expect.arrayContaining([
        { archived: 1, erased: 0 },
        { archived: 0, erased: 1 },
      ]),
    );
    // The campaign held archived records only: it left the list, kept in the archive.
    expect((await call(asha, 'GET', `/api/campaigns/${info.kind}`)).json().total).toBe(0);
    expect((await call(root, 'GET', '/api/archive/campaigns')).json().total).toBe(1);
  }, 120_000);

  it('the campaign detail leaves out archived records: rows, total and sent count', async () => {
    const made = await recordsInEveryState(asha, info);
    const servedOne = made.find((r) => r.state.name === 'sent')!;
    const url = `/api/campaigns/single-campaign/${servedOne.campaignId}?limit=100`;
    const before = (await call(asha, 'GET', url)).json();
    expect(before.total).toBe(states.length);
    await call(asha, 'DELETE', `${base}/${servedOne._id}`);
    const after = (await call(asha, 'GET', url)).json();
    const rows = after.notices ?? after.creditCards;
    expect(after.total).toBe(states.length - 1);
    expect(rows.map((r: { _id: string }) => r._id)).not.toContain(servedOne._id);
    expect(after.completedCounts).toBe(before.completedCounts - 1);
    // The campaign's evidence still holds the archived record.
    const bundle = await call(asha, 'GET', `/api/campaigns/${servedOne.campaignId}/evidence`);
    const files = await unzip(bundle.rawPayload);
    const evidence = JSON.parse(files.find((f) => f.name === 'deliveries.json')!.data.toString());
    expect(evidence.records.map((r: { _id: string }) => r._id)).toContain(servedOne._id);
  }, 120_000);
});

describe("a campaign's Delete", () => {
  it('archives the campaign with its served records and erases the others; the evidence still downloads', async () => {
    const made = await recordsInEveryState(asha, noticeKind);
    const campaignId = made[0]!.campaignId;
    const preview = await call(asha, 'GET', `/api/campaigns/${campaignId}/delete-preview`);
    expect(preview.json()).toEqual({ archive: servedCount, erase: unservedCount });
    const res = await call(asha, 'DELETE', `/api/campaigns/${campaignId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: 'Campaign deleted successfully.',
      archived: servedCount,
      erased: unservedCount,
    });
    expect((await call(asha, 'GET', '/api/campaigns/notice')).json().total).toBe(0);
    expect((await call(asha, 'GET', `/api/campaigns/single-campaign/${campaignId}`)).statusCode).toBe(404);
    expect((await call(asha, 'DELETE', `/api/campaigns/${campaignId}`)).statusCode).toBe(404);
    expect((await call(asha, 'GET', '/api/notices/by-user-id')).json().total).toBe(0);
    expect((await call(asha, 'GET', '/api/dashboard')).json()).toMatchObject({
      totalNotices: 0,
      totalNoticeCampaigns: 0,
      mailInfo: [],
    });
    expect((await call(asha, 'GET', `/api/campaigns/${campaignId}/evidence`)).statusCode).toBe(200);
    expect((await call(root, 'GET', `/api/archive/campaigns/${campaignId}/evidence`)).statusCode).toBe(200);
    expect((await call(ravi, 'GET', `/api/archive/campaigns/${campaignId}/evidence`)).statusCode).toBe(403);
    const archived = (await call(root, 'GET', '/api/archive/campaigns')).json();
    expect(archived.items[0]).toMatchObject({
      _id: campaignId,
      type: 'notice',
      owner: { username: 'asha' },
      records: servedCount,
    });
    const audit = (await call(root, 'GET', '/api/audit?action=campaign.delete')).json();
    expect(audit.items[0].after).toEqual({
      archived: servedCount,
      erased: unservedCount,
      campaign: 'archived',
    });
  }, 120_000);

  it('removes a campaign whose records were never sent, leaving nothing in the archive', async () => {
    const a = await createRecord(asha, creditCardKind, 'a');
    const b = await createRecord(asha, creditCardKind, 'b');
    await recordDelivery(
      asha,
      creditCardKind,
      b,
      states.find((s) => s.name === 'failed before any attempt')!,
    );
    const res = await call(asha, 'DELETE', `/api/campaigns/${a.campaignId}`);
    expect(res.json()).toEqual({ message: 'Campaign deleted successfully.', archived: 0, erased: 2 });
    expect(await db.selectFrom('campaigns').select('id').where('id', '=', a.campaignId).execute()).toEqual(
      [],
    );
    expect((await call(root, 'GET', '/api/archive/campaigns')).json().total).toBe(0);
    expect((await call(root, 'GET', '/api/archive/credit-cards')).json().total).toBe(0);
  });

  it('answers 404 for another owner’s campaign and 400 for an id that is not one', async () => {
    const a = await createRecord(asha, noticeKind, 'a');
    expect((await call(ravi, 'GET', `/api/campaigns/${a.campaignId}/delete-preview`)).statusCode).toBe(404);
    expect((await call(ravi, 'GET', `/api/notices/${a._id}/delete-preview`)).statusCode).toBe(404);
    for (const bad of ['nope', '1', 'x'.repeat(40)]) {
      const res = await call(asha, 'GET', `/api/campaigns/${bad}/delete-preview`);
      expect(res.statusCode, bad).toBe(400);
    }
    for (const query of ['page=0', 'limit=1000', 'page=1e15', 'limit=abc']) {
      const res = await call(root, 'GET', `/api/archive/notices?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toMatch(/page|limit/);
    }
  });
});

describe('a delete racing a send', () => {
  it('waits for a claim being made, then counts its record as served (PostgreSQL)', async (ctx) => {
    // SQLite runs one write transaction at a time across connections, so a claim there commits
    // wholly before the delete's check or wholly after its erase; the race exists on PostgreSQL only.
    if (!isPostgres(db)) ctx.skip();
    const records: { _id: string; campaignId: string }[] = [];
    for (let i = 0; i < 3; i++) records.push(await createRecord(asha, noticeKind, `race${i}`));
    let commitClaim!: () => void;
    const claimMayCommit = new Promise<void>((resolve) => (commitClaim = resolve));
    let claimInserted!: () => void;
    const claimIsIn = new Promise<void>((resolve) => (claimInserted = resolve));
    const claim = db.transaction().execute(async (trx) => {
      const at = new Date().toISOString();
      await trx
        .insertInto('deliveries')
        .values({
          id: newId(),
          owner_id: asha.userId,
          record_kind: 'notice',
          record_id: records[1]!._id,
          campaign_id: records[1]!.campaignId,
          channel: 'email',
          active_key: `${records[1]!._id}:email`,
          recipient: 'customer@example.com',
          recipient_name: 'Zubin',
          status: 'queued',
          status_at: at,
          provider_message_id: null,
          error: null,
          pdf_sha256: null,
          pdf_key: null,
          created_at: at,
          attempted_at: null,
        })
        .execute();
      claimInserted();
      await claimMayCommit;
    });
    await claimIsIn;
    let answered = false;
    const deleting = call(asha, 'POST', '/api/notices/delete-all-notices').then((res) => {
      answered = true;
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The delete waits for the claim rather than deciding without it.
    expect(answered).toBe(false);
    commitClaim();
    await claim;
    const res = await deleting;
    expect(res.json()).toMatchObject({ archived: 1, erased: 2 });
    expect((await rowsOf(noticeKind, [records[1]!._id]))[0]?.archived_at).not.toBeNull();
  });
});
