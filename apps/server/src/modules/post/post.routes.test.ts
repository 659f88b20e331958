import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceRecord } from '@notice-desk/contract/evidence';
import { s10CheckDigit, type PostOverview } from '@notice-desk/contract/post';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { pdftotext } from '../../test/pdf-text.ts';
import { multipart, zipOf } from '../../test/xlsx.ts';
import { unzip } from '../../test/zip.ts';
import { noticeKind } from '../records/record-kinds.ts';

let t: TestApp;
let asha: SignedIn;
let ravi: SignedIn;
let campaignId = '';
const ids = new Map<string, string>();

/** The letters of the test: loan number, Mode Of Dispatch, PIN code (out of order on purpose). */
const letters = [
  { loan: 'LN-A', mode: 'Speed Post', pin: '560001', name: 'Asha Rao' },
  { loan: 'LN-B', mode: 'Email, RPAD', pin: '110001', name: 'Bala Iyer' },
  { loan: 'LN-C', mode: 'email & SP', pin: '400001', name: 'Chitra Sen' },
  { loan: 'LN-D', mode: 'WhatsApp', pin: '100001', name: 'Dev Nair' },
  { loan: 'LN-E', mode: 'Courier / e-mail', pin: '110002', name: 'Esha Gill' },
  { loan: 'LN-F', mode: 'Post', pin: '700001', name: 'Farah Khan' },
];
/** Print order: post letters by PIN code. */
const printOrder = ['LN-B', 'LN-E', 'LN-C', 'LN-A'];

