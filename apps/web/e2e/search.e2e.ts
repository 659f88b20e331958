import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditCardFields } from '@notice-desk/contract/credit-card';
import { noticeFields } from '@notice-desk/contract/notice';
import type { FieldDefinition } from '@notice-desk/contract/record-fields';
import { createAccount, createRecord, openAsNewAccount } from './accounts.ts';
import { launchBrowser, startProduct } from './harness.ts';

let product: Awaited<ReturnType<typeof startProduct>>;
let browser: Browser;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const sample = (fields: readonly FieldDefinition[], tag: string, overrides: Record<string, string>) => ({
  ...Object.fromEntries(fields.map(({ key }) => [key, `${key} ${tag}`])),
  ...overrides,
});

const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search' });
const results = (page: Page) => page.getByRole('listbox', { name: 'Search results' }).getByRole('option');

describe('header search', () => {
  it('finds a notice by a word of the name as it is typed, and Enter opens it', async () => {
    const { account, context, page, surprises } = await openAsNewAccount(browser, product.baseUrl, 'search');
    const notice = await createRecord(
      product.baseUrl,
      account,
      '/api/notices',
      sample(noticeFields, 'A', { custName: 'Ravi Kumar', loanNo: 'LN-4242' }),
    );
    await createRecord(
      product.baseUrl,
      account,
      '/api/notices',
      sample(noticeFields, 'B', { custName: 'Asha Rao', loanNo: 'LN-5151' }),
    );
    // Someone else's namesake never shows.
    const other = await createAccount(product.baseUrl, 'other');
    await createRecord(
      product.baseUrl,
      other,
      '/api/notices',
      sample(noticeFields, 'C', { custName: 'Ravi Kumar', loanNo: 'LN-4243' }),
    );

    await page.goto('/');
    await searchBox(page).click();
    await searchBox(page).pressSequentially('kum');
    await results(page).first().waitFor();
    expect(await results(page).allTextContents()).toEqual(['Ravi KumarNoticeCampaign: Manual entries']);
    expect(await searchBox(page).getAttribute('aria-expanded')).toBe('true');

    await page.keyboard.press('Enter');
    await page.waitForURL(`**/forms/notice/edit-notice/${notice._id}`);
    await page.getByRole('heading', { level: 1, name: 'Edit Notice' }).waitFor();
    await expect
      .poll(() => page.getByLabel('Customer Name', { exact: true }).inputValue())
      .toBe('Ravi Kumar');
    expect(await searchBox(page).inputValue()).toBe('');
    expect(surprises).toEqual([]);
    await context.close();
  });

  it('finds a credit card by its mobile number typed with +91, chosen with the arrow keys', async () => {
    const { account, context, page, surprises } = await openAsNewAccount(browser, product.baseUrl, 'mobile');
    await createRecord(
      product.baseUrl,
      account,
      '/api/credit-cards',
      sample(creditCardFields, 'A', { custName: 'Meena Das', custMobileNo: '9845012345' }),
    );
    const card = await createRecord(
      product.baseUrl,
      account,
      '/api/credit-cards',
      sample(creditCardFields, 'B', { custName: '<b>Sunil</b> Shah', custMobileNo: '98450 99999' }),
    );

    await page.goto('/forms/credit-card');
    await searchBox(page).fill('+91 98450');
    await expect.poll(() => results(page).count()).toBe(2);
    await searchBox(page).press('ArrowDown');
    const active = await searchBox(page).getAttribute('aria-activedescendant');
    expect(await page.locator(`[id="${active}"]`).textContent()).toBe(
      '<b>Sunil</b> ShahCredit card · Mobile 98450 99999Campaign: Manual entries',
    );
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/forms/credit-card/edit-credit-card/${card._id}`);

    await searchBox(page).fill('zzzz');
    await page.getByText('No matching records').waitFor();
    expect(surprises).toEqual([]);
    await context.close();
  });
});
