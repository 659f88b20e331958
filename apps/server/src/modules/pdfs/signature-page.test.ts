import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { pdftotext } from '../../test/pdf-text.ts';
import { noticeKind } from '../records/record-kinds.ts';

let t: TestApp;
let user: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  user = await signUp(t.app, 'user');
});
afterAll(async () => t.close());

/** A loan notice as a branch writes one: long enough that the seeded Hindi and Tamil notices run past a page. */
const loan = {
  ...Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-1`])),
  loanNo: 'LN002987652',
  totalOverdueAmt: '125000.50',
  amtfin: '500000',
  emiAmt: '12500',
  tenure: '48',
  disbursalDate: '2023-05-20',
  conciliationDate: '2026-12-20',
  noticeSentOn: '2026-11-29',
  address: '12, गांधी नगर',
  city: 'जयपुर',
  zipCode: '302001',
  custMobileNo: '9876543210',
  modelNo: 'Maruti Swift VXI',
  regdNo: 'RJ14 AB 1234',
  chassisNo: 'MA3EWDE1S00123456',
  engineNo: 'K12MN1234567',
};

async function noticePages(fields: Record<string, string>): Promise<string[]> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/notices',
    headers: user.headers,
    payload: fields,
  });
  expect(created.statusCode, created.body).toBe(201);
  const list = (
    await t.app.inject({ method: 'GET', url: '/api/notices/by-user-id', headers: user.headers })
  ).json();
  const item = list.items.find((i: { _id: string }) => i._id === created.json()._id);
  const pdf = await t.app.inject({ method: 'GET', url: `${list.pdfUrl}${item.pdfLink}` });
  expect(pdf.statusCode).toBe(200);
  // poppler's text, a form feed after each page; it reads the Indic scripts as a person's tools do.
  return (await pdftotext(pdf.rawPayload)).split('\f').map((page) => page.replace(/\s+/g, ''));
}

describe('the seeded notices keep the signature with the paragraph before it (20261201_templates_02)', () => {
  const cases = [
    { language: 'Hindi', custName: 'राजेश शर्मा', sign: 'भवदीय', before: 'इससूचनाकीएकप्रति' },
    { language: 'Tamil', custName: 'ராஜேஷ் ஷர்மா', sign: 'இப்படிக்கு', before: 'இந்தஅறிவிப்பின்நகல்' },
  ];
  for (const { language, custName, sign, before } of cases) {
    it(`${language}: the page that signs also holds the closing paragraph, and the verification block`, async () => {
      const pages = await noticePages({ ...loan, custName, language });
      const signed = pages.findIndex((page) => page.includes(sign));
      expect(signed, `${language}: the signature prints`).toBeGreaterThanOrEqual(0);
      expect(pages[signed], `${language}: not alone on its page`).toContain(before);
      expect(pages[signed]).toContain('/v/');
    }, 60_000);
  }
});
