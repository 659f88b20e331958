import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PreviewRecords } from '@notice-desk/contract/template-preview';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { pdftotext } from '../../test/pdf-text.ts';
import { creditCardKind, noticeKind } from '../records/record-kinds.ts';

let t: TestApp;
let admin: SignedIn;
let user: SignedIn;
/** The ADMIN's notices, oldest first: Hindi, none, Tamil; and a credit card. The user's own notice. */
let hindi: string;
let plain: string;
let tamil: string;
let card: string;
let usersNotice: string;

const sample = (fields: readonly { key: string }[], tag: string) =>
  Object.fromEntries(fields.map((f) => [f.key, `${f.key}-${tag}`]));

async function create(who: SignedIn, url: string, fields: Record<string, string>): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url, headers: who.headers, payload: fields });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ _id: string }>()._id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await signUp(t.app, 'admin');
  user = await signUp(t.app, 'user');
  const notice = (tag: string, custName: string, language: string) =>
    create(admin, '/api/notices', {
      ...sample(noticeKind.fields, tag),
      custName,
      language,
      totalOverdueAmt: '1,25,000.50',
      noticeSentOn: '2024-05-12',
    });
  hindi = await notice('hi', 'Asha Verma', 'Hindi');
  plain = await notice('none', 'Bala Rao', '');
  tamil = await notice('ta', 'Chitra Iyer', 'ta');
  card = await create(admin, '/api/credit-cards', {
    ...sample(creditCardKind.fields, 'cc'),
    custName: 'Dev',
  });
  usersNotice = await create(user, '/api/notices', {
    ...sample(noticeKind.fields, 'u'),
    custName: 'Usha Theirs',
  });
});
afterAll(async () => t.close());

const preview = (payload: Record<string, unknown>, who: SignedIn = admin) =>
  t.app.inject({ method: 'POST', url: '/api/emailTemplates/preview', headers: who.headers, payload });
const previewText = async (payload: Record<string, unknown>) => {
  const res = await preview(payload);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return pdftotext(res.rawPayload);
};
const html = '<p>Dear {{custName}}: {{totalOverdueAmt | words}}</p>';

describe('the PDF Editor’s preview prints the record the ADMIN picks', () => {
  it('prints, by default, the newest record in the template’s language, and the picked one when asked', async () => {
    const hindiText = await previewText({ kind: 'notice', html, language: 'hi' });
    expect(hindiText).toContain('Asha Verma');
    expect(hindiText).toContain('एक लाख पच्चीस हजार रुपये और पचास पैसे');
    // The default template: the newest record with no language (the Tamil one is newer, but Tamil).
    const defaultText = await previewText({ kind: 'notice', html, language: null });
    expect(defaultText).toContain('Bala Rao');
    expect(defaultText).toContain('One Lakh Twenty-Five Thousand Rupees and Fifty Paise');
    expect(await previewText({ kind: 'notice', html })).toContain('Bala Rao');
    // Picked: that record, in the language of the template being edited.
    const picked = await previewText({ kind: 'notice', html, language: 'hi', recordId: tamil });
    expect(picked).toContain('Chitra Iyer');
    expect(picked).not.toContain('Asha Verma');
    expect(picked).toContain('एक लाख');
  });

  it('answers 404 for a record that is not the caller’s of that kind, and 400 naming a bad id or language', async () => {
    for (const recordId of [usersNotice, card, '00000000-0000-4000-8000-000000000000']) {
      const res = await preview({ kind: 'notice', html, recordId });
      expect(res.statusCode, recordId).toBe(404);
      expect(res.body).not.toContain('Usha');
    }
    expect(
      (await preview({ kind: 'credit-card', html: '<p>{{custName}}</p>', recordId: hindi })).statusCode,
    ).toBe(404);
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ recordId: 'abc' }, /not a record id/],
      [{ recordId: 42 }, /recordId/],
      [{ recordId: `${hindi}' OR 1=1 --` }, /not a record id/],
      [{ language: 'xx' }, /not a language code/],
      [{ language: '__proto__' }, /not a language code/],
      [{ language: 'Hindi' }, /not a language code/],
      [{ language: 7 }, /language code/],
    ];
    for (const [extra, message] of bad) {
      const res = await preview({ kind: 'notice', html, ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.body, JSON.stringify(extra)).toMatch(message);
    }
    // Only an ADMIN previews, with or without a record.
    expect((await preview({ kind: 'notice', html, recordId: usersNotice }, user)).statusCode).toBe(403);
  });
});

