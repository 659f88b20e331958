import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noticeFields } from '@notice-desk/contract/notice';
import { startSmtpListener, startWhatsappPeer } from '../../server/src/test/peers.ts';
import { createAccount, createRecord, signedInContext, type Account } from './accounts.ts';
import { launchBrowser, startProduct, watchForSurprises } from './harness.ts';

/**
 * Issue 28: the campaign page counts the records whose address cannot be served, and a send over
 * BULK_SEND_CONFIRM_THRESHOLD (2 here) asks first with the counts per channel and offers a test send
 * that is not recorded as service. At 1440 and 390 px; pictures go where the README's do.
 */
const SCREENSHOTS = path.resolve(import.meta.dirname, 'screenshots/readme');

let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let whatsapp: Awaited<ReturnType<typeof startWhatsappPeer>>;
let product: Awaited<ReturnType<typeof startProduct>>;
let browser: Browser;
let account: Account;
let campaignId = '';

async function notice(name: string, loanNo: string, emailId: string) {
  const fields = Object.fromEntries(noticeFields.map((f) => [f.key, `${f.key}-${loanNo}`]));
  return createRecord(product.baseUrl, account, '/api/notices', {
    ...fields,
    custName: name,
    loanNo,
    emailId,
    custMobileNo: '9876500001',
    modeOfDispatch: 'Email',
  });
}

beforeAll(async () => {
  [smtp, whatsapp, browser] = await Promise.all([startSmtpListener(), startWhatsappPeer(), launchBrowser()]);
  product = await startProduct({
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: whatsapp.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_MODE: 'session',
    BULK_SEND_CONFIRM_THRESHOLD: '2',
  });
  account = await createAccount(product.baseUrl, 'confirmer');
  const records = [
    await notice('Ravi Kumar', 'LN300001', 'ravi@example.com'),
    await notice('Meena Shah', 'LN300002', 'cust23@@example'),
    await notice('Arjun Nair', 'LN300003', 'arjun@example.com'),
  ];
  campaignId = records[0]!.campaignId!;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
  await smtp?.close();
  await whatsapp?.close();
});

async function campaignPage(viewport: {
  width: number;
  height: number;
}): Promise<{ page: Page; surprises: string[] }> {
  const context = await signedInContext(browser, product.baseUrl, account, { viewport });
  const page = await context.newPage();
  const surprises = watchForSurprises(page);
  await page.goto(`/campaign/notice/${campaignId}`);
  await page.getByText('Not serviceable by e-mail').waitFor();
  return { page, surprises };
}

async function openConfirmation(page: Page) {
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('button', { name: 'Send Notice' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send notices for 3 records?' });
  await dialog.waitFor();
  return dialog;
}

describe('the pre-send confirmation (issue 28)', () => {
  it('at 1440 px: counts the not serviceable, asks with the counts per channel, test-sends, then sends leaving one out', async () => {
    const { page, surprises } = await campaignPage({ width: 1440, height: 900 });
    expect(await page.getByLabel('Not serviceable', { exact: true }).textContent()).toMatch(
      /Not serviceable by e-mail 1.*Not serviceable by WhatsApp 0/,
    );
    const dialog = await openConfirmation(page);
    const email = dialog.getByRole('row', { name: /E-mail/ });
    expect(await email.getByRole('cell').allTextContents()).toEqual(['2', '1', '0', '0']);

    await dialog.getByLabel('E-mail address').fill('colleague@example');
    await dialog.getByText('Not serviceable: no dot in the domain.').waitFor();
    await dialog.getByLabel('E-mail address').fill('colleague@example.com');
    await dialog.getByRole('button', { name: 'Send test' }).click();
    await dialog.getByText('Test sent by e-mail to colleague@example.com.').waitFor();
    expect(smtp.mails.map((m) => m.to[0])).toEqual(['colleague@example.com']);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'send-confirm-1440.png') });

    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await page
      .getByText(/Sent 2; 1 left out: the address is not serviceable/)
      .first()
      .waitFor();
    expect(smtp.mails.map((m) => m.to[0]).sort()).toEqual([
      'arjun@example.com',
      'colleague@example.com',
      'ravi@example.com',
    ]);
    const meena = page.getByRole('row', { name: /Meena Shah/ });
    await meena.getByText('Not serviceable').first().waitFor();
    expect(surprises).toEqual([]);
  });

  it('at 390 px: the confirmation fits the phone', async () => {
    const { page, surprises } = await campaignPage({ width: 390, height: 844 });
    const dialog = await openConfirmation(page);
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    // Every column of the counts shows within the dialog.
    const table = await dialog.getByRole('table').boundingBox();
    expect(table!.x + table!.width).toBeLessThanOrEqual(box!.x + box!.width);
    const lastHeader = await dialog.getByRole('columnheader', { name: 'Sent before' }).boundingBox();
    expect(lastHeader!.x + lastHeader!.width).toBeLessThanOrEqual(box!.x + box!.width);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'send-confirm-390.png') });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(surprises).toEqual([]);
  });
});
