import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { pdfPagesText } from '../../test/pdf-text.ts';
import { creditCardKind } from '../records/record-kinds.ts';

let t: TestApp;
let admin: SignedIn;
let user: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  admin = await signUp(t.app, 'first-admin');
  user = await signUp(t.app, 'plain-user');
});
afterEach(async () => t.close());

/** Names an object's prototype answers to, as a template writes them and as the refusal names them. */
const prototypeNames = [
  ['{{constructor}}', 'constructor'],
  ['{{__proto__}}', '__proto__'],
  ['{{toString}}', 'toString'],
  ['{{hasOwnProperty}}', 'hasOwnProperty'],
  ['{{ valueOf }}', 'valueOf'],
] as const;

const call = (who: SignedIn | undefined, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });

describe('templates', () => {
  it('are seeded once: a WhatsApp template per kind, PDF templates including three activity templates', async () => {
    const whatsapp = (await call(user, 'GET', '/api/whatsapptemplates/getdata')).json();
    expect(whatsapp.items.map((t: { key: string }) => t.key).sort()).toEqual(['credit-card', 'notice']);
    const pdf = (await call(user, 'GET', '/api/emailTemplates/getdata?page=1&limit=25')).json();
    expect(pdf.items.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining([
        'Performa Conciliation',
        'Arbitration Performa',
        'DLN Performa',
        'Notice Conciliation',
      ]),
    );
    const notice = pdf.items.find((t: { key: string }) => t.key === 'notice-default');
    expect(notice.html).toContain('Section 62 of the Arbitration and Conciliation Act, 1996');
    expect(notice.html).toContain('{{loanNo}}');
    expect(notice.placeholders).toContain('loanNo');
  });

  it('lets an ADMIN change the body but not the key or name; a plain user gets 403', async () => {
    const [template] = (await call(user, 'GET', '/api/whatsapptemplates/getdata')).json().items;
    const url = `/api/whatsapptemplates/update/${template._id}`;
    const denied = await call(user, 'PUT', url, { ...template, value: 'Hi {{custName}}' });
    expect(denied.statusCode).toBe(403);
    expect((await call(undefined, 'PUT', url, { value: 'x' })).statusCode).toBe(401);
    const ok = await call(admin, 'PUT', url, {
      key: template.key,
      name: template.name,
      value: 'Hi {{custName}}',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ _id: template._id, value: 'Hi {{custName}}' });
    expect((await call(user, 'GET', `/api/whatsapptemplates/${template._id}`)).json().value).toBe(
      'Hi {{custName}}',
    );
    const renamed = await call(admin, 'PUT', url, { key: 'other', value: 'x' });
    expect(renamed.json().message).toBe('The key and name of a template cannot be changed.');
    const empty = await call(admin, 'PUT', url, { value: '  ' });
    expect(empty.json().error).toEqual({ value: 'value is required!!' });
  });

  it('refuses a placeholder that names no field, naming it', async () => {
    const pdf = (await call(admin, 'GET', '/api/emailTemplates/getdata')).json().items;
    const notice = pdf.find((t: { key: string }) => t.key === 'notice-default');
    const res = await call(admin, 'PUT', `/api/emailTemplates/update/${notice._id}`, {
      html: '<p>{{loanNo}} {{ balance }}</p>',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.html).toBe(
      '{{balance}} names no field of a notice record. Use one of the listed placeholders.',
    );
    const empty = await call(admin, 'PUT', `/api/emailTemplates/update/${notice._id}`, { html: '' });
    expect(empty.json().error).toEqual({ html: 'Body is required!!' });
  });

  it('answers 413 for a template over 2 MB, and renders malformed HTML as given', async () => {
    const [template] = (await call(admin, 'GET', '/api/emailTemplates/getdata')).json().items;
    const big = await call(admin, 'PUT', `/api/emailTemplates/update/${template._id}`, {
      html: 'x'.repeat(2 * 1024 * 1024 + 10),
    });
    expect(big.statusCode).toBe(413);
    const malformed = await call(admin, 'PUT', `/api/emailTemplates/update/${template._id}`, {
      html: '<p><b>unclosed <div>',
    });
    expect(malformed.statusCode).toBe(200);
  });

  it('refuses prototype names as placeholders in every kind of template, naming them', async () => {
    const pdf = (await call(admin, 'GET', '/api/emailTemplates/getdata')).json().items as {
      _id: string;
      key: string;
      html: string;
    }[];
    const whatsapp = (await call(admin, 'GET', '/api/whatsapptemplates/getdata')).json().items as {
      _id: string;
      value: string;
    }[];
    // The notice PDF, a credit-card activity template, the e-mail subject and body, both WhatsApp texts.
    const targets = [
      ...['notice-default', 'dln-performa', 'email-subject-notice', 'email-body-credit-card'].map((key) => {
        const template = pdf.find((t) => t.key === key)!;
        return { url: `/api/emailTemplates/update/${template._id}`, field: 'html', before: template.html };
      }),
      ...whatsapp.map((t) => ({
        url: `/api/whatsapptemplates/update/${t._id}`,
        field: 'value',
        before: t.value,
      })),
    ];
    for (const [written, named] of prototypeNames) {
      for (const target of targets) {
        const res = await call(admin, 'PUT', target.url, { [target.field]: `Dear {{custName}}, ${written}` });
        expect(res.statusCode, `${target.url} ${written}: ${res.body}`).toBe(400);
        expect(res.json().error[target.field]).toMatch(
          /^\{\{\w+\}\} names no field of a (notice|credit card) record/,
        );
        expect(res.json().error[target.field]).toContain(`{{${named}}}`);
        expect((await call(admin, 'GET', target.url.replace('/update', ''))).json()[target.field]).toBe(
          target.before,
        );
      }
    }
  });

  it('answers 404 for an unknown template and 400 for a malformed id', async () => {
    expect(
      (await call(user, 'GET', '/api/emailTemplates/0190c000-0000-7000-8000-000000009999')).statusCode,
    ).toBe(404);
    expect((await call(user, 'GET', '/api/emailTemplates/abc')).statusCode).toBe(400);
  });

  it('saves formatters in PDF and WhatsApp templates, and refuses an unknown one with 400 naming it', async () => {
    const pdf = (await call(admin, 'GET', '/api/emailTemplates/getdata')).json().items;
    const dln = pdf.find((t: { key: string }) => t.key === 'dln-performa');
    const [whatsapp] = (await call(admin, 'GET', '/api/whatsapptemplates/getdata'))
      .json()
      .items.filter((t: { kind: string }) => t.kind === 'credit-card');
    const html = '<p>{{noticeBalance | inr}} ({{ noticeBalance|words }}) due on {{noticeDate | date}}</p>';
    const saved = await call(admin, 'PUT', `/api/emailTemplates/update/${dln._id}`, { html });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call(user, 'GET', `/api/emailTemplates/${dln._id}`)).json().html).toBe(html);
    const value = 'Dear {{custName}}, pay {{noticeBalance | inr}} by {{ noticeDate | date }}.';
    const whatsappUrl = `/api/whatsapptemplates/update/${whatsapp._id}`;
    expect((await call(admin, 'PUT', whatsappUrl, { value })).statusCode).toBe(200);

    const refusals = [
      ['<p>{{noticeBalance | rupees}}</p>', '{{noticeBalance | rupees}} names no formatter'],
      ['<p>{{noticeBalance|constructor}}</p>', '{{noticeBalance | constructor}} names no formatter'],
      ['<p>{{noticeBalance | inr | words}}</p>', 'a placeholder takes one formatter at most'],
      ['<p>{{balance | inr}}</p>', '{{balance}} names no field of a credit card record'],
    ] as const;
    for (const [text, reason] of refusals) {
      const pdfRes = await call(admin, 'PUT', `/api/emailTemplates/update/${dln._id}`, { html: text });
      expect(pdfRes.statusCode, text).toBe(400);
      expect(pdfRes.json().error.html).toContain(reason);
      const whatsappRes = await call(admin, 'PUT', whatsappUrl, { value: text });
      expect(whatsappRes.statusCode, text).toBe(400);
      expect(whatsappRes.json().error.value).toContain(reason);
      const previewRes = await call(admin, 'POST', '/api/emailTemplates/preview', {
        kind: 'credit-card',
        html: text,
      });
      expect(previewRes.statusCode, text).toBe(400);
      expect(previewRes.json().error.html).toContain(reason);
    }
    expect((await call(user, 'GET', `/api/emailTemplates/${dln._id}`)).json().html).toBe(html);
  });

  it('previews formatters with the record’s values: rupees, words and an Indian date, or the text as it is', async () => {
    const card = {
      ...Object.fromEntries(creditCardKind.fields.map((f) => [f.key, `${f.key}-1`])),
      noticeBalance: 'Rs. 125000.50',
      noticeDate: '2024-05-20',
      overdueAmount: 'not yet known',
    };
    const created = await call(admin, 'POST', '/api/credit-cards', card);
    expect(created.statusCode, created.body).toBe(201);
    const res = await call(admin, 'POST', '/api/emailTemplates/preview', {
      kind: 'credit-card',
      html: '<p>A {{noticeBalance|inr}} B {{ noticeBalance | words }} C {{noticeDate | date}} D {{overdueAmount | inr}} E</p>',
    });
    expect(res.statusCode, res.body).toBe(200);
    const text = (await pdfPagesText(res.rawPayload)).join(' ');
    expect(text).toContain('1,25,000.50 B One Lakh Twenty-Five Thousand Rupees and Fifty Paise C 20-05-2024');
    expect(text).toContain('D not yet known E');
  });

  it('formats the WhatsApp caption and the e-mail subject as plain text, in LOCALE and TIME_ZONE', async () => {
    expect(await sentCaptionAndSubject(t, admin)).toEqual({
      caption:
        'Pay ₹1,25,000.50 (One Lakh Twenty-Five Thousand Rupees and Fifty Paise) by 20-05-2024. Asha & <Rao>',
      subject: 'Notice dated 20-05-2024, Asha & <Rao>',
    });
    const american = await createTestApp({ LOCALE: 'en-US', TIME_ZONE: 'UTC' });
    try {
      expect(await sentCaptionAndSubject(american, await signUp(american.app, 'us-admin'))).toEqual({
        caption:
          'Pay ₹1,25,000.50 (One Lakh Twenty-Five Thousand Rupees and Fifty Paise) by 5/19/2024. Asha & <Rao>',
        subject: 'Notice dated 5/19/2024, Asha & <Rao>',
      });
    } finally {
      await american.close();
    }
  });
});

