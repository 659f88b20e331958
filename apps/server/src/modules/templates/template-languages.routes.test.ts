import fs from 'node:fs';
import path from 'node:path';
import { placeholdersIn } from '@notice-desk/contract/templates';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { pdftotext } from '../../test/pdf-text.ts';
import { multipart, writeSheet } from '../../test/xlsx.ts';
import { unzip } from '../../test/zip.ts';
import { creditCardKind, noticeKind } from '../records/record-kinds.ts';

let t: TestApp;
let admin: SignedIn;
let user: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signUp(t.app, 'first-admin');
  user = await signUp(t.app, 'plain-user');
});
afterAll(async () => t.close());

interface Template {
  _id: string;
  key: string;
  name: string;
  html: string;
  value: string;
  language: string | null;
  variantOf: string | null;
  variants: { _id: string; language: string; name: string }[];
}

const call = (who: SignedIn, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

const pdfTemplates = async () =>
  (await call(admin, 'GET', '/api/emailTemplates/getdata?limit=100')).json<{ items: Template[] }>().items;

const sample = (fields: readonly { key: string }[], tag: string) =>
  Object.fromEntries(fields.map((f) => [f.key, `${f.key}-${tag}`]));

async function createRecord(kind: 'notices' | 'credit-cards', fields: Record<string, string>) {
  const res = await call(user, 'POST', `/api/${kind}`, fields);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ _id: string; language: string; campaignId: string }>();
}

/** The text pdftotext reads from the PDF the list's link opens for the record. */
async function pdfTextOf(kind: 'notices' | 'credit-cards', id: string): Promise<string> {
  const list = (await call(user, 'GET', `/api/${kind}/by-user-id?limit=100`)).json<{
    pdfUrl: string;
    items: { _id: string; pdfLink: string }[];
  }>();
  const record = list.items.find((item) => item._id === id)!;
  const res = await t.app.inject({ method: 'GET', url: `${list.pdfUrl}${record.pdfLink}` });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return pdftotext(res.rawPayload);
}

describe('seeded language variants', () => {
  it('give the notice and every credit-card PDF template a Hindi and a Tamil variant with the default’s fields', async () => {
    const templates = await pdfTemplates();
    const defaults = ['notice-default', 'credit-card-default', 'performa-conciliation'];
    for (const key of [...defaults, 'arbitration-performa', 'dln-performa']) {
      const base = templates.find((template) => template.key === key)!;
      expect(base.language).toBeNull();
      expect(base.variants.map((variant) => variant.language).sort()).toEqual(['hi', 'ta']);
      const fields = (html: string) => new Set(placeholdersIn(html).map((p) => p.field));
      for (const { _id } of base.variants) {
        const variant = templates.find((template) => template._id === _id)!;
        expect(variant.variantOf).toBe(base._id);
        expect(fields(variant.html), `${variant.name}`).toEqual(fields(base.html));
      }
    }
    const hindi = templates.find((template) => template.key === 'notice-default.hi')!;
    expect(hindi.name).toBe('Notice Conciliation (Hindi)');
    for (const phrase of ['विधिक सूचना', 'सेवा में', 'विषय', 'ऋण अनुबंध', '{{totalOverdueAmt | words}}'])
      expect(hindi.html).toContain(phrase);
    const tamilCard = templates.find((template) => template.key === 'dln-performa.ta')!;
    for (const phrase of ['சட்ட அறிவிப்பு', '{{noticeBalance | inr}}', '{{noticeBalance | words}}'])
      expect(tamilCard.html).toContain(phrase);
  });
});

