import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditCardFields, creditCardSteps } from '@notice-desk/contract/credit-card';
import { noticeFields, noticeSteps } from '@notice-desk/contract/notice';
import type { FieldDefinition } from '@notice-desk/contract/record-fields';
import { createRecord, openAsNewAccount, type Account } from './accounts.ts';
import { launchBrowser, startProduct } from './harness.ts';

dayjs.extend(advancedFormat);

let product: Awaited<ReturnType<typeof startProduct>>;
let browser: Browser;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const openAs = (prefix: string) => openAsNewAccount(browser, product.baseUrl, prefix);

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function fillStep(page: Page, fields: readonly FieldDefinition[], values: Record<string, string>) {
  for (const { key, label } of fields) await field(page, label).fill(values[key] ?? '');
}

const headers = (page: Page) => page.getByRole('columnheader').allTextContents();
const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });
const cellsOf = async (page: Page, name: string) => rowOf(page, name).getByRole('cell').allTextContents();
const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).waitFor();
const stepText = (page: Page, text: string) =>
  page.getByText(text, { exact: true }).waitFor({ state: 'attached' });

const sample = (fields: readonly FieldDefinition[], tag: string, overrides: Record<string, string> = {}) => ({
  ...Object.fromEntries(fields.map(({ key }) => [key, `${key} ${tag}`])),
  ...overrides,
});

