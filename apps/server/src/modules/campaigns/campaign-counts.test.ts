import fs from 'node:fs';
import path from 'node:path';
import type { SingleCampaign } from '@notice-desk/contract/campaigns';
import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.ts';
import { createTestApp, signUp, uploadFile, type SignedIn, type TestApp } from '../../test/app.ts';
import { seedDelivery } from '../../test/deliveries.ts';
import { seedPageEvent, type PageOf } from '../../test/notice-page.ts';
import { until } from '../../test/until.ts';
import { recordSheet, writeSheet } from '../../test/xlsx.ts';
import { noticeKind } from '../records/record-kinds.ts';
import * as deliveries from '../sending/deliveries.repository.ts';
import { ServiceDatesService } from '../service-dates/service-dates.service.ts';
import { countsVersion } from './campaigns.repository.ts';
import { CampaignsService } from './campaigns.service.ts';

/**
 * The campaign page's counts are kept between reads (kept-counts.ts) and must still be exact at once
 * after every kind of write they read, whoever writes it: the app answers the page, and the writes go
 * through its routes or straight to the database, as another process would write them.
 */
let t: TestApp;
let db: Database;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  db = (await openDatabase(t.config, { checkpointer: false })).db;
  admin = await signUp(t.app, 'counts-admin');
}, 60_000);
afterAll(async () => {
  await db.destroy();
  await t.close();
});

const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** A notice typed in by hand (it joins Manual entries), reachable by e-mail and WhatsApp. */
async function addNotice(who: SignedIn, i: number, fields: Record<string, string> = {}): Promise<PageOf> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/notices',
    headers: who.headers,
    payload: {
      ...Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${i}`])),
      custName: `Customer ${i}`,
      loanNo: `LN-${i}`,
      emailId: `c${i}@example.com`,
      custMobileNo: `98765${String(i).padStart(5, '0')}`,
      modeOfDispatch: 'Email and WhatsApp',
      ...fields,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json<{ _id: string; campaignId: string }>();
  return { owner_id: who.userId, record_id: body._id, campaign_id: body.campaignId };
}

type Counts = {
  [key in 'total' | 'completedCounts' | 'statusCounts' | 'notServiceable' | 'serviceCounts']-?: NonNullable<
    SingleCampaign[key]
  >;
};

const countsOf = (body: SingleCampaign): Counts => ({
  total: body.total,
  completedCounts: body.completedCounts,
  statusCounts: [...(body.statusCounts ?? [])].sort((a, b) =>
    `${a.channel}:${a.status}`.localeCompare(`${b.channel}:${b.status}`),
  ),
  notServiceable: body.notServiceable!,
  serviceCounts: body.serviceCounts!,
});

/** The campaign page's counts as the app answers them (kept from an earlier read when nothing changed). */
async function pageCounts(who: SignedIn, campaignId: string): Promise<Counts> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/campaigns/single-campaign/${campaignId}`,
    headers: who.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return countsOf(res.json());
}

/** The same counts from a service that has kept nothing: what the database says now. */
async function freshCounts(who: SignedIn, campaignId: string): Promise<Counts> {
  const service = new CampaignsService(
    db,
    undefined,
    t.config.defaultCountryCode,
    new ServiceDatesService(db, {
      deemedServiceDays: t.config.deemedServiceDays,
      postDeemedServiceDays: t.config.postDeemedServiceDays,
      timeZone: t.config.timeZone,
    }),
  );
  return countsOf(await service.single(who.userId, campaignId, { page: 1, limit: 50 }));
}

/** Reads the page (keeping its counts), writes, and expects the next read to show the write at once. */
async function expectChange(
  who: SignedIn,
  campaignId: string,
  write: () => Promise<unknown>,
  change: (before: Counts) => Partial<Counts>,
): Promise<Counts> {
  const before = await pageCounts(who, campaignId);
  expect(await pageCounts(who, campaignId)).toEqual(before);
  const version = await countsVersion(db, campaignId);
  await write();
  expect(await countsVersion(db, campaignId)).toBeGreaterThan(version);
  const after = await pageCounts(who, campaignId);
  expect(after).toEqual({ ...before, ...change(before) });
  expect(after).toEqual(await freshCounts(who, campaignId));
  return after;
}

