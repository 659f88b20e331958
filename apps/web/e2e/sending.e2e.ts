import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpListener, startWhatsappPeer } from '../../server/src/test/peers.ts';
import { createAccount, signedInContext } from './accounts.ts';
import { downloadedBytes, launchBrowser, startProduct, watchForSurprises } from './harness.ts';
import { importNoticesOverApi, noticeWorkbook } from './import-files.ts';

const NOTICES = 25;
const TAG = 'send';

let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let whatsapp: Awaited<ReturnType<typeof startWhatsappPeer>>;
let product: Awaited<ReturnType<typeof startProduct>>;
let browser: Browser;

beforeAll(async () => {
  [smtp, whatsapp, browser] = await Promise.all([startSmtpListener(), startWhatsappPeer(), launchBrowser()]);
  product = await startProduct({
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: whatsapp.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    // Free-form document messages: the approved-template path has its own server tests against the peer.
    WHATSAPP_MODE: 'session',
  });
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
  await smtp?.close();
  await whatsapp?.close();
});

const toast = (page: Page, text: string, timeout?: number) =>
  page.getByRole('status').filter({ hasText: text }).waitFor({ timeout });

/** Clicks `button` and answers the first bytes of the file the page saves. */
async function downloadBy(
  page: Page,
  click: () => Promise<void>,
): Promise<{ file: Download; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), click()]);
  return { file, bytes: await downloadedBytes(file) };
}

/** Email Status and WhatsApp Status of every row on the page. */
/** The records table's status cells (the funnel above it is a table of its own). */
const statuses = (page: Page) =>
  page
    .locator('table', { has: page.getByRole('columnheader', { name: 'Email Status' }) })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [
        (row as HTMLTableRowElement).cells[4]?.textContent,
        (row as HTMLTableRowElement).cells[5]?.textContent,
      ]),
    );

describe('Sending notices (issue 6)', () => {
  it('sends 25 imported notices by e-mail and WhatsApp from the campaign page, then exports them', async () => {
    const account = await createAccount(product.baseUrl, 'sender');
    const workbook = await noticeWorkbook(NOTICES, TAG, (key, n) => {
      if (key === 'emailId') return `customer${n}@example.com`;
      if (key === 'custMobileNo') return `98765000${String(n).padStart(2, '0')}`;
      if (key === 'modeOfDispatch') return 'Email and WhatsApp';
      return undefined;
    });
    const campaignId = await importNoticesOverApi(product.baseUrl, account, workbook, 'April notices');
    const context = await signedInContext(browser, product.baseUrl, account);
    const page = await context.newPage();
    const surprises = watchForSurprises(page);

    await page.goto(`/campaign/notice/${campaignId}`);
    await page.getByRole('heading', { level: 1, name: 'April notices' }).waitFor();
    await page.getByText(`Showing 1 to ${NOTICES} of ${NOTICES} entries`).waitFor();
    expect(new Set((await statuses(page)).flat())).toEqual(new Set(['-']));

    await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
    await page.getByRole('button', { name: 'Send Notice' }).click();
    const bar = page.getByRole('progressbar', { name: 'Import File Progress Bar' });
    await bar.waitFor();
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(10);
    await toast(page, 'Send Mail Successfully.', 45_000);
    expect(await bar.getAttribute('aria-valuenow')).toBe('100');
    await expect
      .poll(() => statuses(page), { timeout: 10_000 })
      .toEqual(Array.from({ length: NOTICES }, () => ['Sent', 'Sent']));
    // Every message went out, so there is nothing to sum up; the bar goes 5 s after the toast.
    expect(await page.getByText('see the statuses').count()).toBe(0);
    await bar.waitFor({ state: 'detached', timeout: 10_000 });

    expect(smtp.mails).toHaveLength(NOTICES);
    for (let n = 1; n <= NOTICES; n += 1) {
      const mail = smtp.mails.find(({ to }) => to.includes(`customer${n}@example.com`));
      expect(mail, `mail to customer ${n}`).toBeDefined();
      expect(mail!.raw).toContain('application/pdf');
      expect(mail!.raw).toContain(`LN-${TAG}-${n} Customer ${n}.pdf`);
    }
    expect(whatsapp.messages).toHaveLength(NOTICES);
    expect(new Set(whatsapp.messages.map(({ to }) => to)).size).toBe(NOTICES);
    expect(whatsapp.messages.map(({ to }) => to)).toContain('919876500001');

    const report = await downloadBy(page, () => page.getByRole('button', { name: 'Export Reports' }).click());
    expect(report.file.suggestedFilename()).toMatch(/\.xlsx$/);
    expect(report.bytes.length).toBeGreaterThan(0);
    expect(report.bytes.subarray(0, 2).toString('latin1')).toBe('PK');

    await page.goto('/campaign/notice');
    await page.getByRole('link', { name: 'April notices' }).waitFor();
    const zip = await downloadBy(page, () =>
      page.getByRole('button', { name: 'Export April notices' }).click(),
    );
    expect(zip.file.suggestedFilename()).toMatch(/\.zip$/);
    expect(zip.bytes.length).toBeGreaterThan(0);
    expect(zip.bytes.subarray(0, 2).toString('latin1')).toBe('PK');

    await page.goto('/');
    await page.getByRole('heading', { level: 2, name: 'Mails Details' }).waitFor();
    await page.getByRole('link', { name: `${NOTICES} Notices` }).waitFor();
    const mailRows = page.getByRole('region', { name: 'Mails Details table' }).locator('tbody tr');
    // Mails Details pages by 20: the pager counting every mail and message, then the first page
    // (counted once the pager shows: the rows arrive with it, after the links above).
    await page.getByText(`Showing 1 to 20 of ${NOTICES * 2} entries`).waitFor();
    expect(await mailRows.count()).toBe(Math.min(NOTICES * 2, 20));
    expect(await mailRows.first().getByRole('cell').nth(4).textContent()).toBe('Sent');

    expect(surprises).toEqual([]);
    await context.close();
  });
});