describe('credit-card and notice records (issue 3)', () => {
  it('adds a credit card through 3 steps and edits it', async () => {
    const { context, page, surprises } = await openAs('cards');
    await page.goto('/forms/credit-card');
    await page.getByRole('heading', { level: 1, name: 'Credit Card' }).waitFor();
    await page.getByText('No records found.').waitFor();
    expect(await headers(page)).toEqual([
      'No.',
      'Arqn Name',
      'Notice Balance',
      'Maskcard',
      'Campaign',
      'Date',
      'Action',
    ]);

    await page.getByRole('link', { name: 'Add Credit Card' }).click();
    await page.waitForURL('**/forms/credit-card/add-credit-card');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Hub is required!!').waitFor();
    await stepText(page, 'Step 1 of 3');

    const values = sample(creditCardFields, 'A', {
      custName: 'Asha Rao',
      noticeBalance: '15000',
      maskNo: 'XXXX-1111',
      campDate: '12.05.2024',
    });
    const [step1, step2, step3] = creditCardSteps;
    await fillStep(page, step1, values);
    await page.getByRole('button', { name: 'Next' }).click();
    await stepText(page, 'Step 2 of 3');
    await fillStep(page, step2, values);
    await page.getByRole('button', { name: 'Next' }).click();
    await stepText(page, 'Step 3 of 3');
    await fillStep(page, step3, values);
    await page.getByRole('button', { name: 'Submit' }).click();

    await toast(page, 'Credit Card Created Successfully.');
    await page.waitForURL('**/forms/credit-card');
    await rowOf(page, 'Asha Rao').waitFor();
    expect((await cellsOf(page, 'Asha Rao')).slice(0, 6)).toEqual([
      '1',
      'Asha Rao',
      '15000',
      'XXXX-1111',
      'Manual entries',
      '12-05.2024',
    ]);

    await page.getByRole('link', { name: 'Edit Asha Rao' }).click();
    await page.waitForURL('**/forms/credit-card/edit-credit-card/*');
    await page.getByRole('heading', { level: 1, name: 'Edit Credit Card' }).waitFor();
    await expect.poll(() => field(page, 'Customer Name').inputValue()).toBe('Asha Rao');
    expect(await field(page, 'Hub').inputValue()).toBe('hub A');
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await field(page, 'Camp Date').inputValue()).toBe('12.05.2024');
    await field(page, 'Notice Balance').fill('17500');
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await field(page, 'Reference No').inputValue()).toBe('referenceNo A');
    await page.getByRole('button', { name: 'Submit' }).click();

    await toast(page, 'Credit Card Updated Successfully.');
    await page.waitForURL('**/forms/credit-card');
    await expect.poll(async () => (await cellsOf(page, 'Asha Rao'))[2]).toBe('17500');
    expect(surprises).toEqual([]);
    await context.close();
  });

  it('adds a notice through 4 steps, keeping values across Previous, and edits it', async () => {
    const { context, page, surprises } = await openAs('notices');
    await page.goto('/forms/notice');
    await page.getByRole('heading', { level: 1, name: 'Notice Concialation' }).waitFor();
    expect(await headers(page)).toEqual([
      'No.',
      'Name',
      'Mobile No.',
      'Loan No.',
      'Campaign',
      'Date',
      'Action',
    ]);

    await page.getByRole('link', { name: 'Add Notice' }).click();
    await page.waitForURL('**/forms/notice/add-notice');
    const values = sample(noticeFields, 'B', {
      custName: 'Ravi Kumar',
      custMobileNo: '9800000001',
      loanNo: 'LN-42',
    });
    const [step1, step2, step3, step4] = noticeSteps;

    await fillStep(page, step1, values);
    await page.getByRole('button', { name: 'Next' }).click();
    await stepText(page, 'Step 2 of 4');
    await fillStep(page, step2, values);
    await page.getByRole('button', { name: 'Previous' }).click();
    await stepText(page, 'Step 1 of 4');
    for (const { key, label } of step1) expect(await field(page, label).inputValue()).toBe(values[key]);
    await page.getByRole('button', { name: 'Next' }).click();
    for (const { key, label } of step2) expect(await field(page, label).inputValue()).toBe(values[key]);
    await page.getByRole('button', { name: 'Next' }).click();
    await stepText(page, 'Step 3 of 4');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('City is required!!').waitFor();
    await fillStep(page, step3, values);
    await page.getByRole('button', { name: 'Next' }).click();
    await stepText(page, 'Step 4 of 4');
    await fillStep(page, step4, values);
    await page.getByRole('button', { name: 'Submit' }).click();

    await toast(page, 'Notice Created Successfully.');
    await page.waitForURL('**/forms/notice');
    await rowOf(page, 'Ravi Kumar').waitFor();
    const today = dayjs().format('MMM Do YY');
    expect((await cellsOf(page, 'Ravi Kumar')).slice(0, 6)).toEqual([
      '1',
      'Ravi Kumar',
      '9800000001',
      'LN-42',
      'Manual entries',
      today,
    ]);

    await page.getByRole('link', { name: 'Edit Ravi Kumar' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Notice' }).waitFor();
    await expect.poll(() => field(page, 'Loan No.').inputValue()).toBe('LN-42');
    for (let step = 2; step <= 4; step += 1) await page.getByRole('button', { name: 'Next' }).click();
    await stepText(page, 'Step 4 of 4');
    expect(await field(page, 'Remark').inputValue()).toBe('remark B');
    await field(page, 'Customer Mob No').fill('9811111111');
    await page.getByRole('button', { name: 'Submit' }).click();

    await toast(page, 'Notice Updated Successfully.');
    await page.waitForURL('**/forms/notice');
    await expect.poll(async () => (await cellsOf(page, 'Ravi Kumar'))[2]).toBe('9811111111');
    expect(surprises).toEqual([]);
    await context.close();
  });

  it('deletes one record, then the rest with Delete All after confirming', async () => {
    const { account, context, page, surprises } = await openAs('cleanup');
    await seed(account);

    await page.goto('/forms/credit-card');
    await rowOf(page, 'Card Two').waitFor();
    await page.getByRole('button', { name: 'Delete Card One' }).click();
    // A row's Delete asks first, naming the customer.
    await page
      .getByRole('dialog', { name: /^Delete the credit card for Card One/ })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await toast(page, 'Credit card deleted successfully.');
    await rowOf(page, 'Card One').waitFor({ state: 'detached' });
    await page.getByText('Showing 1 to 2 of 2 entries').waitFor();

    await page.getByRole('button', { name: 'Delete All' }).click();
    const cardsDialog = page.getByRole('dialog', {
      name: 'Are you sure you want to delete all credit cards?',
    });
    await cardsDialog.getByRole('button', { name: 'Cancel' }).click();
    await cardsDialog.waitFor({ state: 'hidden' });
    await rowOf(page, 'Card Two').waitFor();
    await page.getByRole('button', { name: 'Delete All' }).click();
    await cardsDialog.getByRole('button', { name: 'Delete All' }).click();
    await toast(page, 'All Credit cards deleted successfully.');
    await page.getByText('No records found.').waitFor();
    await page.getByText('Showing 0 to 0 of 0 entries').waitFor();

    await page.getByRole('link', { name: 'Assets' }).first().click();
    await page.waitForURL('**/forms/notice');
    await page.getByRole('button', { name: 'Delete Notice One' }).click();
    await page
      .getByRole('dialog', { name: /^Delete the notice for Notice One/ })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await toast(page, 'Notice deleted successfully.');
    await rowOf(page, 'Notice One').waitFor({ state: 'detached' });
    // The spec words the same toast for both kinds: let the credit cards' one go before looking for it again.
    await page.getByRole('status').filter({ hasText: 'All Credit cards deleted successfully.' }).waitFor({
      state: 'detached',
    });
    await page.getByRole('button', { name: 'Delete All' }).click();
    const noticesDialog = page.getByRole('dialog', { name: 'Are you sure you want to delete all notices?' });
    await noticesDialog.getByRole('button', { name: 'Delete All' }).click();
    await toast(page, 'All Credit cards deleted successfully.');
    await page.getByText('No records found.').waitFor();

    expect(surprises).toEqual([]);
    await context.close();
  });
});

async function seed(account: Account) {
  for (const name of ['Card One', 'Card Two', 'Card Three']) {
    await createRecord(
      product.baseUrl,
      account,
      '/api/credit-cards',
      sample(creditCardFields, name, { custName: name }),
    );
  }
  for (const name of ['Notice One', 'Notice Two']) {
    await createRecord(
      product.baseUrl,
      account,
      '/api/notices',
      sample(noticeFields, name, { custName: name }),
    );
  }
}