describe("the campaign page's counts, kept between reads", () => {
  it('move at once with a delivery, its status changes and its service facts', async () => {
    const who = await signUp(t.app, 'counts-sends');
    const pages = [await addNotice(who, 1), await addNotice(who, 2), await addNotice(who, 3)];
    const campaignId = pages[0]!.campaign_id;
    // NI Act s.138: respond within 15 days of service.
    const basis = await t.app.inject({
      method: 'PUT',
      url: '/api/legal-basis/kinds/notice',
      headers: admin.headers,
      payload: { basis: 'ni-138' },
    });
    expect(basis.statusCode, basis.body).toBe(200);

    let deliveryId = '';
    const sent = await expectChange(
      who,
      campaignId,
      async () => {
        deliveryId = await seedDelivery(db, { ...pages[0]!, channel: 'email' });
        // Sent 40 days ago, never delivered: deemed served 30 days later, so respond by in 5 days.
        await deliveries.advanceStatus(db, { id: deliveryId, status: 'queued' }, 'sent', ago(40 * DAY));
      },
      (before) => ({
        completedCounts: before.completedCounts + 1,
        statusCounts: [{ channel: 'email', status: 'sent', count: 1 }],
        serviceCounts: { ...before.serviceCounts, respond_by_within_7_days: 1 },
      }),
    );
    expect(sent.serviceCounts.respond_by_within_7_days).toBe(1);

    await expectChange(
      who,
      campaignId,
      // Delivered the day after it was sent: served then, so its respond-by date has passed.
      () => deliveries.advanceStatus(db, { id: deliveryId, status: 'sent' }, 'delivered', ago(39 * DAY)),
      (before) => ({
        statusCounts: [{ channel: 'email', status: 'delivered', count: 1 }],
        serviceCounts: { ...before.serviceCounts, respond_by_passed: 1, respond_by_within_7_days: 0 },
      }),
    );

    await expectChange(
      who,
      campaignId,
      () => seedDelivery(db, { ...pages[1]!, channel: 'whatsapp' }, 'failed', { error: 'No such number' }),
      (before) => ({
        statusCounts: [...before.statusCounts, { channel: 'whatsapp', status: 'failed', count: 1 }],
      }),
    );
  });

  it('move at once with a notice page event', async () => {
    const who = await signUp(t.app, 'counts-page');
    const pages = [await addNotice(who, 1), await addNotice(who, 2)];
    const campaignId = pages[0]!.campaign_id;
    await expectChange(
      who,
      campaignId,
      () => seedPageEvent(db, pages[0]!, 'link_opened', ago(60_000)),
      (before) => ({ serviceCounts: { ...before.serviceCounts, opened: 1 } }),
    );
    await expectChange(
      who,
      campaignId,
      () => seedPageEvent(db, pages[1]!, 'acknowledged', ago(30_000)),
      (before) => ({ serviceCounts: { ...before.serviceCounts, acknowledged: 1 } }),
    );
    await expectChange(
      who,
      campaignId,
      () => seedPageEvent(db, pages[1]!, 'disputed', ago(10_000)),
      (before) => ({ serviceCounts: { ...before.serviceCounts, disputed: 1 } }),
    );
  });

  it('move at once when a record is added, edited or deleted', async () => {
    const who = await signUp(t.app, 'counts-records');
    const first = await addNotice(who, 1);
    const campaignId = first.campaign_id;
    const second = await expectChange(
      who,
      campaignId,
      () => addNotice(who, 2, { emailId: 'not an address' }),
      (before) => ({
        total: before.total + 1,
        notServiceable: { ...before.notServiceable, email: before.notServiceable.email + 1 },
      }),
    );
    expect(second.total).toBe(2);

    const edit = (fields: Record<string, string>) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/notices/${first.record_id}`,
        headers: who.headers,
        payload: {
          ...Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-1`])),
          custName: 'Customer 1',
          loanNo: 'LN-1',
          emailId: 'c1@example.com',
          custMobileNo: '9876500001',
          modeOfDispatch: 'Email and WhatsApp',
          ...fields,
        },
      });
    const remove = async (record: PageOf) => {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/notices/${record.record_id}`,
        headers: who.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    await expectChange(
      who,
      campaignId,
      async () => expect((await edit({ custMobileNo: '12' })).statusCode).toBe(200),
      (before) => ({ notServiceable: { ...before.notServiceable, whatsapp: 1 } }),
    );
    await expectChange(
      who,
      campaignId,
      // WhatsApp only: its mobile is still wrong, but it no longer goes by e-mail.
      async () =>
        expect((await edit({ custMobileNo: '12', modeOfDispatch: 'WhatsApp' })).statusCode).toBe(200),
      () => ({ notServiceable: { email: 1, whatsapp: 1 } }),
    );

    await expectChange(
      who,
      campaignId,
      async () => expect(await remove(first)).toMatchObject({ erased: 1 }),
      (before) => ({ total: before.total - 1, notServiceable: { email: 1, whatsapp: 0 } }),
    );

    // A served record is archived, not erased: it leaves the counts all the same.
    const third = await addNotice(who, 3);
    await seedDelivery(db, { ...third, channel: 'email' }, 'sent');
    await expectChange(
      who,
      campaignId,
      async () => expect(await remove(third)).toMatchObject({ archived: 1 }),
      (before) => ({ total: before.total - 1, completedCounts: before.completedCounts - 1 }),
    );
  });

  it('move at once when an import adds rows, and when it updates rows of an earlier campaign', async () => {
    const who = await signUp(t.app, 'counts-import');
    const sheet = async (rows: Record<string, string>[], tag: string) => {
      const [header, ...body] = recordSheet(noticeFields, rows.length, tag);
      const file = path.join(t.config.dataDir, `counts-${tag}.xlsx`);
      await writeSheet(file, [
        header!,
        ...body.map((row, i) => noticeFields.map((f, c) => rows[i]![f.key] ?? row[c]!)),
      ]);
      return fs.readFileSync(file);
    };
    const importFile = async (data: Buffer, name: string, duplicates?: string) => {
      const stored = await uploadFile(t.app, who, `${name}.xlsx`, data);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/notices/upload-notice-info',
        headers: who.headers,
        payload: { file: stored, name, ...(duplicates && { duplicates }) },
      });
      expect(res.statusCode, res.body).toBe(202);
      const jobId = res.json<{ jobId: string }>().jobId;
      return until('the import is done', async () => {
        const progress = (
          await t.app.inject({
            method: 'GET',
            url: '/api/notices/by-user-id/progress-count',
            headers: who.headers,
          })
        ).json<{ jobId: string; status: string; campaignId: string }>();
        return progress.jobId === jobId && progress.status === 'done' ? progress : undefined;
      });
    };
    const loans = (numbers: string[], fields: Record<string, string> = {}) =>
      numbers.map((loanNo) => ({
        loanNo,
        emailId: `${loanNo.toLowerCase()}@example.com`,
        custMobileNo: '9876500001',
        modeOfDispatch: 'Email and WhatsApp',
        ...fields,
      }));

    const first = await importFile(await sheet(loans(['LN-1', 'LN-2', 'LN-3']), 'a'), 'first');
    const counts = await pageCounts(who, first.campaignId);
    expect(counts).toEqual(await freshCounts(who, first.campaignId));
    expect(counts.total).toBe(3);

    // The second file names LN-1 and LN-2 again with an e-mail no one can send to, and a new loan: 'update'
    // rewrites the first campaign's two records, and the first page counts them at once; the new row
    // is a record of the second file's campaign, counted as soon as it is ready.
    let second = first;
    await expectChange(
      who,
      first.campaignId,
      async () => {
        const rows = [...loans(['LN-1', 'LN-2'], { emailId: 'nobody' }), ...loans(['LN-4'])];
        second = await importFile(await sheet(rows, 'b'), 'second', 'update');
      },
      (before) => ({ notServiceable: { ...before.notServiceable, email: 2 } }),
    );
    const added = await pageCounts(who, second.campaignId);
    expect(added.total).toBe(1);
    expect(added).toEqual(await freshCounts(who, second.campaignId));
  }, 120_000);

  it('move with the clock alone when a deemed date still to come enters a respond-by window', async () => {
    // An ADMIN sets a basis on campaigns of their own.
    const page = await addNotice(admin, 1);
    const campaignId = page.campaign_id;
    // Respond within one day of service: the within-7-days window reaches into the days to come.
    const basis = await t.app.inject({
      method: 'PUT',
      url: `/api/legal-basis/campaigns/${campaignId}`,
      headers: admin.headers,
      payload: { basis: 'other', label: 'Reminder', periodDays: 1 },
    });
    expect(basis.statusCode, basis.body).toBe(200);
    // Sent so that it is deemed served 1.5 s from now (DEEMED_SERVICE_DAYS after the dispatch).
    const deemedAt = Date.now() + 1_500;
    const id = await seedDelivery(db, { ...page, channel: 'email' });
    await deliveries.advanceStatus(
      db,
      { id, status: 'queued' },
      'sent',
      new Date(deemedAt - t.config.deemedServiceDays * DAY).toISOString(),
    );
    const before = await pageCounts(admin, campaignId);
    expect(before.serviceCounts.respond_by_within_7_days).toBe(0);
    await until('the deemed date has come', () => (Date.now() > deemedAt + 50 ? true : undefined));
    const after = await pageCounts(admin, campaignId);
    expect(after.serviceCounts.respond_by_within_7_days).toBe(1);
    expect(after).toEqual(await freshCounts(admin, campaignId));
  });
});
