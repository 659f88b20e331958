import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditCardKind, noticeKind } from '../records/record-kinds.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { startSmtpListener, startWhatsappPeer } from '../../test/peers.ts';

/** The peer refuses these for good: a 550 from the mail server, 131026 from WhatsApp. */
const REFUSED_MAIL = 'refused@example.com';
const REFUSED_MOBILE = '9000000000';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let peer: Awaited<ReturnType<typeof startWhatsappPeer>>;
let asha: SignedIn;
let ravi: SignedIn;

beforeAll(async () => {
  smtp = await startSmtpListener({ rejectTo: [REFUSED_MAIL] });
  peer = await startWhatsappPeer();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: peer.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_MODE: 'session',
  });
  asha = await signUp(t.app, 'asha');
  ravi = await signUp(t.app, 'ravi');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await peer.close();
});

let serial = 0;
/** A notice entered by hand (asha's 'Manual entries' campaign unless `who` is another). */
async function notice(overrides: Record<string, string> = {}, who = asha) {
  const i = ++serial;
  const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${i}`]));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/notices',
    headers: who.headers,
    payload: {
      ...fields,
      emailId: `customer${i}@example.com`,
      custMobileNo: `98765${String(i).padStart(5, '0')}`,
      modeOfDispatch: 'Email and WhatsApp',
      ...overrides,
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ _id: string; campaignId: string; loanNo: string }>();
}

const sendNotices = (ids: string[], who = asha) =>
  t.app.inject({
    method: 'POST',
    url: '/api/campaigns/send-mail',
    headers: who.headers,
    // Each test fails the same refused addresses again: past the bounced-address question.
    payload: { type: 'notice', data: ids, confirmBounced: true },
  });

const failedRows = (campaignId: string, query = '', who = asha) =>
  t.app.inject({
    method: 'GET',
    url: `/api/campaigns/${campaignId}/failed-rows${query}`,
    headers: who.headers,
  });

const editAndResend = (campaignId: string, recordId: string, payload: object, who = asha) =>
  t.app.inject({
    method: 'POST',
    url: `/api/campaigns/${campaignId}/records/${recordId}/edit-and-resend`,
    headers: who.headers,
    payload,
  });

interface Row {
  recordId: string;
  channel: string;
  reference: string;
  recipient: string;
  reason: string;
  unchanged: boolean;
}

describe('failed rows', () => {
  it('lists each failed channel with the loan number, the address it went to and the reason in words; counts those whose address is unchanged', async () => {
    const both = await notice({ emailId: REFUSED_MAIL, custMobileNo: REFUSED_MOBILE });
    const fine = await notice();
    expect((await sendNotices([both._id, fine._id])).json()).toMatchObject({ failed: 2 });
    const res = await failedRows(both.campaignId);
    expect(res.statusCode).toBe(200);
    const page = res.json<{ items: Row[]; failed: number; unchanged: number; total: number }>();
    const mine = page.items.filter((row) => row.recordId === both._id);
    expect(mine.map((row) => row.channel).sort()).toEqual(['email', 'whatsapp']);
    const email = mine.find((row) => row.channel === 'email')!;
    expect(email).toMatchObject({ reference: both.loanNo, recipient: REFUSED_MAIL, unchanged: true });
    expect(email.reason).toMatch(/mail server refused/i);
    const whatsapp = mine.find((row) => row.channel === 'whatsapp')!;
    expect(whatsapp).toMatchObject({ recipient: REFUSED_MOBILE, unchanged: true });
    expect(whatsapp.reason).toMatch(/not a WhatsApp user/);
    expect(page.items.some((row) => row.recordId === fine._id)).toBe(false);

    // Fixing the mobile by the record edit: that row is no longer 'unchanged'.
    const record = await t.app.inject({
      method: 'GET',
      url: `/api/notices/${both._id}`,
      headers: asha.headers,
    });
    await t.app.inject({
      method: 'PUT',
      url: `/api/notices/${both._id}`,
      headers: asha.headers,
      payload: { ...record.json<Record<string, string>>(), custMobileNo: '9876512345' },
    });
    const after = (await failedRows(both.campaignId)).json<{
      items: Row[];
      failed: number;
      unchanged: number;
    }>();
    expect(after.failed - after.unchanged).toBe(1);
    const unchangedOnly = (await failedRows(both.campaignId, '?show=unchanged')).json<{
      items: Row[];
      total: number;
    }>();
    expect(unchangedOnly.total).toBe(after.unchanged);
    expect(unchangedOnly.items.every((row) => row.unchanged)).toBe(true);
    expect(unchangedOnly.items.some((row) => row.recordId === both._id && row.channel === 'email')).toBe(
      true,
    );
    expect(unchangedOnly.items.some((row) => row.recordId === both._id && row.channel === 'whatsapp')).toBe(
      false,
    );
  });

  it('shows the AAN for a credit card', async () => {
    const fields = Object.fromEntries(creditCardKind.fields.map((f) => [f.key, `${f.key}-cc`]));
    const card = (
      await t.app.inject({
        method: 'POST',
        url: '/api/credit-cards',
        headers: asha.headers,
        payload: { ...fields, emailId: REFUSED_MAIL, custMobileNo: '9876599999' },
      })
    ).json<{ _id: string; campaignId: string }>();
    await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/send-mail',
      headers: asha.headers,
      payload: { type: 'credit-card', data: [card._id], confirmBounced: true },
    });
    const page = (await failedRows(card.campaignId)).json<{ items: Row[] }>();
    expect(page.items, JSON.stringify(page)).toEqual([
      expect.objectContaining({ recordId: card._id, reference: 'aanNo-cc' }),
    ]);
  });
});

describe('edit and resend', () => {
  it('saves the new e-mail (audited) and resends on e-mail only, though WhatsApp failed too', async () => {
    const record = await notice({ emailId: REFUSED_MAIL, custMobileNo: REFUSED_MOBILE });
    await sendNotices([record._id]);
    const mails = smtp.mails.length;
    const messages = peer.messages.length;
    const res = await editAndResend(record.campaignId, record._id, {
      channel: 'email',
      emailId: ' fixed@example.com ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Saved and resent by e-mail.',
      changed: ['emailId'],
      send: { sent: 1, failed: 0 },
    });
    expect(smtp.mails.slice(mails).map((m) => m.to[0])).toEqual(['fixed@example.com']);
    expect(peer.messages.length).toBe(messages);
    const saved = await t.app.inject({
      method: 'GET',
      url: `/api/notices/${record._id}`,
      headers: asha.headers,
    });
    expect(saved.json()).toMatchObject({ emailId: 'fixed@example.com', custMobileNo: REFUSED_MOBILE });
    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/audit?limit=50',
      headers: asha.headers,
    });
    expect(JSON.stringify(audit.json())).toContain('fixed@example.com');
    const rows = (await failedRows(record.campaignId)).json<{ items: Row[] }>().items;
    expect(rows.filter((row) => row.recordId === record._id).map((row) => row.channel)).toEqual(['whatsapp']);
  });

  it('fixes the mobile and resends on WhatsApp', async () => {
    const record = await notice({ custMobileNo: REFUSED_MOBILE, modeOfDispatch: 'WhatsApp' });
    await sendNotices([record._id]);
    const res = await editAndResend(record.campaignId, record._id, {
      channel: 'whatsapp',
      custMobileNo: '98765 43210',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ changed: ['custMobileNo'], send: { sent: 1 } });
    expect(peer.messages.at(-1)!.to).toBe('919876543210');
  });

  it('asks first when the address is the one that failed, and resends when confirmed', async () => {
    const record = await notice({ emailId: REFUSED_MAIL, modeOfDispatch: 'Email' });
    await sendNotices([record._id]);
    const asked = await editAndResend(record.campaignId, record._id, { channel: 'email' });
    expect(asked.statusCode, asked.body).toBe(409);
    expect(asked.json().code ?? JSON.stringify(asked.json())).toMatch(/BOUNCED_BEFORE/);
    const sent = await editAndResend(record.campaignId, record._id, {
      channel: 'email',
      confirmBounced: true,
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ message: 'Resent by e-mail.', changed: [], send: { failed: 1 } });
  });

  it('answers 409 for a channel that did not fail, and changes nothing', async () => {
    const record = await notice({ emailId: REFUSED_MAIL });
    await sendNotices([record._id]);
    const res = await editAndResend(record.campaignId, record._id, {
      channel: 'whatsapp',
      custMobileNo: '9876511111',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/WhatsApp did not fail/);
    const saved = await t.app.inject({
      method: 'GET',
      url: `/api/notices/${record._id}`,
      headers: asha.headers,
    });
    expect(saved.json().custMobileNo).not.toBe('9876511111');
  });

  it("answers 404 for another owner's record or campaign, and for a record of another campaign", async () => {
    const record = await notice({ emailId: REFUSED_MAIL });
    await sendNotices([record._id]);
    const other = await notice({ emailId: REFUSED_MAIL }, ravi);
    await sendNotices([other._id], ravi);
    for (const [campaignId, recordId] of [
      [other.campaignId, other._id],
      [record.campaignId, other._id],
      [other.campaignId, record._id],
    ] as const) {
      const res = await editAndResend(campaignId, recordId, { channel: 'email', emailId: 'x@example.com' });
      expect(res.statusCode).toBe(404);
    }
    expect((await failedRows(other.campaignId)).statusCode).toBe(404);
    const untouched = await t.app.inject({
      method: 'GET',
      url: `/api/notices/${other._id}`,
      headers: ravi.headers,
    });
    expect(untouched.json().emailId).toBe(REFUSED_MAIL);
  });

  it('refuses hostile and bad inputs with a 4xx naming the field, and saves nothing', async () => {
    const record = await notice({ emailId: REFUSED_MAIL, custMobileNo: REFUSED_MOBILE });
    await sendNotices([record._id]);
    const url = `/api/campaigns/${record.campaignId}/records/${record._id}/edit-and-resend`;
    const cases: [object | string, RegExp][] = [
      [{ channel: 'email', emailId: 'cust23@@example' }, /emailId/],
      [{ channel: 'email', emailId: 'a@x.io\r\nBcc: evil@x.io' }, /emailId/],
      [{ channel: 'email', emailId: 'a@x.io, b@y.io' }, /emailId/],
      [{ channel: 'whatsapp', custMobileNo: '98765' }, /custMobileNo/],
      [{ channel: 'whatsapp', custMobileNo: '<script>alert(1)</script>' }, /custMobileNo/],
      [{ channel: 'whatsapp', custMobileNo: 9876543210 }, /custMobileNo/],
      [{ channel: 'fax' }, /channel/],
      [{ emailId: 'ok@example.com' }, /channel/],
      [{ channel: 'email', emailId: `${'a'.repeat(300)}@example.com` }, /emailId/],
      [{ channel: 'email', loanNo: 'changed' }, /loanNo/],
      [{ channel: 'email', confirmBounced: 'yes' }, /confirmBounced/],
      ['not json', /.+/],
    ];
    for (const [payload, named] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: {
          ...asha.headers,
          ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}),
        },
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(res.json()), JSON.stringify(payload)).toMatch(named);
    }
    for (const bad of [
      `/api/campaigns/not-an-id/records/${record._id}/edit-and-resend`,
      `/api/campaigns/${record.campaignId}/records/1%27%20or%201=1/edit-and-resend`,
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: bad,
        headers: asha.headers,
        payload: { channel: 'email' },
      });
      expect(res.statusCode).toBe(400);
    }
    expect((await failedRows(record.campaignId, '?show=everything')).statusCode).toBe(400);
    expect((await failedRows(record.campaignId, '?limit=100000')).statusCode).toBe(400);
    const unauthenticated = await t.app.inject({ method: 'POST', url, payload: { channel: 'email' } });
    expect(unauthenticated.statusCode).toBe(401);
    const saved = await t.app.inject({
      method: 'GET',
      url: `/api/notices/${record._id}`,
      headers: asha.headers,
    });
    expect(saved.json()).toMatchObject({ emailId: REFUSED_MAIL, custMobileNo: REFUSED_MOBILE });
  });
});