describe('the preview’s record picker', () => {
  const list = (query: string, who: SignedIn = admin) =>
    t.app.inject({
      method: 'GET',
      url: `/api/emailTemplates/preview-records?${query}`,
      headers: who.headers,
    });
  const records = async (query: string) => {
    const res = await list(query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PreviewRecords>();
  };

  it('lists the records in the template’s language first, with the one a preview prints by default', async () => {
    const tamilFirst = await records('kind=notice&language=ta');
    expect(tamilFirst.defaultId).toBe(tamil);
    expect(tamilFirst.records.map((r) => r._id)).toEqual([tamil, plain, hindi]);
    expect(tamilFirst.records[0]).toEqual({
      _id: tamil,
      reference: 'loanNo-ta',
      custName: 'Chitra Iyer',
      language: 'ta',
      inLanguage: true,
    });
    expect(tamilFirst.records.filter((r) => r.inLanguage)).toHaveLength(1);
    expect((await records('kind=notice')).defaultId).toBe(plain);
    // A language no record is in: the newest record, said not to be in it.
    const marathi = await records('kind=notice&language=mr');
    expect(marathi.defaultId).toBe(tamil);
    expect(marathi.records.every((r) => !r.inLanguage)).toBe(true);
    expect((await records('kind=credit-card')).records.map((r) => r.reference)).toEqual(['maskNo-cc']);
  });

  it('searches the caller’s records of the kind by name or loan number, never another user’s', async () => {
    expect((await records('kind=notice&q=chit')).records.map((r) => r._id)).toEqual([tamil]);
    expect((await records('kind=notice&q=loanNo-hi')).records.map((r) => r._id)).toEqual([hindi]);
    expect((await records('kind=notice&q=Usha')).records).toEqual([]);
    expect((await records('kind=credit-card&q=Asha')).records).toEqual([]);
    expect((await records(`kind=notice&q=${encodeURIComponent("' OR 1=1 --")}`)).records).toEqual([]);
    // The user's own picker (were they an ADMIN) is theirs alone: a plain user may not list at all.
    expect((await list('kind=notice', user)).statusCode).toBe(403);
  });

  it('answers 400 naming a bad kind, language or search', async () => {
    const bad: [string, RegExp][] = [
      ['kind=loans', /kind/],
      ['', /kind/],
      ['kind=notice&language=klingon', /not a language code/],
      [`kind=notice&q=${'x'.repeat(101)}`, /at most 100 characters/],
    ];
    for (const [query, message] of bad) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.body, query).toMatch(message);
    }
  });
});

/** Where each word of the first page starts, in points from the page's left and top edges. */
async function wordPositions(pdf: Uint8Array): Promise<Map<string, { left: number; top: number }>> {
  const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false })
    .promise;
  const page = await doc.getPage(1);
  const [, , , height] = page.view;
  const positions = new Map<string, { left: number; top: number }>();
  for (const item of (await page.getTextContent()).items)
    if ('str' in item && item.str.trim())
      positions.set(item.str.trim(), { left: item.transform[4], top: height! - item.transform[5] });
  await doc.destroy();
  return positions;
}

describe('a notice as it prints', () => {
  const mm = 72 / 25.4;

  it('prints a body with no page rule inside the default margins, and the template’s own margins when it sets them', async () => {
    const print = async (html: string) => {
      const res = await preview({ kind: 'notice', html, recordId: plain });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      return (await wordPositions(res.rawPayload)).get('EDGE')!;
    };
    const plainBody = await print('<p>EDGE</p>');
    expect(plainBody.left).toBeGreaterThanOrEqual(16 * mm);
    expect(plainBody.top).toBeGreaterThanOrEqual(18 * mm);
    for (const html of ['<div style="margin:0">EDGE</div>', '<body style="margin:0">EDGE</body>']) {
      const position = await print(html);
      expect(position.left, html).toBeGreaterThanOrEqual(16 * mm - 0.5);
    }
    // A template that asks for the paper's edge gets it; one that asks for wider margins gets them.
    expect((await print('<style>@page { margin: 0 }</style><p>EDGE</p>')).left).toBeLessThan(10 * mm);
    expect((await print('<style>@page { size: A4; margin: 30mm }</style><p>EDGE</p>')).left).toBeGreaterThan(
      29 * mm,
    );
  });

  it('keeps a hyphenated date and an amount on one line, even in a narrow column', async () => {
    const html =
      '<div style="width:40px">Date {{noticeSentOn}} due {{totalOverdueAmt | inr}} from {{disbursalDate | date}}</div>';
    const text = await previewText({ kind: 'notice', html, recordId: plain });
    expect(text).toMatch(/^\s*12-05-2024\s*$/m);
    expect(text).toMatch(/^\s*₹1,25,000\.50\s*$/m);
    // Without the no-break the same column breaks a date at its hyphens.
    const raw = await previewText({ kind: 'notice', html: '<div style="width:40px">Date 12-05-2024</div>' });
    expect(raw).not.toMatch(/12-05-2024/);
  });
});
