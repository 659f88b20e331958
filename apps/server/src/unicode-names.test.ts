import { parse } from 'content-disposition';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type SignedIn, type TestApp } from './test/app.ts';
import { pdftotext } from './test/pdf-text.ts';
import { startSmtpListener, startWhatsappPeer } from './test/peers.ts';
import { unzip } from './test/zip.ts';
import { noticeKind } from './modules/records/record-kinds.ts';

/**
 * A customer's name reaches every file and message in its own script: the PDF link, the campaign zip
 * and report, the evidence bundle, the e-mail (subject and attachment) and the WhatsApp document.
 */
const customers = [
  { loanNo: 'LN9001', custName: 'राजेश शर्मा' },
  { loanNo: 'LN9002', custName: 'கார்த்திகேயன் சுப்பிரமணியம்' },
  { loanNo: 'LN9003', custName: 'محمد عمران خان' },
];

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let peer: Awaited<ReturnType<typeof startWhatsappPeer>>;
let admin: SignedIn;
const ids: string[] = [];
let campaignId = '';

async function notice(fields: Record<string, string>) {
  const payload = {
    ...Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-x`])),
    emailId: 'customer@example.com',
    custMobileNo: '9876500001',
    modeOfDispatch: 'Email and WhatsApp',
    ...fields,
  };
  const res = await t.app.inject({ method: 'POST', url: '/api/notices', headers: admin.headers, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ _id: string; campaignId: string }>();
}

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin.headers });

async function pdfLink(id: string): Promise<string> {
  const list = (await get('/api/notices/by-user-id?limit=100')).json();
  const row = list.items.find((item: { _id: string }) => item._id === id);
  return `${list.pdfUrl}${row.pdfLink}`;
}

/** The name a browser saves a download under: filename* when there is one, else filename. */
const savedName = (header: string | string[] | number | undefined) =>
  parse(String(header)).parameters.filename;

/** Decodes RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`), joining adjacent ones. */
function decodeWords(text: string): string {
  return text
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, encoding: string, data: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64').toString('latin1')
        : data
            .replace(/_/g, ' ')
            .replace(/=([0-9a-f]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    )
    .replace(/[\x80-\xff]+/g, (bytes) => Buffer.from(bytes, 'latin1').toString('utf8'));
}

/** A header of a raw mail, unfolded. */
const header = (raw: string, name: string) =>
  new RegExp(`^${name}:(.*(?:\\r?\\n[ \\t].*)*)`, 'im')
    .exec(raw)?.[1]!
    .replace(/\r?\n[ \t]/g, ' ')
    .trim() ?? '';

/** The attachment's file name from RFC 2231 parameters (`filename*0*=utf-8''…; filename*1*=…`). */
function attachmentName(raw: string): string {
  const disposition = header(raw, 'Content-Disposition');
  const parts = [...disposition.matchAll(/filename\*(?:(\d+)\*?|)=?\*?=?"?([^";]*)"?/gi)];
  if (parts.length === 0) return decodeWords(/filename="?([^";]*)"?/i.exec(disposition)?.[1] ?? '');
  const joined = parts.map((part) => part[2]!).join('');
  return decodeURIComponent(joined.replace(/^utf-8''/i, ''));
}

/** Zip entries' names and whether each has the UTF-8 flag (general purpose bit 11), from the central directory. */
function zipNames(zip: Buffer): { name: string; utf8: boolean }[] {
  const names: { name: string; utf8: boolean }[] = [];
  for (let at = zip.indexOf('PK\x01\x02'); at >= 0; at = zip.indexOf('PK\x01\x02', at + 4)) {
    const length = zip.readUInt16LE(at + 28);
    names.push({
      name: zip.subarray(at + 46, at + 46 + length).toString('utf8'),
      utf8: (zip.readUInt16LE(at + 8) & 0x800) !== 0,
    });
  }
  return names;
}

beforeAll(async () => {
  smtp = await startSmtpListener();
  peer = await startWhatsappPeer();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: peer.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_MODE: 'session', // free-form document messages, as these tests read them
  });
  admin = await signUp(t.app, 'admin');
  // The subject names the customer, so the test sees how the name is encoded there.
  const templates = (await get('/api/emailTemplates/getdata')).json().items;
  const subject = templates.find((item: { key: string }) => item.key === 'email-subject-notice');
  const edit = await t.app.inject({
    method: 'PUT',
    url: `/api/emailTemplates/update/${subject._id}`,
    headers: admin.headers,
    payload: { html: 'Notice for {{custName}}: loan account {{loanNo}}' },
  });
  expect(edit.statusCode, edit.body).toBe(200);
  for (const customer of customers) {
    const created = await notice(customer);
    ids.push(created._id);
    campaignId = created.campaignId;
  }
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await peer.close();
});