const s10 = (serial: string) => `EE${serial}${s10CheckDigit(serial)}IN`;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  t = await createTestApp({ POST_SENDER: 'Legal Desk, 1 MG Road, Bengaluru 560001' });
  asha = await signUp(t.app, 'asha');
  ravi = await signUp(t.app, 'ravi');
  for (const l of letters) {
    const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${l.loan}`]));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/notices',
      headers: asha.headers,
      payload: {
        ...fields,
        loanNo: l.loan,
        custName: l.name,
        address: `12 Lane ${l.loan}`,
        address3: 'Near Temple',
        address4: 'Ward 5',
        city: 'Town',
        state: 'State',
        zipCode: l.pin,
        emailId: 'c@example.com',
        custMobileNo: '9876543210',
        modeOfDispatch: l.mode,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    ids.set(l.loan, res.json<{ _id: string }>()._id);
    campaignId = res.json<{ campaignId: string }>().campaignId;
  }
}, 60_000);
afterAll(async () => {
  await t.close();
});

const get = (url: string, who = asha) => t.app.inject({ method: 'GET', url, headers: who.headers });
const postJson = (url: string, payload: unknown, who = asha) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload: payload as object });
const postFile = (url: string, file: { name: string; data: Buffer }, fields: Record<string, string> = {}) => {
  const form = multipart(fields, file);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...asha.headers, ...form.headers },
    payload: form.payload,
  });
};

function pdfPageCount(pdf: Buffer): number {
  const file = path.join(os.tmpdir(), `post-${process.pid}-${Date.now()}.pdf`);
  fs.writeFileSync(file, pdf);
  try {
    return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file]).toString())![1]);
  } finally {
    fs.rmSync(file);
  }
}

describe("a campaign's post", () => {
  it('lists the post records in PIN order and counts records per channel, flagging unknown values', async () => {
    const res = await get(`/api/campaigns/${campaignId}/post`);
    expect(res.statusCode, res.body).toBe(200);
    const overview = res.json<PostOverview>();
    expect(overview.records.map((r) => r.loanNo)).toEqual(printOrder);
    expect(overview.records.map((r) => r.articleType)).toEqual([
      'rpad',
      'courier',
      'speed_post',
      'speed_post',
    ]);
    expect(overview.records[0]!.address).toEqual([
      '12 Lane LN-B',
      'Near Temple',
      'Ward 5',
      'Town, State - 110001',
    ]);
    expect(overview.channels).toEqual({
      email: 3,
      whatsapp: 1,
      sms: 0,
      speed_post: 2,
      rpad: 1,
      courier: 1,
      unknown: 1,
    });
    expect(overview.unknownValues).toEqual([{ value: 'Post', records: 1 }]);
    expect((await get(`/api/campaigns/${campaignId}/post`, ravi)).statusCode).toBe(404);
  });

  it('prints every letter: a carrier page, its blank back, the notice from a right-hand page, in PIN order', async () => {
    const res = await get(`/api/campaigns/${campaignId}/post/print.pdf`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pages = (await pdftotext(res.rawPayload)).split('\f').slice(0, -1);
    expect(pdfPageCount(res.rawPayload)).toBe(pages.length);
    expect(pages.length % 2).toBe(0);
    const carriers = pages.flatMap((text, i) => (/Ref: LN-/.test(text) ? [i] : []));
    expect(carriers.map((i) => /Ref: (LN-\w)/.exec(pages[i]!)![1])).toEqual(printOrder);
    for (const i of carriers) {
      expect(i % 2, `carrier on page ${i + 1}`).toBe(0); // pages 1, 3, 5…: right-hand
      expect(pages[i + 1]!.trim(), 'the carrier’s back is blank').toBe('');
      expect(pages[i + 2], 'the notice starts on a right-hand page').toMatch(/\S/);
    }
    expect(pages[carriers[0]!]).toContain('From: Legal Desk, 1 MG Road');
    expect(pages[carriers[0]!]).toContain('Bala Iyer');
    expect((await get(`/api/campaigns/${campaignId}/post/print.pdf`, ravi)).statusCode).toBe(404);
  });

  it('prints address labels on A4 sheets of 2 × 7 and 3 × 8, in print order', async () => {
    for (const layout of ['2x7', '3x8']) {
      const res = await get(`/api/campaigns/${campaignId}/post/labels.pdf?layout=${layout}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(pdfPageCount(res.rawPayload)).toBe(1);
      const text = await pdftotext(res.rawPayload);
      const found = ['Bala Iyer', 'Esha Gill', 'Chitra Sen', 'Asha Rao'].map((n) => text.indexOf(n));
      expect(found.every((at) => at >= 0)).toBe(true);
      expect(text).not.toContain('Dev Nair');
    }
    const bad = await get(`/api/campaigns/${campaignId}/post/labels.pdf?layout=4x4`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('layout must be 2x7 or 3x8');
  });

  it("gives the booking list in India Post's columns, as .csv and .xlsx", async () => {
    const csv = await get(`/api/campaigns/${campaignId}/post/booking.csv`);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      '"S.No","Article Number","Article Type","Sender","Addressee Name","Address Line 1","Address Line 2","Address Line 3","City","State","PIN Code","Mobile","Weight (g)","Reference (Loan No)"',
    );
    expect(lines.slice(1).map((line) => line.split('","').at(-1)!.replace('"', ''))).toEqual(printOrder);
    expect(lines[1]).toContain('"Registered Post A.D."');
    expect(lines[1]).toContain('"110001","9876543210","20"');
    const xlsx = await get(`/api/campaigns/${campaignId}/post/booking.xlsx`);
    expect(xlsx.statusCode).toBe(200);
    const sheet = (await unzip(xlsx.rawPayload)).find((f) => f.name === 'xl/worksheets/sheet1.xml')!;
    expect(sheet.data.toString()).toContain('Reference (Loan No)');
  });
});

