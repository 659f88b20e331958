import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditCardSteps } from '@notice-desk/contract/credit-card';
import { noticeFields } from '@notice-desk/contract/notice';
import { createRecord, openAsNewAccount } from './accounts.ts';
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

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

describe('list search and wizard safety (issue 17)', () => {
  it("finds a record beyond the first page through the list's Search... box, and says what found nothing", async () => {
    const { account, context, page, surprises } = await openAsNewAccount(browser, product.baseUrl, 'search');
    const notice = (custName: string) => ({
      ...Object.fromEntries(noticeFields.map(({ key }) => [key, `${key} x`])),
      custName,
    });
    // Ravi is the oldest of 14: the first page of 10 does not show him.
    await createRecord(product.baseUrl, account, '/api/notices', notice('Ravi Kumar'));
    for (let i = 1; i <= 13; i += 1)
      await createRecord(product.baseUrl, account, '/api/notices', notice(`Asha ${i}`));

    await page.goto('/forms/notice');
    await page.getByText('Showing 1 to 10 of 14 entries').waitFor();
    expect(await rowOf(page, 'Ravi Kumar').count()).toBe(0);

    const search = page.getByRole('searchbox', { name: 'Search notices' });
    await search.fill('Ravi');
    await rowOf(page, 'Ravi Kumar').waitFor();
    await page.getByText('Showing 1 to 1 of 1 entries').waitFor();

    await search.fill('Nobody');
    await page.getByText('No records found for "Nobody".').waitFor();
    await page.getByText('Showing 0 to 0 of 0 entries').waitFor();
    expect(surprises).toEqual([]);
    await context.close();
  });

  it('asks before a wizard is left with unsaved changes, and its date picker writes the stored text', async () => {
    const { context, page, surprises } = await openAsNewAccount(browser, product.baseUrl, 'wizard');
    await page.goto('/forms/credit-card/add-credit-card');
    for (const { key, label } of creditCardSteps[0]) await field(page, label).fill(`${key} typed`);
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByLabel('Camp Date: pick a date').fill('2024-05-12');
    expect(await field(page, 'Camp Date').inputValue()).toBe('12.05.2024');

    await page.getByRole('link', { name: 'Cancel' }).click();
    const leave = page.getByRole('dialog', { name: /Leave this form\?/ });
    await leave.getByRole('button', { name: 'Stay' }).click();
    await leave.waitFor({ state: 'hidden' });
    expect(await field(page, 'Camp Date').inputValue()).toBe('12.05.2024');

    await page.getByRole('link', { name: 'Cancel' }).click();
    await leave.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL('**/forms/credit-card');
    expect(surprises).toEqual([]);
    await context.close();
  });
});