describe('a customer’s name keeps its script', () => {
  it('in the PDF link’s file name (filename* in UTF-8, an ASCII fallback) and in the PDF', async () => {
    for (const [i, { loanNo, custName }] of customers.entries()) {
      const res = await t.app.inject({ method: 'GET', url: await pdfLink(ids[i]!) });
      expect(res.statusCode, res.body).toBe(200);
      const disposition = String(res.headers['content-disposition']);
      expect(disposition).toMatch(/^inline; filename="?[\x20-\x7e]+"?; filename\*=UTF-8''/);
      expect(disposition).toContain(`filename=${loanNo}.pdf`);
      expect(savedName(disposition)).toBe(`${loanNo} ${custName}.pdf`);
      expect(await pdftotext(res.rawPayload)).toContain(loanNo);
    }
  }, 60_000);

  it('in the campaign zip’s entries (NFC, UTF-8 flag) and in the report’s cells', async () => {
    const zip = await get(`/api/campaigns/export-campaign/notice?campaignid=${campaignId}`);
    expect(zip.statusCode, zip.body).toBe(200);
    // A campaign name in any script goes the same way (content-disposition.test.ts); this one is Latin.
    expect(savedName(zip.headers['content-disposition'])).toBe('Manual entries.zip');
    const names = zipNames(zip.rawPayload);
    expect(names.map((n) => n.name).sort()).toEqual(
      customers.map((c) => `${c.loanNo} ${c.custName}.pdf`.normalize('NFC')).sort(),
    );
    expect(names.every((n) => n.utf8)).toBe(true);
    expect((await unzip(zip.rawPayload)).map((e) => e.name).sort()).toEqual(names.map((n) => n.name).sort());

    const report = await get(`/api/campaigns/export-reports/notice?campaignid=${campaignId}`);
    expect(report.statusCode).toBe(200);
    expect(savedName(report.headers['content-disposition'])).toMatch(/report\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(report.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    book.worksheets[0]!.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value))));
    for (const { custName } of customers) expect(cells).toContain(custName);
  }, 60_000);

  it('in the evidence bundle’s file name', async () => {
    for (const [i, { loanNo, custName }] of customers.entries()) {
      const res = await get(`/api/notices/${ids[i]}/evidence`);
      expect(res.statusCode, res.body).toBe(200);
      expect(savedName(res.headers['content-disposition'])).toBe(`evidence Notice ${loanNo} ${custName}.zip`);
    }
  }, 60_000);

  it('in the e-mail’s subject and attachment (RFC 2047 and 2231) and the WhatsApp document’s name', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/send-mail',
      headers: admin.headers,
      payload: { data: ids, type: 'notice' },
    });
    expect(res.json()).toMatchObject({ sent: 6, failed: 0 });
    for (const { loanNo, custName } of customers) {
      const mail = smtp.mails.find(
        (m) => m.raw.includes(loanNo) || decodeWords(header(m.raw, 'Subject')).includes(loanNo),
      );
      expect(mail, loanNo).toBeDefined();
      const rawSubject = header(mail!.raw, 'Subject');
      expect(rawSubject).toMatch(/^[\x20-\x7e]+$/);
      expect(decodeWords(rawSubject)).toBe(`Notice for ${custName}: loan account ${loanNo}`);
      expect(attachmentName(mail!.raw)).toBe(`${loanNo} ${custName}.pdf`);
      expect(peer.messages.map((m) => m.filename)).toContain(`${loanNo} ${custName}.pdf`);
    }
  }, 60_000);
});