describe('article numbers', () => {
  const url = () => `/api/campaigns/${campaignId}/post/articles`;

  it('refuses a wrong check digit naming the characters, at every digit position', async () => {
    const good = s10('12345678');
    for (let position = 2; position <= 10; position++) {
      const digit = Number(good[position]);
      const wrong = `${good.slice(0, position)}${(digit + 1) % 10}${good.slice(position + 1)}`;
      // One digit changed: S10 catches it unless it lands on the same check value (10 → 0, 11 → 5).
      if (s10CheckDigit(wrong.slice(2, 10)) === Number(wrong[10])) continue;
      const res = await postJson(url(), [{ loanNo: 'LN-A', articleNumber: wrong }]);
      expect(res.statusCode, wrong).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('the check digit (character 11)');
    }
  });

  it('refuses another country, a letter where a digit goes, a short number, naming where', async () => {
    const cases: [string, string][] = [
      [`${s10('12345678').slice(0, 11)}US`, 'characters 12–13'],
      ['EE12O456785IN', "character 5 is 'O'"],
      ['1E123456785IN', "character 1 is '1'"],
      ['EE12345678IN', 'it has 12 characters'],
    ];
    for (const [number, says] of cases) {
      const res = await postJson(url(), [{ loanNo: 'LN-A', articleNumber: number }]);
      expect(res.statusCode, number).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(says);
    }
  });

  it('refuses a number used twice, a loan number not posted, and saves nothing when any row is wrong', async () => {
    const twice = await postJson(url(), [
      { loanNo: 'LN-A', articleNumber: s10('00000001') },
      { loanNo: 'LN-B', articleNumber: s10('00000001') },
    ]);
    expect(twice.statusCode).toBe(400);
    expect(twice.json<{ message: string }>().message).toContain('given twice');
    const notPost = await postJson(url(), [{ loanNo: 'LN-D', articleNumber: s10('00000002') }]);
    expect(notPost.json<{ message: string }>().message).toContain('no post record of this campaign');
    const mixed = await postJson(url(), [
      { loanNo: 'LN-A', articleNumber: s10('00000003') },
      { loanNo: 'LN-B', articleNumber: 'EE000000000XX' },
    ]);
    expect(mixed.statusCode).toBe(400);
    const overview = (await get(`/api/campaigns/${campaignId}/post`)).json<PostOverview>();
    expect(overview.records.every((r) => r.articleNumber === null)).toBe(true);
    expect(
      (await postJson(url(), [{ loanNo: 'LN-A', articleNumber: s10('00000004') }], ravi)).statusCode,
    ).toBe(404);
    expect((await postJson(url(), { loanNo: 'LN-A' })).statusCode).toBe(400);
  });

  it('books letters one by one as a scanner reads them in print order, then refuses a number used before', async () => {
    const overview = (await get(`/api/campaigns/${campaignId}/post`)).json<PostOverview>();
    // The scan session: the record shown, the number read, the next.
    for (const [i, record] of overview.records.slice(0, 3).entries()) {
      const res = await postJson(url(), [
        { loanNo: record.loanNo, articleNumber: s10(`1000000${i}`).toLowerCase() },
      ]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ booked: number }>().booked).toBe(1);
    }
    const again = await postJson(url(), [{ loanNo: 'LN-A', articleNumber: s10('10000000') }]);
    expect(again.statusCode).toBe(400);
    expect(again.json<{ message: string }>().message).toContain('is used already');
    // The last by file, as an import of loan number → article number.
    const csv = Buffer.from(`Loan No,Article Number\r\nLN-A,${s10('10000003')}\r\n`);
    const file = await postFile(url(), { name: 'articles.csv', data: csv });
    expect(file.statusCode, file.body).toBe(200);
    const booked = (await get(`/api/campaigns/${campaignId}/post`)).json<PostOverview>();
    expect(booked.records.map((r) => [r.loanNo, r.articleNumber, r.status])).toEqual(
      printOrder.map((loan, i) => [loan, s10(`1000000${i}`), 'booked']),
    );
    // The print file now carries each number.
    const print = await get(`/api/campaigns/${campaignId}/post/print.pdf`);
    expect(await pdftotext(print.rawPayload)).toContain(s10('10000000'));
  });
});

