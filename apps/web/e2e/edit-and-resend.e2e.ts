import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noticeFields } from '@notice-desk/contract/notice';
import { startSmtpListener, startWhatsappPeer } from '../../server/src/test/peers.ts';
import { createAccount, createRecord, signedInContext, type Account } from './accounts.ts';
import { launchBrowser, startProduct, watchForSurprises } from './harness.ts';

/**
 * Issue 28, "Failed rows lead somewhere": a failed row shows where it went and why, Edit and resend fixes
 * the address and resends on that channel, and 'Resend failed' tells how many still have the address
 * that failed. At 1440 and 390 px. Pictures go where the README's do (`npm run docs` copies them).
 */
const SCREENSHOTS = path.resolve(import.meta.dirname, 'screenshots/readme');
const REFUSED = 'refused@example.com';

let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let whatsapp: Awaited<ReturnType<typeof startWhatsappPeer>>;
let product: Awaited<ReturnType<typeof startProduct>>;
let browser: Browser;
let account: Account;
let campaignId = '';

async function notice(name: string, loanNo: string) {
  const fields = Object.fromEntries(noticeFields.map((f) => [f.key, `${f.key}-${loanNo}`]));
  return createRecord(product.baseUrl, account, '/api/notices', {
    ...fields,
    custName: name,
    loanNo,
    emailId: REFUSED,
    custMobileNo: '9876500001',
    modeOfDispatch: 'Email',
  });
}

beforeAll(async () => {
  [smtp, whatsapp, browser] = await Promise.all([
    startSmtpListener({ rejectTo: [REFUSED] }),
    startWhatsappPeer(),
    launchBrowser(),
  ]);
  product = await startProduct({
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: whatsapp.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_MODE: 'session',
  });
  account = await createAccount(product.baseUrl, 'resender');
  const records = [
    await notice('Meena Shah', 'LN200001'),
    await notice('Ravi Kumar', 'LN200002'),
    await notice('Arjun Nair', 'LN200003'),
  ];
  campaignId = records[0]!.campaignId!;
  const sent = await fetch(`${product.baseUrl}/api/campaigns/send-mail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${account.token}` },
    body: JSON.stringify({ type: 'notice', data: records.map((r) => r._id), confirmBounced: true }),
  });
  expect(await sent.json()).toMatchObject({ failed: 3 });
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
  await page.getByRole('heading', { level: 2, name: 'Failed rows' }).waitFor();
  return { page, surprises };
}

const failedRow = (page: Page, loanNo: string) =>
  page.getByRole('list', { name: 'Failed rows' }).getByRole('listitem').filter({ hasText: loanNo });

const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).waitFor();

describe('Edit and resend (issue 28)', () => {
  it('at 1440 px: shows each failed row, tells Resend failed how many are unchanged, and fixes one in one step', async () => {
    const { page, surprises } = await campaignPage({ width: 1440, height: 900 });
    const row = failedRow(page, 'LN200001');
    await row.waitFor();
    expect(await row.textContent()).toContain(REFUSED);
    expect(await row.textContent()).toMatch(/mail server refused/i);
    await page.getByText('3 failed rows; 3 still have the address that failed.').waitFor();

    await page.getByRole('button', { name: 'Resend failed' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('3 of the failed rows still have the address that failed').waitFor();
    await dialog.getByRole('button', { name: 'Show them first' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.locator('#failed-rows select').inputValue()).toBe('unchanged');

    await row.getByRole('button', { name: /Edit and resend/ }).click();
    const form = row.getByRole('form', { name: 'Edit and resend' });
    await form.getByLabel('E-mail').fill('meena@example');
    await form.getByRole('button', { name: 'Save and resend by E-mail' }).click();
    await form.getByText(/Cannot send here: no dot in the domain/).waitFor();
    await form.getByLabel('E-mail').fill('meena.shah@example.com');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'edit-and-resend.png') });
    await form.getByRole('button', { name: 'Save and resend by E-mail' }).click();
    await toast(page, 'Saved and resent by e-mail.');
    await row.waitFor({ state: 'detached' });
    expect(smtp.mails.map((m) => m.to[0])).toContain('meena.shah@example.com');
    await page.getByText('2 failed rows; 2 still have the address that failed.').waitFor();
    expect(surprises).toEqual([]);
  });

  it('at 390 px: the same form works on a phone', async () => {
    const { page, surprises } = await campaignPage({ width: 390, height: 844 });
    const row = failedRow(page, 'LN200002');
    await row.getByRole('button', { name: /Edit and resend/ }).click();
    const form = row.getByRole('form', { name: 'Edit and resend' });
    await form.getByLabel('E-mail').fill('ravi.kumar@example.com');
    const save = form.getByRole('button', { name: 'Save and resend by E-mail' });
    await save.scrollIntoViewIfNeeded();
    // Nothing of the form runs off a phone's screen.
    const box = await save.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'phone-edit-and-resend.png') });
    await save.click();
    await toast(page, 'Saved and resent by e-mail.');
    await row.waitFor({ state: 'detached' });
    expect(smtp.mails.map((m) => m.to[0])).toContain('ravi.kumar@example.com');
    expect(surprises).toEqual([]);
  });
});