describe('a record’s language picks the PDF variant', () => {
  it('prints Hindi for a Hindi notice, Tamil for a Tamil credit card, and the default for an unknown language', async () => {
    const hindi = await createRecord('notices', {
      ...sample(noticeKind.fields, 'hi'),
      totalOverdueAmt: '125000.50',
      language: ' हिन्दी ',
    });
    const tamil = await createRecord('credit-cards', {
      ...sample(creditCardKind.fields, 'ta'),
      activity: 'DLN Performa',
      noticeBalance: '125000.50',
      language: 'TA',
    });
    const unknown = await createRecord('notices', { ...sample(noticeKind.fields, 'x'), language: 'Klingon' });
    // The record keeps what it was given; the wizard's note says it prints the default.
    expect(unknown.language).toBe('Klingon');

    const hindiText = await pdfTextOf('notices', hindi._id);
    expect(hindiText).toContain('सूचना');
    expect(hindiText).toContain('1,25,000.50');
    // The amount in words is in the notice's language (Hindi), not English.
    expect(hindiText).toContain('एक लाख पच्चीस हजार रुपये और पचास पैसे');
    expect(hindiText).not.toContain('One Lakh');
    expect(hindiText).not.toContain('NOTICE FOR CONCILIATION');
    const tamilText = await pdfTextOf('credit-cards', tamil._id);
    expect(tamilText).toContain('அறிவிப்பு');
    expect(tamilText).toContain('maskNo-ta');
    expect(tamilText).not.toContain('DEMAND LEGAL NOTICE');
    const defaultText = await pdfTextOf('notices', unknown._id);
    expect(defaultText).toContain('NOTICE FOR CONCILIATION');
    expect(defaultText).not.toMatch(/[\u0900-\u097f]/);

    // The campaign's zip holds the same variants.
    const zip = await call(
      user,
      'GET',
      `/api/campaigns/export-campaign/notice?campaignid=${hindi.campaignId}`,
    );
    expect(zip.statusCode, zip.body.slice(0, 300)).toBe(200);
    const entries = await unzip(zip.rawPayload);
    const zipped = async (tag: string) =>
      pdftotext(entries.find((entry) => entry.name.startsWith(`loanNo-${tag} `))!.data);
    expect(await zipped('hi')).toContain('सूचना');
    expect(await zipped('x')).toContain('NOTICE FOR CONCILIATION');
  });

  it('keeps a PDF per variant: a new variant for the record’s language is printed, not the default kept before', async () => {
    const card = await createRecord('credit-cards', {
      ...sample(creditCardKind.fields, 'mr'),
      activity: 'Performa Conciliation',
      language: 'Marathi',
    });
    expect(await pdfTextOf('credit-cards', card._id)).toContain('NOTICE FOR CONCILIATION');
    const base = (await pdfTemplates()).find((template) => template.key === 'performa-conciliation')!;
    const added = await call(admin, 'POST', `/api/emailTemplates/${base._id}/variants`, { language: 'mr' });
    expect(added.statusCode, added.body).toBe(201);
    const saved = await call(admin, 'PUT', `/api/emailTemplates/update/${added.json()._id}`, {
      html: '<h1 lang="mr">मराठी सूचना</h1><p>{{maskNo}}</p>',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const text = await pdfTextOf('credit-cards', card._id);
    expect(text).toContain('मराठी');
    expect(text).toContain('maskNo-mr');
  });
});

describe('adding a language variant', () => {
  it('lets an ADMIN add one by name, code or native name, as a copy of the default; a plain user gets 403', async () => {
    const whatsapp = (await call(admin, 'GET', '/api/whatsapptemplates/getdata')).json<{
      items: Template[];
    }>().items;
    const notice = whatsapp.find((template) => template.key === 'notice')!;
    const url = `/api/whatsapptemplates/${notice._id}/variants`;
    expect((await call(user, 'POST', url, { language: 'Bengali' })).statusCode).toBe(403);
    const added = await call(admin, 'POST', url, { language: 'বাংলা' });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      key: 'notice.bn',
      name: 'Notice Conciliation (Bengali)',
      value: notice.value,
      language: 'bn',
      variantOf: notice._id,
    });
    const listed = (await call(user, 'GET', `/api/whatsapptemplates/${notice._id}`)).json<Template>();
    expect(listed.variants).toEqual([
      { _id: added.json()._id, language: 'bn', name: 'Notice Conciliation (Bengali)' },
    ]);
  });

  it('refuses a second variant of one language with 409, whatever it is called', async () => {
    const base = (await pdfTemplates()).find((template) => template.key === 'notice-default')!;
    for (const language of ['hi', 'Hindi', 'हिंदी', ' HINDI ']) {
      const res = await call(admin, 'POST', `/api/emailTemplates/${base._id}/variants`, { language });
      expect(res.statusCode, language).toBe(409);
      expect(res.json().message).toBe('Notice Conciliation already has a Hindi variant.');
    }
  });

  it('refuses an unknown language with 400 naming the languages, and a variant of a variant or of an e-mail text', async () => {
    const templates = await pdfTemplates();
    const base = templates.find((template) => template.key === 'notice-default')!;
    const unknown = await call(admin, 'POST', `/api/emailTemplates/${base._id}/variants`, {
      language: 'Klingon',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.language).toMatch(
      /^‘Klingon’ is not a language a template can be written in\. Choose one of: English, Hindi, Marathi, .*Tamil/,
    );
    const empty = await call(admin, 'POST', `/api/emailTemplates/${base._id}/variants`, { language: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.language).toBe('Choose a language.');
    const variant = templates.find((template) => template.key === 'notice-default.hi')!;
    const nested = await call(admin, 'POST', `/api/emailTemplates/${variant._id}/variants`, {
      language: 'ta',
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().message).toContain('itself a language variant');
    const subject = templates.find((template) => template.key === 'email-subject-notice')!;
    const mail = await call(admin, 'POST', `/api/emailTemplates/${subject._id}/variants`, { language: 'ta' });
    expect(mail.statusCode).toBe(400);
    expect(
      (
        await call(admin, 'POST', '/api/emailTemplates/0190c000-0000-7000-8000-000000009999/variants', {
          language: 'ta',
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('sending in a record’s language', () => {
  it('captions the WhatsApp message with the variant in the record’s language (its amount in words too), and the default for the rest', async () => {
    const whatsapp = (await call(admin, 'GET', '/api/whatsapptemplates/getdata')).json<{
      items: Template[];
    }>().items;
    const card = whatsapp.find((template) => template.key === 'credit-card')!;
    const added = await call(admin, 'POST', `/api/whatsapptemplates/${card._id}/variants`, {
      language: 'தமிழ்',
    });
    expect(added.statusCode, added.body).toBe(201);
    const value = 'அன்புள்ள {{custName}}, நிலுவைத் தொகை {{noticeBalance | inr}} ({{noticeBalance | words}}).';
    expect(
      (await call(admin, 'PUT', `/api/whatsapptemplates/update/${added.json()._id}`, { value })).statusCode,
    ).toBe(200);
    const sendOne = async (tag: string, language: string) => {
      const created = await createRecord('credit-cards', {
        ...sample(creditCardKind.fields, tag),
        custName: `Customer ${tag}`,
        emailId: `${tag}@example.com`,
        custMobileNo: '9876543210',
        noticeBalance: '125000.50',
        language,
      });
      const sent = await call(user, 'POST', '/api/campaigns/send-mail', {
        data: [created._id],
        type: 'credit-card',
      });
      expect(sent.statusCode, sent.body).toBe(200);
    };
    await sendOne('tamil', 'Tamil');
    await sendOne('english', 'Klingon');
    const outbox = path.join(t.config.dataDir, 'outbox');
    const captions = fs
      .readdirSync(outbox)
      .filter((file) => file.endsWith('.whatsapp.json'))
      .map(
        (file) =>
          // The merged caption; the notice page's link follows it on a line of its own.
          (JSON.parse(fs.readFileSync(path.join(outbox, file), 'utf8')) as { caption: string }).caption.split(
            '\n\nView and reply: ',
          )[0]!,
      );
    expect(captions).toContain(
      'அன்புள்ள Customer tamil, நிலுவைத் தொகை ₹1,25,000.50 (ஒரு லட்சத்து இருபத்து ஐந்தாயிரம் ரூபாய் ஐம்பது பைசா).',
    );
    expect(captions.find((caption) => caption.includes('Customer english'))).toMatch(
      /^Dear Customer english, /,
    );
  });
});

describe('the language column of an import', () => {
  it('is read under LANGUAGE, Language or Notice Language, and kept as written', async () => {
    const header = noticeKind.fields.filter((f) => f.key !== 'language').map((f) => f.label);
    const row = (tag: string) =>
      noticeKind.fields.filter((f) => f.key !== 'language').map((f) => `${f.key}-${tag}`);
    const cases = [
      ['LANGUAGE', 'हिन्दी'],
      ['Language', 'tamil'],
      ['Notice Language', 'Klingon'],
    ] as const;
    for (const [column, value] of cases) {
      const file = path.join(t.config.dataDir, `languages-${column}.xlsx`);
      await writeSheet(file, [
        [...header, column],
        [...row(column), value],
      ]);
      const form = multipart(
        { type: 'notice', name: `${column}.xlsx` },
        { name: `${column}.xlsx`, data: fs.readFileSync(file) },
      );
      const stored = await t.app.inject({
        method: 'POST',
        url: '/temporary-upload',
        headers: { ...admin.headers, ...form.headers },
        payload: form.payload,
      });
      expect(stored.statusCode, stored.body).toBe(200);
      // 'loanNo-LANGUAGE' and 'loanNo-Language' are one loan number to an import (case is not read):
      // each is imported as a new record.
      const start = await call(admin, 'POST', '/api/notices/upload-notice-info', {
        file: stored.json().data,
        duplicates: 'new',
      });
      expect(start.statusCode, start.body).toBe(202);
      for (let i = 0; i < 200; i++) {
        const progress = (await call(admin, 'GET', '/api/notices/by-user-id/progress-count')).json();
        if (progress.status === 'done' || progress.status === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const items = (await call(admin, 'GET', '/api/notices/by-user-id?limit=100')).json<{
      items: { loanNo: string; language: string }[];
    }>().items;
    for (const [column, value] of cases)
      expect(items.find((item) => item.loanNo === `loanNo-${column}`)?.language, column).toBe(value);
  });
});
