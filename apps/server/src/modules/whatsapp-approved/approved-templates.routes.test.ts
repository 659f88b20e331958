import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { openDatabase, type Database } from '../../db/database.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { startSmtpListener, startWhatsappPeer } from '../../test/peers.ts';
import { noticeKind } from '../records/record-kinds.ts';

let t: TestApp;
let db: Database;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let peer: Awaited<ReturnType<typeof startWhatsappPeer>>;
let admin: SignedIn;
let staff: SignedIn;

const BODY = 'Dear {{1}}, a notice about loan {{2}} is attached.';

beforeEach(async () => {
  smtp = await startSmtpListener();
  peer = await startWhatsappPeer();
  peer.templates.push(
    { name: 'legal_notice', language: 'en', status: 'APPROVED', body: BODY },
    { name: 'legal_notice', language: 'hi', status: 'PENDING', body: BODY },
    { name: 'notice_v0', language: 'en', status: 'REJECTED', rejected_reason: 'INVALID_FORMAT', body: BODY },
    { name: 'notice_text_header', language: 'en', status: 'APPROVED', body: BODY, headerFormat: 'TEXT' },
    { name: 'three_params', language: 'en', status: 'APPROVED', body: '{{1}} {{2}} {{3}}' },
    {
      name: 'notice_with_link',
      language: 'en',
      status: 'APPROVED',
      body: BODY,
      buttons: [
        { type: 'QUICK_REPLY', text: 'Stop' },
        { type: 'URL', text: 'Open the notice', url: 'https://notices.example.in/n/{{1}}' },
      ],
    },
    {
      name: 'notice_link_twice',
      language: 'en',
      status: 'APPROVED',
      body: 'Dear {{1}}, a notice about loan {{2}}: {{3}}',
      buttons: [{ type: 'URL', text: 'Open the notice', url: 'https://notices.example.in/n/{{1}}' }],
    },
  );
  t = await createTestApp({
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: peer.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_BUSINESS_ACCOUNT_ID: '555000111',
  });
  db = (await openDatabase(t.config)).db;
  admin = await signUp(t.app, 'admin');
  staff = await signUp(t.app, 'staff');
});
afterEach(async () => {
  await db.destroy();
  await t.close();
  await smtp.close();
  await peer.close();
});

const setTemplate = (body: object, who: SignedIn = admin, kind = 'notice') =>
  t.app.inject({
    method: 'PUT',
    url: `/api/whatsapptemplates/approved/${kind}`,
    headers: who.headers,
    payload: body,
  });

const listTemplates = (who: SignedIn = admin) =>
  t.app.inject({ method: 'GET', url: '/api/whatsapptemplates/approved', headers: who.headers });

