import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { pdfPagesText } from '../../test/pdf-text.ts';
import { strictXmlParts } from '../../test/xml.ts';
import { unzip } from '../../test/zip.ts';
import { noticeKind } from '../records/record-kinds.ts';

let t: TestApp;
let asha: SignedIn;
let ravi: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  asha = await signUp(t.app, 'asha');
  ravi = await signUp(t.app, 'ravi');
});
afterEach(async () => t.close());

async function notices(
  count: number,
  overrides: (i: number) => Record<string, string | undefined> = () => ({}),
) {
  let campaignId = '';
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${i}`]));
    const res = (
      await t.app.inject({
        method: 'POST',
        url: '/api/notices',
        headers: asha.headers,
        payload: { ...fields, emailId: `c${i}@example.com`, ...overrides(i) },
      })
    ).json();
    campaignId = res.campaignId;
    ids.push(res._id);
  }
  return { campaignId, ids };
}

describe('campaign exports', () => {
  it('zips every record’s own PDF, stored, named after its loan number and customer', async () => {
    const { campaignId } = await notices(3);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/export-campaign/notice?campaignid=${campaignId}`,
      headers: asha.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const entries = await unzip(res.rawPayload);
    expect(entries.map((e) => e.name).sort()).toEqual([
      'loanNo-0 custName-0.pdf',
      'loanNo-1 custName-1.pdf',
      'loanNo-2 custName-2.pdf',
    ]);
    expect(entries.every((e) => !e.compressed)).toBe(true);
    for (const entry of entries) {
      const i = entry.name.match(/loanNo-(\d)/)![1];
      const text = (await pdfPagesText(entry.data)).join(' ');
      expect(text).toContain(`loanNo-${i}`);
      expect(text).not.toContain(`loanNo-${(Number(i) + 1) % 3}`);
    }
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/campaigns/export-campaign/notice?campaignid=${campaignId}`,
          headers: ravi.headers,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/campaigns/export-campaign/credit-card?campaignid=${campaignId}`,
          headers: asha.headers,
        })
      ).statusCode,
    ).toBe(400);
  });

  it('reports every record with its channel statuses, formulas neutralised', async () => {
    const { campaignId, ids } = await notices(2, (i) =>
      i === 1
        ? { custName: '=HYPERLINK("http://evil","x")', remark: '+1+1', modeOfDispatch: 'email' }
        : { modeOfDispatch: 'email' },
    );
    await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/send-mail',
      headers: asha.headers,
      payload: { data: ids, type: 'notice' },
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/export-reports/notice?campaignid=${campaignId}`,
      headers: asha.headers,
    });
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    expect(header.slice(0, 2)).toEqual(['Loan No.', 'Customer Name']);
    expect(header).toEqual(
      expect.arrayContaining(['Email Status', 'Email Message Id', 'Email PDF SHA-256', 'WhatsApp Status']),
    );
    const rows = [2, 3].map((r) =>
      Object.fromEntries(header.map((h, c) => [h, String(sheet.getRow(r).getCell(c + 1).value ?? '')])),
    );
    expect(rows[0]).toMatchObject({
      'Loan No.': 'loanNo-0',
      'Email Status': 'outbox',
      'WhatsApp Status': 'not sent',
    });
    expect(rows[0]!['Email PDF SHA-256']).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[1]!['Customer Name']).toBe(`'=HYPERLINK("http://evil","x")`);
    expect(rows[1]!['Remark']).toBe("'+1+1");
  });

  it('reports fields holding characters XML forbids as U+FFFD, in a file whose every XML part is well-formed', async () => {
    const hostile: Record<string, [sent: string, shown: string]> = {
      custName: ['Asha\uFFFERao', 'Asha\uFFFDRao'],
      address: ['12\uFFFF MG Road\uFDD0', '12\uFFFD MG Road\uFFFD'],
      remark: ['a\u0001b\u0008c\u000Bd\u000Ce\u001Ff', 'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf'],
      state: ['\u007FKA\u{10FFFF}', '\uFFFDKA\uFFFD'],
      legalManager: ['Line one\nLine\ttwo', 'Line one\nLine\ttwo'],
      zipCode: ['आशा 😀', 'आशा 😀'],
    };
    const { campaignId } = await notices(1, () =>
      Object.fromEntries(Object.entries(hostile).map(([key, [sent]]) => [key, sent])),
    );
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/export-reports/notice?campaignid=${campaignId}`,
      headers: asha.headers,
    });
    expect(res.statusCode).toBe(200);
    const parts = await strictXmlParts(res.rawPayload);
    expect(parts.map((p) => p.name)).toEqual(expect.arrayContaining(['xl/worksheets/sheet1.xml']));
    const sheetText = parts.find((p) => p.name === 'xl/worksheets/sheet1.xml')!.text;
    for (const [, shown] of Object.values(hostile)) expect(sheetText).toContain(shown);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    for (const [key, [, shown]] of Object.entries(hostile)) {
      const label = noticeKind.fields.find((f) => f.key === key)!.label;
      expect(String(sheet.getRow(2).getCell(header.indexOf(label) + 1).value), key).toBe(shown);
    }
  });
});

describe('report times', () => {
  /** The report's header and its second row, cell objects by header. */
  async function reportOf(app: TestApp, who: SignedIn, campaignId: string) {
    const res = await app.app.inject({
      method: 'GET',
      url: `/api/campaigns/export-reports/notice?campaignid=${campaignId}`,
      headers: who.headers,
    });
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    return { header, cell: (name: string) => sheet.getRow(2).getCell(header.indexOf(name) + 1) };
  }

  it('are date cells of the time in TIME_ZONE, dd-mm-yyyy hh:mm:ss under en-IN, the zone in the header', async () => {
    const { campaignId, ids } = await notices(1, () => ({ modeOfDispatch: 'email' }));
    const before = Date.now();
    await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/send-mail',
      headers: asha.headers,
      payload: { data: ids, type: 'notice' },
    });
    const after = Date.now();
    const { header, cell } = await reportOf(t, asha, campaignId);
    expect(header).toEqual(
      expect.arrayContaining(['Email Time (Asia/Kolkata)', 'WhatsApp Time (Asia/Kolkata)']),
    );
    const time = cell('Email Time (Asia/Kolkata)');
    expect(time.numFmt).toBe('dd-mm-yyyy hh:mm:ss');
    // Excel keeps no zone: the cell holds India's wall-clock time, 5 h 30 min ahead of UTC.
    expect(time.value).toBeInstanceOf(Date);
    const shown = (time.value as Date).getTime() - 5.5 * 3600_000;
    expect(shown).toBeGreaterThanOrEqual(before - 1000);
    expect(shown).toBeLessThanOrEqual(after + 1000);
    expect(cell('WhatsApp Time (Asia/Kolkata)').value ?? '').toBe('');
  });

  it('follow TIME_ZONE and LOCALE when they are set', async () => {
    const other = await createTestApp({ TIME_ZONE: 'UTC', LOCALE: 'en-US' });
    try {
      const ravi = await signUp(other.app, 'ravi-utc');
      const created = (
        await other.app.inject({
          method: 'POST',
          url: '/api/notices',
          headers: ravi.headers,
          payload: {
            ...Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-0`])),
            emailId: 'c0@example.com',
            modeOfDispatch: 'email',
          },
        })
      ).json();
      const before = Date.now();
      await other.app.inject({
        method: 'POST',
        url: '/api/campaigns/send-mail',
        headers: ravi.headers,
        payload: { data: [created._id], type: 'notice' },
      });
      const { cell } = await reportOf(other, ravi, created.campaignId);
      const time = cell('Email Time (UTC)');
      expect(time.numFmt).toBe('m/d/yyyy h:mm:ss');
      expect(Math.abs((time.value as Date).getTime() - before)).toBeLessThan(60_000);
    } finally {
      await other.close();
    }
  });
});

describe('dashboard', () => {
  it('answers the caller’s totals and latest deliveries', async () => {
    const { ids } = await notices(2, () => ({ modeOfDispatch: 'email' }));
    await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/send-mail',
      headers: asha.headers,
      payload: { data: ids, type: 'notice' },
    });
    const info = (await t.app.inject({ method: 'GET', url: '/api/dashboard', headers: asha.headers })).json();
    expect(info).toMatchObject({
      totalCreditCards: 0,
      totalNotices: 2,
      totalCreditCardCampaigns: 0,
      totalNoticeCampaigns: 1,
    });
    expect(info.mailInfo).toHaveLength(2);
    expect(info.mailInfo[0]).toMatchObject({
      name: expect.stringMatching(/^custName-\d$/),
      status: 'outbox',
      channel: 'email',
    });
    const theirs = (
      await t.app.inject({ method: 'GET', url: '/api/dashboard', headers: ravi.headers })
    ).json();
    expect(theirs).toMatchObject({ totalNotices: 0, mailInfo: [] });
  });
});
