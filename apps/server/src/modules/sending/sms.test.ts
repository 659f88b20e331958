import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { startMsg91Peer } from '../../test/peers.ts';
import { noticeKind } from '../records/record-kinds.ts';

const AUTH_KEY = 'msg91-peer-auth-key';
const TOKEN = 'sms-webhook-token-0123456789';
const DLT_ID = '1107161234567890123';
const REGISTERED =
  'Dear {#var#}, a legal notice on loan {#var#} is served on you. View: https://notices.example.in/n/{#var#} -ACME LAW';
const TEXT =
  'Dear {{custName}}, a legal notice on loan {{loanNo}} is served on you. View: https://notices.example.in/n/{{noticeCode}} -ACME LAW';

let t: TestApp;
let db: Database;
let peer: Awaited<ReturnType<typeof startMsg91Peer>>;
let admin: SignedIn;
let counter = 0;

beforeAll(async () => {
  peer = await startMsg91Peer({ authKey: AUTH_KEY });
  t = await createTestApp({
    SMS_API_URL: peer.apiUrl,
    MSG91_AUTH_KEY: AUTH_KEY,
    SMS_SENDER: 'ACMELW',
    SMS_DLT_ENTITY_ID: '1101234567890123456',
    SMS_WEBHOOK_TOKEN: TOKEN,
    SMS_RATE: '4',
    WHATSAPP_ALONE_REFUSED: 'true',
    JOB_RETRY_BACKOFF: '100ms',
  });
  db = (await openDatabase(t.config)).db;
  admin = await signUp(t.app, 'admin');
});
afterAll(async () => {
  await db.destroy();
  await t.close();
  await peer.close();
});

const setTemplate = (payload: Record<string, unknown>, kind = 'notice') =>
  t.app.inject({ method: 'PUT', url: `/api/smstemplates/dlt/${kind}`, headers: admin.headers, payload });

