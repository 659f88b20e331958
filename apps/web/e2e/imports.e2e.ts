import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAsNewAccount } from './accounts.ts';
import { launchBrowser, startProduct } from './harness.ts';
import { importNoticesOverApi, noticeWorkbook, XLSX_TYPE } from './import-files.ts';

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

const toast = (page: Page, text: string, timeout?: number) =>
  page.getByRole('status').filter({ hasText: text }).waitFor({ timeout });

async function openImportModal(page: Page) {
  await page.goto('/forms/notice');
  await page.getByRole('heading', { level: 1, name: 'Notice Concialation' }).waitFor();
  await page.getByRole('button', { name: 'Import Excel' }).click();
  return page.getByRole('dialog', { name: 'Import Excel' });
}

describe('Excel import (issue 4)', () => {
  it('refuses a missing file and a .pdf, and offers the sample sheet', async () => {
    const { context, page, surprises } = await openAs('refusals');
    const dialog = await openImportModal(page);

    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByText('Please select a file.').waitFor();

    await dialog.getByLabel('Excel file (.xlsx)').setInputFiles({
      name: 'notices.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.7\n'),
    });
    await dialog.getByText('Please upload an Excel file (.xlsx).').waitFor();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByText('Please upload an Excel file (.xlsx).').waitFor();
    expect(await dialog.getByText('Not an Excel file').count()).toBe(1);

    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download sample file' }).click();
    expect((await download).suggestedFilename()).toBe('notice-import-sample.xlsx');

    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByRole('progressbar').count()).toBe(0);
    expect(surprises).toEqual([]);
    await context.close();
  });

  it('imports 200 notices through the modal: progress bar, toast, list, campaign and its rows', async () => {
    const { context, page, surprises } = await openAs('importer');
    const workbook = await noticeWorkbook(200, 'e2e');
    const dialog = await openImportModal(page);

    await dialog.getByLabel('Excel file (.xlsx)').setInputFiles({
      name: 'march-notices.xlsx',
      mimeType: XLSX_TYPE,
      buffer: workbook,
    });
    await dialog.getByText(`${(workbook.length / 1024 / 1024).toFixed(2)} MB`).waitFor();
    await dialog.getByText('Ready to upload').waitFor();
    await dialog.getByLabel('Rename file (optional)').fill('March notices');
    await dialog.getByRole('button', { name: 'Submit' }).click();

    await toast(page, 'The import of March notices is in process.');
    await dialog.waitFor({ state: 'hidden' });
    const bar = page.getByRole('progressbar');
    await bar.waitFor();
    expect(await bar.getAttribute('aria-valuemin')).toBe('0');
    expect(await bar.getAttribute('aria-valuemax')).toBe('100');
    // Polled every 10 s, then the spec's 5 s before the toast.
    await toast(page, 'Notice Information Imported Successfully.', 40_000);
    await bar.waitFor({ state: 'detached' });
    await page.getByText('Showing 1 to 10 of 200 entries').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('noticeImportStatus'))).toBe('0');

    await page.goto('/campaign/notice');
    await page.getByRole('heading', { level: 1, name: 'Notice Campaigns' }).waitFor();
    expect(await page.getByRole('columnheader').allTextContents()).toEqual([
      'No.',
      'History Name',
      'Imported At',
      'Action',
    ]);
    await page.getByRole('link', { name: 'March notices' }).click();
    await page.waitForURL('**/campaign/notice/*');
    await page.getByRole('heading', { level: 1, name: 'March notices' }).waitFor();
    await page.getByText('Showing 1 to 50 of 200 entries').waitFor();
    expect(await page.getByRole('columnheader').allTextContents()).toEqual([
      '',
      'No.',
      'Name',
      'Date',
      'Email Status',
      'WhatsApp Status',
      'Served on',
      'Respond by',
    ]);
    const firstRow = page.getByRole('row').filter({ hasText: 'Customer 1' }).first();
    expect((await firstRow.getByRole('cell').allTextContents()).slice(1, 3)).toEqual(['1', 'Customer 1']);

    expect(surprises).toEqual([]);
    await context.close();
  });

  it('stops a sheet imported again at Review mapping: where each row already is, and the choice; skipped rows are said on the campaign (issue 28)', async () => {
    const { account, context, page, surprises } = await openAs('duplicates');
    await importNoticesOverApi(product.baseUrl, account, await noticeWorkbook(4, 'dup'), 'February sheet');
    // The same four loans (one in other case and spaces) and a new one.
    const again = await noticeWorkbook(5, 'dup', (key, n) =>
      key === 'loanNo' && n === 1 ? ' ln-DUP-1 ' : undefined,
    );
    const dialog = await openImportModal(page);
    await dialog.getByLabel('Excel file (.xlsx)').setInputFiles({
      name: 'march.xlsx',
      mimeType: XLSX_TYPE,
      buffer: again,
    });
    await dialog.getByRole('button', { name: 'Submit' }).click();

    await dialog.getByText('4 rows have a loan number you already imported.').waitFor();
    const listed = dialog.getByRole('region', { name: 'Rows already imported' });
    expect(await listed.getByText('in ‘February sheet’, not served').count()).toBe(4);
    expect(await listed.getByText('ln-DUP-1', { exact: true }).count()).toBe(1);
    expect(await dialog.getByRole('radio', { name: /Skip them/ }).isChecked()).toBe(true);
    await dialog.getByRole('radio', { name: /Import them as new records/ }).check();
    await dialog.getByRole('radio', { name: /Skip them/ }).check();
    await dialog.getByRole('button', { name: 'Import' }).click();
    await toast(page, 'The import of march is in process.');

    // The import's outcome, read over the API rather than waited for through the 10 s poll.
    const authorization = `Bearer ${account.token}`;
    let progress: { status?: string; imported?: number; duplicates?: number; campaignId?: string } = {};
    for (const deadline = Date.now() + 60_000; progress.status !== 'done' && Date.now() < deadline;) {
      const answer = await fetch(`${product.baseUrl}/api/notices/by-user-id/progress-count`, {
        headers: { authorization },
      });
      progress = (await answer.json()) as typeof progress;
      if (progress.status === 'failed') break;
      if (progress.status !== 'done') await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(progress).toMatchObject({ status: 'done', imported: 1, skipped: 4, duplicates: 4 });

    await page.goto(`/campaign/notice/${progress.campaignId}`);
    await page.getByText('Duplicates: skipped (4)').waitFor();

    // The list tells which campaign each notice is in.
    await page.goto('/forms/notice');
    await page.getByRole('columnheader', { name: 'Campaign' }).waitFor();
    await page.getByRole('link', { name: 'march' }).first().waitFor();
    expect(await page.getByRole('link', { name: 'February sheet' }).count()).toBe(4);

    expect(surprises).toEqual([]);
    await context.close();
  });
});
