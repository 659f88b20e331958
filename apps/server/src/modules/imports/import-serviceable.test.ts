import type { ImportPreview, ImportProgress } from '@notice-desk/contract/imports';
import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, uploadFile, type SignedIn, type TestApp } from '../../test/app.ts';
import { importReportLines } from '../../test/xlsx.ts';

/**
 * Issue 28, "Addresses checked before they fail": the Review mapping and the row report flag rows whose
 * e-mail or mobile cannot be served, with the counts; the record still imports.
 */
let t: TestApp;
let who: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  who = await signUp(t.app, 'serviceable');
});
afterAll(() => t.close());

const row = (loanNo: string, overrides: Record<string, string>) => {
  const values: Record<string, string> = {
    loanNo,
    emailId: `${loanNo.toLowerCase()}@example.com`,
    custMobileNo: '9876543210',
    modeOfDispatch: 'Email and WhatsApp',
    language: 'English',
    ...overrides,
  };
  return noticeFields.map((f) => values[f.key] ?? `${f.key}-${loanNo}`);
};

const csv = (rows: string[][]) =>
  Buffer.from(
    [noticeFields.map((f) => f.label), ...rows]
      .map((cells) => cells.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(','))
      .join('\r\n'),
  );

const sheet = csv([
  row('SV-1', {}),
  row('SV-2', { emailId: 'cust23@@example' }),
  row('SV-3', { custMobileNo: '98765' }),
  // WhatsApp only: its e-mail is not asked about.
  row('SV-4', { emailId: 'not an address', modeOfDispatch: 'WhatsApp' }),
  row('SV-5', { emailId: 'cust 5@example.com', custMobileNo: '+91 58765 43210' }),
]);

describe('addresses that cannot be served, at import', () => {
  it('are counted and listed per row in the Review mapping', async () => {
    const stored = await uploadFile(t.app, who, 'addresses.csv', sheet);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/imports/uploads/${stored}/preview?kind=notice`,
      headers: who.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json<ImportPreview>();
    expect(preview.problemRows).toBe(0);
    expect(preview.notServiceable).toEqual({
      email: 2,
      whatsapp: 2,
      rows: [
        { rowNumber: 3, channel: 'email', reason: 'more than one @' },
        { rowNumber: 4, channel: 'whatsapp', reason: 'not a mobile number (too short or too long)' },
        { rowNumber: 6, channel: 'email', reason: 'the address contains a space' },
        { rowNumber: 6, channel: 'whatsapp', reason: 'an Indian mobile number starts with 6, 7, 8 or 9' },
      ],
    });
    // Each distinct Mode Of Dispatch, most rows first, as it was understood (issue 31).
    expect(preview.dispatchModes).toEqual([
      {
        value: 'Email and WhatsApp',
        channels: ['email', 'whatsapp'],
        unknown: [],
        reading: 'E-mail + WhatsApp',
        rows: 4,
      },
      { value: 'WhatsApp', channels: ['whatsapp'], unknown: [], reading: 'WhatsApp', rows: 1 },
    ]);
  });

  it('imports every row, counts them, and says why in the row report', async () => {
    const stored = await uploadFile(t.app, who, 'addresses.csv', sheet);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/notices/upload-notice-info',
      headers: who.headers,
      payload: { file: stored, name: 'addresses' },
    });
    expect(started.statusCode, started.body).toBe(202);
    const jobId = started.json<{ jobId: string }>().jobId;
    let progress: ImportProgress = { progressPercentage: null };
    for (let i = 0; i < 400 && progress.status !== 'done' && progress.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      progress = (
        await t.app.inject({
          method: 'GET',
          url: '/api/notices/by-user-id/progress-count',
          headers: who.headers,
        })
      ).json<ImportProgress>();
    }
    expect(progress).toMatchObject({
      status: 'done',
      imported: 5,
      skipped: 0,
      notServiceable: { email: 2, whatsapp: 2 },
    });
    const lines = await importReportLines(t.app, who, jobId, { withServiceNotes: true });
    expect(lines).toEqual(
      expect.arrayContaining([
        [
          '3',
          'Mail Id',
          'Imported, but not serviceable by e-mail: more than one @. Correct it before sending, or the send leaves it out.',
        ],
        [
          '4',
          'Customer Mob No',
          'Imported, but not serviceable by WhatsApp: not a mobile number (too short or too long). Correct it before sending, or the send leaves it out.',
        ],
      ]),
    );
    expect(lines.filter((line) => line[0] === '2' || line[0] === '5')).toEqual([]);
  });
});