async function notice(overrides: Record<string, string> = {}) {
  const i = ++counter;
  const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${i}`]));
  const payload = {
    ...fields,
    custName: `Ravi ${i}`,
    loanNo: `LN${i}`,
    emailId: `customer${i}@example.com`,
    custMobileNo: `98765${String(i).padStart(5, '0')}`,
    modeOfDispatch: 'SMS',
    ...overrides,
  };
  const res = await t.app.inject({ method: 'POST', url: '/api/notices', headers: admin.headers, payload });
  expect(res.statusCode).toBe(201);
  return res.json<{ _id: string }>()._id;
}

const send = (ids: string[]) =>
  t.app.inject({
    method: 'POST',
    url: '/api/campaigns/send-mail',
    headers: admin.headers,
    payload: { data: ids, type: 'notice' },
  });

async function settled(recordId: string, channel = 'sms' as const, withinMs = 15_000) {
  const until = Date.now() + withinMs;
  for (;;) {
    const row = await db
      .selectFrom('deliveries')
      .selectAll()
      .where('record_id', '=', recordId)
      .where('channel', '=', channel)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    if (row.status !== 'queued' || Date.now() > until) return row;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const report = (body: unknown, token: string | null = TOKEN) =>
  t.app.inject({
    method: 'POST',
    url: `/api/webhooks/sms/msg91${token === null ? '' : `?token=${encodeURIComponent(token)}`}`,
    payload: body as object,
  });

describe('DLT templates: the SMS text must be the registered text but for the slots', () => {
  it('refuses a send by SMS before a DLT template is set', async () => {
    const id = await notice();
    const res = await send([id]);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/No DLT template is set for notice SMS/);
  });

  const hostile: [string, string, RegExp][] = [
    [
      'changed punctuation',
      TEXT.replace('Dear {{custName}},', 'Dear {{custName}};'),
      /character 18: the registered text has ',' \(U\+002C\), the SMS text has ';' \(U\+003B\)/,
    ],
    [
      'an extra space',
      TEXT.replace('a legal', 'a  legal'),
      /character 22: the registered text has 'l' \(U\+006C\), the SMS text has a space \(U\+0020\)/,
    ],
    [
      'a Cyrillic look-alike',
      TEXT.replace('a legal', '\u0430 legal'),
      /the registered text has 'a' \(U\+0061\), the SMS text has 'а' \(U\+0430\)/,
    ],
    ['a full-width comma', TEXT.replace('}},', '}}\uFF0C'), /the SMS text has '，' \(U\+FF0C\)/],
    [
      'a no-break space',
      TEXT.replace('Dear ', 'Dear\u00A0'),
      /character 5: the registered text has a space \(U\+0020\), the SMS text has a blank \(U\+00A0\)/,
    ],
    [
      'a zero-width space',
      TEXT.replace('notice', 'no\u200Btice'),
      /character 30: the registered text has 't' \(U\+0074\), the SMS text has an invisible character \(U\+200B\)/,
    ],
    [
      'a missing slot',
      TEXT.replace('{{loanNo}}', 'LN1'),
      /the registered text has a \{#var#\} slot, the SMS text has 'L' \(U\+004C\)/,
    ],
    ['an extra slot', `${TEXT} {{loanNo}}`, /the registered text has nothing more, the SMS text has a space/],
    [
      'a slot where text is',
      TEXT.replace('ACME', '{{custName}}'),
      /the registered text has 'A' \(U\+0041\), the SMS text has the placeholder \{\{custName\}\}/,
    ],
    [
      'a missing tail',
      TEXT.slice(0, -4),
      /the registered text has ' '|the registered text has a space \(U\+0020\), the SMS text has nothing more/,
    ],
  ];
  it.each(hostile)('refuses %s with the first differing character', async (_name, text, why) => {
    const res = await setTemplate({ dltTemplateId: DLT_ID, registeredText: REGISTERED, text });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('DLT_TEXT_MISMATCH');
    expect(res.json().message).toMatch(why);
  });

  it('refuses a placeholder that names no field, and a bad DLT id, with 400', async () => {
    const unknown = await setTemplate({
      dltTemplateId: DLT_ID,
      registeredText: REGISTERED,
      text: TEXT.replace('{{loanNo}}', '{{constructor}}'),
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/\{\{constructor\}\} names no field/);
    for (const dltTemplateId of ['', 'abc', '12 34', '1'.repeat(40)]) {
      const bad = await setTemplate({ dltTemplateId, registeredText: REGISTERED, text: TEXT });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/dltTemplateId/);
    }
  });

  it('saves a matching text, shows each slot’s field, the segments and whether it needs Unicode', async () => {
    const res = await setTemplate({
      dltTemplateId: DLT_ID,
      registeredText: REGISTERED.replace(/\n/g, '\r\n'),
      text: TEXT,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      dltTemplateId: DLT_ID,
      slotFields: ['custName', 'loanNo', 'noticeCode'],
      length: { segments: 2, unicode: false },
    });
    const hindi = await setTemplate(
      {
        dltTemplateId: DLT_ID,
        registeredText: 'प्रिय {#var#}, नोटिस देखें',
        text: 'प्रिय {{custName}}, नोटिस देखें',
      },
      'credit-card',
    );
    expect(hindi.statusCode).toBe(200);
    expect(hindi.json().length).toMatchObject({ segments: 1, unicode: true });
    const list = await t.app.inject({ method: 'GET', url: '/api/smstemplates/dlt', headers: admin.headers });
    expect(list.json()).toMatchObject({ via: 'msg91', sender: 'ACMELW', entityId: '1101234567890123456' });
  });
});

describe('an SMS through MSG91 and its delivery report', () => {
  it('sends the registered text with the slots filled and the notice page code, then applies the report once, forward only', async () => {
    const id = await notice({ custName: 'Ravi Kumar', loanNo: 'LN-0042' });
    const res = await send([id]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ sent: 1, failed: 0 });
    const delivery = await settled(id);
    expect(delivery.status).toBe('sent');
    const message = peer.messages.find((m) => m.requestId === delivery.provider_message_id)!;
    expect(message).toMatchObject({
      to: `91${delivery.recipient}`,
      dltTemplateId: DLT_ID,
      sender: 'ACMELW',
      unicode: 0,
    });
    expect(message.text).toMatch(
      /^Dear Ravi Kumar, a legal notice on loan LN-0042 is served on you\. View: https:\/\/notices\.example\.in\/n\/[\w-]{22}\?c=s -ACME LAW$/,
    );

    const delivered = peer.report(delivery.provider_message_id!, '1', new Date());
    for (const token of [null, '', 'wrong-token-0123456789', TOKEN.toUpperCase(), `${TOKEN} `]) {
      const refused = await report(delivered, token);
      expect(refused.statusCode).toBe(401);
    }
    expect((await settled(id)).status).toBe('sent');
    expect((await report(delivered)).json()).toMatchObject({ applied: 1 });
    expect((await report(delivered)).json()).toMatchObject({ replayed: 1, applied: 0 });
    const late = peer.report(
      delivery.provider_message_id!,
      '2',
      new Date(Date.now() + 1000),
      'Absent subscriber',
    );
    expect((await report(late)).json()).toMatchObject({ unchanged: 1 });
    expect((await settled(id)).status).toBe('delivered');
    expect((await report({ ...delivered, requestId: 'no-such-request' })).json()).toMatchObject({
      unmatched: 1,
    });
  });

  it('refuses a malformed delivery report whole, naming the problem', async () => {
    for (const [body, why] of [
      [[], /no delivery report/],
      [{ status: '1', date: '2026-11-29 10:00:00' }, /requestId must be text/],
      [{ requestId: 'x', status: '1', date: '29/11/2026' }, /date must be 'YYYY-MM-DD HH:mm:ss'/],
      [
        [{ requestId: 'x', status: '1', date: '2026-11-29 10:00:00' }, 'text'],
        /report 2: a delivery report is a JSON object/,
      ],
    ] as const) {
      const res = await report(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(why);
    }
  });

  it('fails an SMS whose slot value is longer than DLT allows, saying which', async () => {
    const id = await notice({ custName: 'A name far longer than thirty characters' });
    const res = await send([id]);
    expect(res.json()).toMatchObject({ failed: 1 });
    const delivery = await settled(id);
    expect(delivery.status).toBe('failed');
    expect(delivery.error).toMatch(
      /slot 1 \(\{\{custName\}\}\) is 40 characters; a DLT slot takes at most 30/,
    );
  });

  it('retries MSG91’s 5xx and 429 with backoff, sending once', async () => {
    const id = await notice();
    peer.failNext({ status: 503, body: { type: 'error', message: 'Service unavailable' } });
    peer.failNext({ status: 429, body: { type: 'error', message: 'Too many requests' } });
    const before = peer.messages.length;
    await send([id]);
    const delivery = await settled(id);
    expect(delivery.status).toBe('sent');
    expect(peer.messages.length).toBe(before + 1);
    const events = await db
      .selectFrom('delivery_events')
      .select('detail')
      .where('delivery_id', '=', delivery.id)
      .execute();
    expect(events.map((e) => e.detail).join(' ')).toMatch(/MSG91 asked to try later \(HTTP 503\)/);
  });

  it('fails for good on MSG91’s error codes, with its code and words', async () => {
    const id = await notice();
    peer.failNext({
      status: 200,
      body: { type: 'error', message: 'Template not matched with DLT', code: '211' },
    });
    await send([id]);
    const delivery = await settled(id);
    expect(delivery.status).toBe('failed');
    expect(delivery.error).toBe('MSG91 refused the SMS (code 211): Template not matched with DLT');
  });

  it('holds SMS_RATE: 8 SMS at 4 a second take more than a second', async () => {
    const ids = [];
    for (let i = 0; i < 8; i++) ids.push(await notice());
    const before = peer.messages.length;
    await send(ids);
    for (const id of ids) expect((await settled(id)).status).toBe('sent');
    const times = peer.messages
      .slice(before)
      .map((m) => m.at)
      .sort((a, b) => a - b);
    expect(times).toHaveLength(8);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(900);
  });
});

describe('WHATSAPP_ALONE_REFUSED', () => {
  it('sends a WhatsApp record by e-mail too when it has an address, and lists those with WhatsApp only', async () => {
    const both = await notice({ modeOfDispatch: 'WhatsApp' });
    // An e-mail that cannot be served is no address to serve by: WhatsApp alone.
    const alone = await notice({ modeOfDispatch: 'WhatsApp', emailId: 'no address' });
    const res = await send([both, alone]);
    expect(res.statusCode).toBe(200);
    expect(res.json().whatsappOnly).toEqual([alone]);
    const channels = await db
      .selectFrom('deliveries')
      .select(['record_id', 'channel'])
      .where('record_id', 'in', [both, alone])
      .orderBy('record_id')
      .orderBy('channel')
      .execute();
    expect(channels.filter((c) => c.record_id === both).map((c) => c.channel)).toEqual(['email', 'whatsapp']);
    expect(channels.filter((c) => c.record_id === alone).map((c) => c.channel)).toEqual(['whatsapp']);
  });
});