/** Sets the credit-card WhatsApp text and e-mail subject to use formatters, sends one card, and reads the outbox. */
async function sentCaptionAndSubject(app: TestApp, who: SignedIn) {
  const send = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    app.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const [whatsapp] = (await send('GET', '/api/whatsapptemplates/getdata'))
    .json()
    .items.filter((template: { kind: string }) => template.kind === 'credit-card');
  const caption =
    'Pay {{noticeBalance | inr}} ({{noticeBalance|words}}) by {{ noticeDate | date }}. {{custName | inr}}';
  expect(
    (await send('PUT', `/api/whatsapptemplates/update/${whatsapp._id}`, { value: caption })).statusCode,
  ).toBe(200);
  const pdf = (await send('GET', '/api/emailTemplates/getdata?limit=100')).json().items;
  const subject = pdf.find((template: { key: string }) => template.key === 'email-subject-credit-card');
  const saved = await send('PUT', `/api/emailTemplates/update/${subject._id}`, {
    html: 'Notice dated {{noticeDate | date}}, {{custName}}',
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const card = {
    ...Object.fromEntries(creditCardKind.fields.map((f) => [f.key, `${f.key}-2`])),
    custName: 'Asha & <Rao>',
    emailId: 'asha@example.com',
    custMobileNo: '9876543210',
    noticeBalance: '₹ 1,25,000.5',
    // An instant: its date in Asia/Kolkata is the 20th, in UTC still the 19th.
    noticeDate: '2024-05-19T20:00:00Z',
  };
  const created = (await send('POST', '/api/credit-cards', card)).json();
  const sent = await send('POST', '/api/campaigns/send-mail', { data: [created._id], type: 'credit-card' });
  expect(sent.json(), sent.body).toMatchObject({ sent: 2 });
  const outbox = path.join(app.config.dataDir, 'outbox');
  const files = fs.readdirSync(outbox);
  const message = JSON.parse(
    fs.readFileSync(
      path.join(
        outbox,
        files.find((f) => f.endsWith('.whatsapp.json'))!,
      ),
      'utf8',
    ),
  ) as { caption: string };
  const mail = fs.readFileSync(
    path.join(
      outbox,
      files.find((f) => f.endsWith('.eml'))!,
    ),
    'utf8',
  );
  // The notice page's link follows the template's text, after a blank line (issue 29).
  const [text, link] = message.caption.split('\n\n');
  expect(link).toMatch(/\/n\/[\w-]{22}\?c=w$/);
  return { caption: text, subject: /^Subject: (.*)$/m.exec(mail)?.[1] };
}
