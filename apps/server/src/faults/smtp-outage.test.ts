import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../test/app.ts';
import { startSmtpListener, type ReceivedMail } from '../test/peers.ts';

// The mail server goes down in the middle of a send and comes back later. With the default backoff
// (JOB_RETRY_BACKOFF=2s: retries after 2, 4, 8 … 256 s, then 5 min, ten attempts in all) a send
// rides out about 20 minutes of outage. Here time runs ten times faster (200ms): 6 s down stands for
// the minute.
// (Sending.routes.test.ts covers a server that is down before a send of one record starts.)
const RECORDS = 200;
const RETRY_BACKOFF = '200ms';
const OUTAGE_MS = 6000;

describe('the SMTP server down in the middle of a send', () => {
  let t: TestApp;
  let asha: SignedIn;
  let smtp: Awaited<ReturnType<typeof startSmtpListener>>;

  beforeAll(async () => {
    // Connections still open when it goes down are told 421 and closed, as a server shutting down does.
    smtp = await startSmtpListener({ closeTimeout: 50 });
    t = await createTestApp({ SMTP_URL: smtp.url, JOB_RETRY_BACKOFF: RETRY_BACKOFF });
    asha = await signUp(t.app, 'asha');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('retries what did not go, and every record is mailed exactly once, every delivery sent', async () => {
    const ids: string[] = [];
    let campaignId = '';
    for (let i = 0; i < RECORDS; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/notices',
        headers: asha.headers,
        payload: {
          ...Object.fromEntries(noticeFields.map((f) => [f.key, `${f.key}-${i}`])),
          emailId: `customer${i}@example.com`,
          modeOfDispatch: 'email',
        },
      });
      const created = res.json<{ _id: string; campaignId: string }>();
      ids.push(created._id);
      campaignId = created.campaignId;
    }

    // The web app sends a campaign a chunk at a time; these chunks go out back to back meanwhile.
    const answers: { sent: number; queued: number; failed: number }[] = [];
    const sending = (async () => {
      for (let i = 0; i < RECORDS; i += 40) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/campaigns/send-mail',
          headers: asha.headers,
          payload: { data: ids.slice(i, i + 40), type: 'notice' },
        });
        expect(res.statusCode).toBe(200);
        answers.push(res.json());
      }
    })();

    const port = smtp.port;
    const received: ReceivedMail[] = smtp.mails;
    // Down once 60 mails are in: half-way through the second chunk's job.
    for (let i = 0; i < 600 && received.length < 60; i++) await new Promise((r) => setTimeout(r, 20));
    await smtp.close();
    const whenDown = received.length;
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    smtp = await startSmtpListener({ port, closeTimeout: 50 });
    await sending;

    for (let i = 0; i < 300 && whenDown + smtp.mails.length < RECORDS; i++)
      await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500)); // nothing more arrives late

    // It went down part-way: some mails before, the rest after, and chunks answered 'queued' meanwhile.
    expect(whenDown).toBeGreaterThan(0);
    expect(whenDown).toBeLessThan(RECORDS);
    expect(answers.reduce((n, a) => n + a.queued, 0)).toBeGreaterThan(0);
    expect(answers.reduce((n, a) => n + a.failed, 0)).toBe(0);
    const all = [...received, ...smtp.mails];
    expect(all).toHaveLength(RECORDS);
    expect(new Set(all.map((mail) => mail.to[0])).size).toBe(RECORDS);

    const { db } = await openDatabase(t.config);
    try {
      const deliveries = await db
        .selectFrom('deliveries')
        .select(['record_id', 'status', 'error'])
        .where('campaign_id', '=', campaignId)
        .execute();
      expect(deliveries).toHaveLength(RECORDS);
      expect(new Set(deliveries.map((d) => d.record_id)).size).toBe(RECORDS);
      expect(deliveries.filter((d) => d.status !== 'sent')).toEqual([]);
      const jobs = await db
        .selectFrom('jobs')
        .select(['status', 'attempts'])
        .where('kind', '=', 'send')
        .execute();
      expect(jobs.every((job) => job.status === 'done')).toBe(true);
      // Some job had to retry: the outage really was met by the backoff, not missed.
      expect(Math.max(...jobs.map((job) => job.attempts))).toBeGreaterThan(1);
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