describe('tracking and proof', () => {
  it('moves letters forward by a tracking file: some delivered, one returned refused, replays counted', async () => {
    const csv = [
      'Article No,Event,Office,Date',
      `${s10('10000000')},Item Booked,Bengaluru GPO,20-11-2026 10:00:00`,
      `${s10('10000000')},Item Delivered,Delhi GPO,22-11-2026 14:05:00`,
      `${s10('10000001')},Out for delivery,Mumbai,22-11-2026 09:00:00`,
      `${s10('10000001')},Item Returned: Addressee Refused,Mumbai,23-11-2026 11:00:00`,
      `${s10('10000002')},Item Bagged,Mumbai,21-11-2026 09:00:00`,
      `${s10('99999999')},Item Delivered,Nowhere,21-11-2026 09:00:00`,
    ].join('\r\n');
    const res = await postFile('/api/post/tracking', { name: 'tracking.csv', data: Buffer.from(csv) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      applied: 4,
      unchanged: 1,
      replayed: 0,
      unknownArticles: [s10('99999999')],
    });
    const replay = await postFile('/api/post/tracking', { name: 'tracking.csv', data: Buffer.from(csv) });
    expect(replay.json()).toMatchObject({ applied: 0, replayed: 5 });
    // A late scan after delivery is kept, never moves it back.
    const late = await postJson('/api/post/tracking', {
      events: [
        {
          articleNumber: s10('10000000'),
          event: 'Item Bagged',
          office: 'Delhi',
          at: '2026-11-24T10:00:00+05:30',
        },
      ],
    });
    expect(late.json()).toMatchObject({ applied: 0, unchanged: 1 });
    const overview = (await get(`/api/campaigns/${campaignId}/post`)).json<PostOverview>();
    expect(overview.records.map((r) => [r.loanNo, r.status, r.returnReason])).toEqual([
      ['LN-B', 'delivered', null],
      ['LN-E', 'returned', 'refused'],
      ['LN-C', 'in_transit', null],
      ['LN-A', 'booked', null],
    ]);
    const bad = await postFile('/api/post/tracking', {
      name: 'tracking.csv',
      data: Buffer.from(`Article No,Event,Date\r\n${s10('10000000')},Item Delivered,31-02-2026\r\n`),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain("Row 2: '31-02-2026' is not a date");
    const noColumn = await postFile('/api/post/tracking', {
      name: 't.csv',
      data: Buffer.from('Foo,Bar\r\n1,2\r\n'),
    });
    expect(noColumn.json<{ message: string }>().message).toContain(
      'no articlenumber, event, datetime column',
    );
  });

  it('keeps an AD card, hashed, in the evidence bundle beside the notice, and serves the record on its date', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      'base64',
    );
    const id = ids.get('LN-C')!;
    const url = `/api/notices/${id}/post/proof`;
    const notImage = await postFile(
      url,
      { name: 'card.txt', data: Buffer.from('hello') },
      { deliveredOn: '2026-11-25' },
    );
    expect(notImage.statusCode).toBe(400);
    const badDate = await postFile(url, { name: 'card.png', data: png }, { deliveredOn: '25-11-2026' });
    expect(badDate.json<{ message: string }>().message).toContain('YYYY-MM-DD');
    const noArticle = await postFile(`/api/notices/${ids.get('LN-D')!}/post/proof`, {
      name: 'c.png',
      data: png,
    });
    expect(noArticle.statusCode).toBe(409);
    const res = await postFile(url, { name: 'card.png', data: png }, { deliveredOn: '2026-11-25' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      articleNumber: s10('10000002'),
      sha256: sha256(png),
      deliveredOn: '2026-11-25',
    });

    const bundle = await get(`/api/notices/${id}/evidence`);
    expect(bundle.statusCode).toBe(200);
    const files = new Map((await unzip(bundle.rawPayload)).map((f) => [f.name, f.data]));
    expect(files.get(`post/${sha256(png)}.png`)?.equals(png)).toBe(true);
    const record = JSON.parse(files.get('deliveries.json')!.toString()).records[0] as EvidenceRecord;
    const postDelivery = record.deliveries.find((d) => d.channel === 'post')!;
    expect(postDelivery.providerMessageId).toBe(s10('10000002'));
    expect(postDelivery.pdfFile).toMatch(/^pdfs\/[0-9a-f]{64}\.pdf$/);
    expect(postDelivery.postProofs).toEqual([
      expect.objectContaining({
        file: `post/${sha256(png)}.png`,
        sha256: sha256(png),
        deliveredOn: '2026-11-25',
      }),
    ]);
    expect(postDelivery.history.map((h) => h.detail)).toEqual([
      `booked: Speed Post ${s10('10000002')}`,
      expect.stringContaining('in transit (Item Bagged, Mumbai)'),
      expect.stringContaining('delivered: AD card dated 25-11-2026'),
    ]);
    expect(record.service.servedBy).toBe('post: delivered');
    expect(record.service.shown.servedOn).toBe('25-11-2026');
    const manifest = JSON.parse(files.get('manifest.json')!.toString()) as {
      files: { file: string; sha256: string }[];
    };
    expect(manifest.files).toContainEqual({ file: `post/${sha256(png)}.png`, sha256: sha256(png) });
  });

  it('takes a zip of scans named by article number', async () => {
    const pdf = Buffer.from('%PDF-1.4\n% returned envelope\n');
    const zip = zipOf([
      { name: `${s10('10000001')}.pdf`, data: pdf },
      { name: 'stray.pdf', data: pdf },
    ]);
    const res = await postFile(`/api/campaigns/${campaignId}/post/proofs`, { name: 'scans.zip', data: zip });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kept: 1, notFound: ['stray.pdf'] });
    const notZip = await postFile(`/api/campaigns/${campaignId}/post/proofs`, { name: 'a.zip', data: pdf });
    expect(notZip.statusCode).toBe(400);
    const overview = (await get(`/api/campaigns/${campaignId}/post`)).json<PostOverview>();
    expect(overview.records.find((r) => r.loanNo === 'LN-E')!.proofSha256).toBe(sha256(pdf));
  });
});