describe('names that are hard to print are printed, or refused with the reason, never a 500', () => {
  const hard = [
    { loanNo: 'LN9101', custName: 'Rajesh राजेश ராஜேஷ் راجیش', text: 'Rajesh' },
    { loanNo: 'LN9102', custName: 'محمد عمران 12 خان 2024', text: '2024' },
    { loanNo: 'LN9103', custName: 'क्‍ष ক্‌ষ ൻ്‍ ज़‍', text: 'LN9103' },
    { loanNo: 'LN9104', custName: `${'शर्मा '.repeat(332)}Kumar K.`, text: 'Kumar' },
  ];

  it('mixed scripts, Urdu with Latin digits, joiners and a 2,000-character name print', async () => {
    expect(hard[3]!.custName).toHaveLength(2000);
    for (const { loanNo, custName, text } of hard) {
      const { _id } = await notice({ loanNo, custName });
      const res = await t.app.inject({ method: 'GET', url: await pdfLink(_id) });
      expect(res.statusCode, `${loanNo}: ${res.body}`).toBe(200);
      expect(await pdftotext(res.rawPayload), loanNo).toContain(text);
      const saved = savedName(res.headers['content-disposition'])!;
      expect(saved.startsWith(`${loanNo} `), loanNo).toBe(true);
      expect(saved.length, loanNo).toBeLessThan(1000);
    }
    const tooLong = await t.app.inject({
      method: 'POST',
      url: '/api/notices',
      headers: admin.headers,
      payload: { loanNo: 'LN9106', custName: `${hard[3]!.custName}.` },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error).toMatchObject({
      custName: 'Customer Name must be at most 2000 characters.',
    });
  }, 60_000);

  it('an emoji fails that record with the character named: the link answers 422, the send fails it, the zip lists it', async () => {
    const reason = 'The notice uses characters no font covers: U+1F600 (😀).';
    const { _id, campaignId: campaign } = await notice({ loanNo: 'LN9105', custName: 'Asha 😀 Kumar' });
    const link = await t.app.inject({ method: 'GET', url: await pdfLink(_id) });
    expect(link.statusCode).toBe(422);
    expect(link.json().error).toBe(reason);

    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/send-mail',
      headers: admin.headers,
      payload: { data: [_id], type: 'notice' },
    });
    expect(sent.json()).toMatchObject({ sent: 0, failed: 2 });
    const detail = (await get(`/api/campaigns/single-campaign/${campaign}?search=LN9105`)).json();
    const row = detail.notices.find((n: { reference: string }) => n.reference === 'LN9105');
    expect(row).toMatchObject({ emailResponse: 'failed', emailError: reason, whatsappError: reason });

    const zip = await get(`/api/campaigns/export-campaign/notice?campaignid=${campaign}`);
    const listed = (await unzip(zip.rawPayload)).find((e) => e.name === 'not-printed.txt');
    expect(listed?.data.toString('utf8')).toBe(`LN9105 Asha _ Kumar.pdf: ${reason}\n`);

    // The evidence bundle's own summary prints the character as its code point.
    const evidence = await get(`/api/notices/${_id}/evidence`);
    expect(evidence.statusCode).toBe(200);
    const summary = (await unzip(evidence.rawPayload)).find((e) => e.name === 'summary.pdf')!;
    expect(await pdftotext(summary.data)).toContain('Asha [U+1F600] Kumar');
  }, 60_000);
});