async function notice(who: SignedIn, i: number, overrides: Record<string, string> = {}) {
  const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${i}`]));
  const payload = {
    ...fields,
    emailId: `customer${i}@example.com`,
    custMobileNo: `98765${String(i).padStart(5, '0')}`,
    modeOfDispatch: 'Email and WhatsApp',
    ...overrides,
  };
  const res = await t.app.inject({ method: 'POST', url: '/api/notices', headers: who.headers, payload });
  return res.json<{ _id: string; campaignId: string }>();
}

const send = (who: SignedIn, data: string[]) =>
  t.app.inject({
    method: 'POST',
    url: '/api/campaigns/send-mail',
    headers: who.headers,
    payload: { data, type: 'notice' },
  });

/** The record's notice page link, as its send made it. */
const pageLinkOf = (recordId: string) =>
  db.selectFrom('notice_links').select('code').where('record_id', '=', recordId).executeTakeFirstOrThrow();

const deliveryCount = async () =>
  Number(
    (
      await db
        .selectFrom('deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('WhatsApp by approved template', () => {
  it('sends the approved template: the notice PDF as the header document, the mapped fields as body parameters', async () => {
    const set = await setTemplate({
      name: 'legal_notice',
      language: 'en',
      bodyFields: ['custName', 'loanNo'],
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ status: { state: 'APPROVED', reason: null }, usable: true });
    const record = await notice(staff, 1);
    const res = await send(staff, [record._id]);
    expect(res.json()).toMatchObject({ sent: 2, failed: 0 });
    expect(peer.messages).toHaveLength(1);
    const [message] = peer.messages;
    expect(message).toMatchObject({
      type: 'template',
      template: { name: 'legal_notice', language: 'en', bodyParameters: ['custName-1', 'loanNo-1'] },
      filename: 'loanNo-1 custName-1.pdf',
    });
    expect(peer.media.get(message!.mediaId)).toBeGreaterThan(1000);
  });

  it('shows each kind’s template with its status at Meta: APPROVED, PENDING, REJECTED with the reason, MISSING', async () => {
    const cases = [
      [{ name: 'legal_notice', language: 'en' }, 'APPROVED', null, true],
      [{ name: 'legal_notice', language: 'hi' }, 'PENDING', 'It is PENDING at Meta, not APPROVED.', false],
      [{ name: 'notice_v0', language: 'en' }, 'REJECTED', 'Meta rejected it: INVALID_FORMAT.', false],
      [
        { name: 'notice_text_header', language: 'en' },
        'APPROVED',
        'Its header is a text, not a document: the notice PDF goes as the header.',
        false,
      ],
    ] as const;
    for (const [template, state, reason, usable] of cases) {
      expect((await setTemplate({ ...template, bodyFields: ['custName', 'loanNo'] })).statusCode).toBe(200);
      const list = (await listTemplates()).json();
      expect(list.mode).toBe('template');
      expect(list.items.find((i: { kind: string }) => i.kind === 'notice')).toMatchObject({
        ...template,
        bodyFields: ['custName', 'loanNo'],
        status: { state, reason, bodyParameters: 2 },
        usable,
      });
    }
    // A template deleted at Meta after it was set shows as missing.
    peer.templates.splice(0, peer.templates.length);
    const item = (await listTemplates()).json().items.find((i: { kind: string }) => i.kind === 'notice');
    expect(item.status).toMatchObject({
      state: 'MISSING',
      reason: "WhatsApp has no template called 'notice_text_header'.",
    });
    expect((await listTemplates(staff)).statusCode).toBe(403);
  });

  it('refuses a send whose template is not set, not approved or not usable, before anything is claimed', async () => {
    const record = await notice(staff, 1);
    const notSet = await send(staff, [record._id]);
    expect(notSet.statusCode).toBe(409);
    expect(notSet.json().message).toMatch(/No approved WhatsApp template is set for notice records/);

    await setTemplate({ name: 'legal_notice', language: 'hi', bodyFields: ['custName', 'loanNo'] });
    const pending = await send(staff, [record._id]);
    expect(pending.statusCode).toBe(409);
    expect(pending.json().message).toBe(
      'The WhatsApp template for notice records cannot be used: It is PENDING at Meta, not APPROVED. Nothing was sent.',
    );

    await setTemplate({ name: 'notice_v0', language: 'en', bodyFields: ['custName', 'loanNo'] });
    const rejected = await send(staff, [record._id]);
    expect(rejected.statusCode).toBe(409);
    expect(rejected.json().message).toMatch(/Meta rejected it: INVALID_FORMAT/);

    // Set when it matched, then edited at Meta to take four parameters (three would leave one for the link).
    await setTemplate({ name: 'legal_notice', language: 'en', bodyFields: ['custName', 'loanNo'] });
    peer.templates[0]!.body = '{{1}} {{2}} {{3}} {{4}}';
    await listTemplates(); // the screen reads Meta afresh
    const mismatch = await send(staff, [record._id]);
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().message).toMatch(/Its body has 4 parameter\(s\) but 2 field\(s\) are mapped/);

    expect(await deliveryCount()).toBe(0);
    expect(smtp.mails).toHaveLength(0);
    expect(peer.messages).toHaveLength(0);
    // An e-mail-only notice needs no WhatsApp template.
    const mailOnly = await notice(staff, 2, { modeOfDispatch: 'Email' });
    expect((await send(staff, [mailOnly._id])).json()).toMatchObject({ sent: 1 });
  });

  it('carries the notice page link as the URL button’s suffix, else as the spare body parameter, the same code on a resend', async () => {
    const linkOf = async () =>
      (await listTemplates()).json().items.find((i: { kind: string }) => i.kind === 'notice').linkBy;
    expect(
      (
        await setTemplate({ name: 'legal_notice', language: 'en', bodyFields: ['custName', 'loanNo'] })
      ).json(),
    ).toMatchObject({ linkBy: 'none', usable: true });
    const set = await setTemplate({
      name: 'notice_with_link',
      language: 'en',
      bodyFields: ['custName', 'loanNo'],
    });
    expect(set.json()).toMatchObject({ linkBy: 'button', usable: true });
    expect(set.json()).not.toHaveProperty('linkButtonIndex');
    expect(await linkOf()).toBe('button');
    const record = await notice(staff, 1, { modeOfDispatch: 'WhatsApp' });
    expect((await send(staff, [record._id])).json()).toMatchObject({ sent: 1, failed: 0 });
    const link = await pageLinkOf(record._id);
    expect(peer.messages[0]!.template).toEqual({
      name: 'notice_with_link',
      language: 'en',
      bodyParameters: ['custName-1', 'loanNo-1'],
      buttonSuffixes: { '1': `${link.code}?c=w` },
    });

    expect(
      (
        await setTemplate({ name: 'three_params', language: 'en', bodyFields: ['custName', 'loanNo'] })
      ).json(),
    ).toMatchObject({ linkBy: 'body', usable: true });
    const resend = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/send-mail',
      headers: staff.headers,
      payload: { data: [record._id], type: 'notice', resend: true },
    });
    expect(resend.json()).toMatchObject({ sent: 1, failed: 0 });
    expect(peer.messages[1]!.template).toEqual({
      name: 'three_params',
      language: 'en',
      bodyParameters: ['custName-1', 'loanNo-1', `http://localhost:3000/n/${link.code}?c=w`],
    });
  });

  it('fills a spare body parameter with the notice page’s address when the URL button takes the code too', async () => {
    // Left spare for the link, as the screen says; a parameter left out is refused by Meta (#132000).
    const set = await setTemplate({
      name: 'notice_link_twice',
      language: 'en',
      bodyFields: ['custName', 'loanNo'],
    });
    expect(set.json()).toMatchObject({
      linkBy: 'button and body',
      usable: true,
      status: { bodyParameters: 3 },
    });
    // A row kept before this was known (the button alone) is read again from Meta before a send.
    await db
      .updateTable('whatsapp_approved_templates')
      .set({ link_by: 'button' })
      .where('record_kind', '=', 'notice')
      .execute();
    const record = await notice(staff, 1, { modeOfDispatch: 'WhatsApp' });
    expect((await send(staff, [record._id])).json()).toMatchObject({ sent: 1, failed: 0 });
    const link = await pageLinkOf(record._id);
    expect(peer.messages[0]!.template).toEqual({
      name: 'notice_link_twice',
      language: 'en',
      bodyParameters: ['custName-1', 'loanNo-1', `http://localhost:3000/n/${link.code}?c=w`],
      buttonSuffixes: { '0': `${link.code}?c=w` },
    });
  });

  it('refuses a template name Meta does not have, a parameter count the fields do not match, and unknown fields', async () => {
    const cases: [object, number, RegExp][] = [
      [
        { name: 'no_such_template', language: 'en', bodyFields: ['custName'] },
        422,
        /WhatsApp has no template called 'no_such_template'/,
      ],
      [
        { name: 'legal_notice', language: 'ta', bodyFields: ['custName', 'loanNo'] },
        422,
        /no template 'legal_notice' in ta; it has it in en, hi/,
      ],
      [
        // Two fields for three parameters is allowed: the third takes the notice page's link.
        { name: 'three_params', language: 'en', bodyFields: ['custName'] },
        422,
        /Its body has 3 parameter\(s\) but 1 field\(s\)/,
      ],
      [
        { name: 'legal_notice', language: 'en', bodyFields: ['custName', 'loanNo', 'hub'] },
        422,
        /Its body has 2 parameter\(s\) but 3 field\(s\)/,
      ],
      [
        { name: 'legal_notice', language: 'en', bodyFields: [] },
        422,
        /Its body has 2 parameter\(s\) but 0 field\(s\)/,
      ],
      [
        { name: 'legal_notice', language: 'en', bodyFields: ['custName', 'cardNo'] },
        400,
        /'cardNo' is not a field of notice records/,
      ],
      [
        { name: 'Legal Notice', language: 'en', bodyFields: ['custName'] },
        400,
        /lowercase letters, digits and underscores/,
      ],
      [
        { name: 'legal_notice', language: 'English', bodyFields: ['custName'] },
        400,
        /WhatsApp language code/,
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await setTemplate(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    expect(
      (await setTemplate({ name: 'legal_notice', language: 'en', bodyFields: ['custName', 'loanNo'] }, staff))
        .statusCode,
    ).toBe(403);
    expect((await listTemplates()).json().items.every((i: { name: string | null }) => i.name === null)).toBe(
      true,
    );
  });
});

describe('WhatsApp settings', () => {
  const base = { WHATSAPP_TOKEN: 'x', WHATSAPP_PHONE_NUMBER_ID: '1' };
  it('needs the business account in template mode, and says WHATSAPP_TEMPLATE_NAME moved to the screen', () => {
    expect(() => loadConfig(base)).toThrow(/WHATSAPP_BUSINESS_ACCOUNT_ID: required with the Cloud API/);
    expect(loadConfig({ ...base, WHATSAPP_BUSINESS_ACCOUNT_ID: '9' }).whatsapp.mode).toBe('template');
    expect(loadConfig({ ...base, WHATSAPP_MODE: 'session' }).whatsapp.mode).toBe('session');
    expect(() => loadConfig({ WHATSAPP_MODE: 'free' })).toThrow(/WHATSAPP_MODE must be template or session/);
    expect(() => loadConfig({ WHATSAPP_TEMPLATE_NAME: 'legal_notice' })).toThrow(
      /WHATSAPP_TEMPLATE_NAME: no longer read. An ADMIN sets each record kind's approved template/,
    );
    // Outbox mode (no Cloud API) needs none of it.
    expect(loadConfig({}).whatsapp.mode).toBe('template');
  });
});
