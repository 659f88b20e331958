import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { startSmtpListener } from '../../test/peers.ts';
import { noticeKind } from '../records/record-kinds.ts';

let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let confirm: TestApp;
let skip: TestApp;

beforeAll(async () => {
  smtp = await startSmtpListener({ rejectTo: ['refused@example.com'] });
  confirm = await createTestApp({ SMTP_URL: smtp.url });
  skip = await createTestApp({ SMTP_URL: smtp.url, BOUNCED_ADDRESSES: 'skip' });
});
afterAll(async () => {
  await confirm?.close();
  await skip?.close();
  await smtp?.close();
});

async function notice(t: TestApp, who: SignedIn, i: number, emailId: string) {
  const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${i}`]));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/notices',
    headers: who.headers,
    payload: { ...fields, emailId, custMobileNo: '9876500001', modeOfDispatch: 'Email' },
  });
  return res.json<{ _id: string }>()._id;
}
const send = (t: TestApp, who: SignedIn, data: string[], extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/campaigns/send-mail',
    headers: who.headers,
    payload: { data, type: 'notice', ...extra },
  });

describe('addresses that bounced or failed before', () => {
  it('confirm (the default): the next send to one answers 409 naming how many, and confirmBounced sends anyway', async () => {
    const asha = await signUp(confirm.app, 'asha');
    const first = await notice(confirm, asha, 1, 'refused@example.com');
    expect((await send(confirm, asha, [first])).json()).toMatchObject({ failed: 1 });

    const again = await notice(confirm, asha, 2, 'Refused@Example.com');
    const fine = await notice(confirm, asha, 3, 'fine@example.com');
    const asked = await send(confirm, asha, [again, fine]);
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toMatchObject({
      code: 'BOUNCED_BEFORE',
      message: '1 address bounced or failed before. Send to it anyway?',
    });
    // Nothing was claimed: the good address is still unsent.
    expect(smtp.mails.filter((m) => m.to.includes('fine@example.com'))).toHaveLength(0);

    const sent = await send(confirm, asha, [again, fine], { confirmBounced: true });
    // (The test's mail server refuses only the lower-case spelling, so both go out this time.)
    expect(sent.json()).toMatchObject({ sent: 2, failed: 0 });
    expect(smtp.mails.filter((m) => m.to.includes('fine@example.com'))).toHaveLength(1);

    // Another user's bounces are theirs: ravi's send to the same address is not asked about.
    const ravi = await signUp(confirm.app, 'ravi');
    const his = await notice(confirm, ravi, 4, 'refused@example.com');
    expect((await send(confirm, ravi, [his])).statusCode).toBe(200);
  });

  it('skip: the send leaves those addresses out and says how many', async () => {
    const asha = await signUp(skip.app, 'asha');
    expect(
      (await send(skip, asha, [await notice(skip, asha, 1, 'refused@example.com')])).json(),
    ).toMatchObject({
      failed: 1,
    });
    const res = await send(skip, asha, [
      await notice(skip, asha, 2, 'refused@example.com'),
      await notice(skip, asha, 3, 'other@example.com'),
    ]);
    expect(res.json()).toMatchObject({ sent: 1, failed: 0, bouncedBefore: 1 });

    // The campaign's detail counts each channel's latest statuses over the whole campaign, and the
    // failed badge carries its reason.
    const campaignId = (
      await skip.app.inject({ method: 'GET', url: '/api/campaigns/notice', headers: asha.headers })
    ).json<{ items: { _id: string }[] }>().items[0]!._id;
    const detail = (
      await skip.app.inject({
        method: 'GET',
        url: `/api/campaigns/single-campaign/${campaignId}`,
        headers: asha.headers,
      })
    ).json<{ statusCounts: unknown[]; notices: { emailResponse: string; emailError: string | null }[] }>();
    expect(detail.statusCounts).toEqual(
      expect.arrayContaining([
        { channel: 'email', status: 'failed', count: 1 },
        { channel: 'email', status: 'sent', count: 1 },
      ]),
    );
    expect(detail.statusCounts).toHaveLength(2);
    expect(detail.notices.find((n) => n.emailResponse === 'failed')?.emailError).toMatch(/refused/);
  });
});
