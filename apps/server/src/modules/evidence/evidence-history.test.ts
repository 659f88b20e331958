import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceRecord } from '@notice-desk/contract/evidence';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { startSmtpListener, startWhatsappPeer } from '../../test/peers.ts';
import { unzip } from '../../test/zip.ts';
import { noticeKind } from '../records/record-kinds.ts';

const APP_SECRET = 'evidence-history-secret';
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let peer: Awaited<ReturnType<typeof startWhatsappPeer>>;
let asha: SignedIn;

beforeAll(async () => {
  smtp = await startSmtpListener();
  peer = await startWhatsappPeer();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: peer.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_MODE: 'session',
    WHATSAPP_APP_SECRET: APP_SECRET,
    LOG_LEVEL: 'warn',
  });
  asha = await signUp(t.app, 'asha');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await peer?.close();
});

/** A signed Cloud API status webhook for one message. */
function postStatus(messageId: string, status: string, timestamp: number, errors?: unknown) {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '1',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { phone_number_id: '1234567890' },
              statuses: [
                { id: messageId, status, timestamp: String(timestamp), recipient_id: '919876500042', errors },
              ],
            },
          },
        ],
      },
    ],
  });
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/whatsapp',
    payload: body,
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`,
    },
  });
}

describe("an evidence bundle's WhatsApp history", () => {
  it('lists events in the order they reached us, marks the refused ones with why, and names the number as sent', async () => {
    const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-h`]));
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/notices',
      headers: asha.headers,
      payload: { ...fields, custName: 'Meera', custMobileNo: '98765 00042', modeOfDispatch: 'WhatsApp' },
    });
    const id = created.json<{ _id: string }>()._id;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/send-mail',
      headers: asha.headers,
      payload: { data: [id], type: 'notice' },
    });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    const message = peer.messages.at(-1)!;

    const now = Math.floor(Date.now() / 1000);
    expect((await postStatus(message.id, 'read', now)).json()).toMatchObject({ applied: 1 });
    const failed = await postStatus(message.id, 'failed', now, [{ code: 131026, title: 'Undeliverable' }]);
    expect(failed.json()).toMatchObject({ unchanged: 1 });
    // Dated by WhatsApp's clock a minute before the send was even queued here.
    expect((await postStatus(message.id, 'delivered', now - 60)).json()).toMatchObject({ unchanged: 1 });

    const res = await t.app.inject({
      method: 'GET',
      url: `/api/notices/${id}/evidence`,
      headers: asha.headers,
    });
    expect(res.statusCode).toBe(200);
    const files = await unzip(res.rawPayload);
    const { records } = JSON.parse(files.find((f) => f.name === 'deliveries.json')!.data.toString()) as {
      records: EvidenceRecord[];
    };
    const whatsapp = records[0]!.deliveries.find((d) => d.channel === 'whatsapp')!;
    expect(whatsapp.status).toBe('read');
    expect(whatsapp.recipient).toBe(message.to);
    expect(whatsapp.recipient).toBe('919876500042');
    expect(whatsapp.history.map((h) => [h.status, h.refused])).toEqual([
      ['queued', null],
      ['sent', null],
      ['read', null],
      ['failed', 'not applied: the message was already read, so it can no longer fail'],
      ['delivered', 'not applied: the delivery was already read; a status never moves backwards'],
    ]);
    const recorded = whatsapp.history.map((h) => h.recordedAt!);
    expect(recorded).toEqual([...recorded].sort());
  }, 120_000);
});
