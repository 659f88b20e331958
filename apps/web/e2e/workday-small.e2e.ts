import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noticeFields } from '@notice-desk/contract/notice';
import { createAccount, signedInContext, type Account } from './accounts.ts';
import { launchBrowser, startProduct, watchForSurprises } from './harness.ts';
import { importNoticesOverApi, noticeWorkbook, XLSX_TYPE } from './import-files.ts';

/** Where the screenshots go, for a person to look at (not kept in git). */
const SCREENSHOTS = path.resolve(import.meta.dirname, 'screenshots');
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let product: Awaited<ReturnType<typeof startProduct>>;
let browser: Browser;
/** The product's first account, so the ADMIN who may read the audit log. */
let admin: Account;

beforeAll(async () => {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
  admin = await createAccount(product.baseUrl, 'small-admin');
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function open(account: Account, viewport: { width: number; height: number }) {
  const context = await signedInContext(browser, product.baseUrl, account, {
    viewport,
    ...(viewport.width < 640 && { isMobile: true, hasTouch: true }),
  });
  const page = await context.newPage();
  return { context, page, surprises: watchForSurprises(page) };
}

const shoot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The box its text takes, overflow included (an element's own box clips nothing, its text may run out). */
const textBox = (locator: Locator): Promise<Box> =>
  locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const { x, y, width, height } = range.getBoundingClientRect();
    return { x, y, width, height };
  });

/** Whether a tap at the element's centre reaches it, or something drawn over it. */
const onTop = (locator: Locator): Promise<boolean> =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && element.contains(hit);
  });

async function openImportModal(page: Page) {
  await page.goto('/forms/notice');
  await page.getByRole('heading', { level: 1, name: 'Notice Concialation' }).waitFor();
  await page.getByRole('button', { name: 'Import Excel' }).click();
  return page.getByRole('dialog', { name: 'Import Excel' });
}

describe('the smaller items of a working day (issue 28)', () => {
  it('moves the import progress bar within 2 seconds of starting a 3,000-row import', async () => {
    const account = await createAccount(product.baseUrl, 'progress');
    const { context, page, surprises } = await open(account, DESKTOP);
    const workbook = await noticeWorkbook(3000, 'prog');
    const dialog = await openImportModal(page);
    await dialog.getByLabel('Excel file (.xlsx)').setInputFiles({
      name: 'big.xlsx',
      mimeType: XLSX_TYPE,
      buffer: workbook,
    });
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
    const started = Date.now();

    const bar = page.getByRole('progressbar', { name: 'Importing notices…' });
    await bar.waitFor();
    await page.waitForFunction(
      () => Number(document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')) > 0,
      undefined,
      // Waited for longer than 2 s, so a failure says how long it took.
      { timeout: 30_000 },
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    await shoot(page, 'workday-import-progress');
    // Done (100%), not the toast 5 s later: the next tests need no import running beside them.
    await page.getByRole('progressbar', { name: 'Import of notices complete' }).waitFor({ timeout: 60_000 });
    expect(surprises).toEqual([]);
    await context.close();
  });

  it('opens Review mapping wide, says what blocks Import at the top, and counts no problem rows before a mapping exists', async () => {
    const account = await createAccount(product.baseUrl, 'mapping');
    const { context, page, surprises } = await open(account, DESKTOP);
    // Staff's own header for the customer's name, which no field knows.
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Notices');
    sheet.addRow(noticeFields.map((field) => (field.key === 'custName' ? 'Party' : field.label)));
    for (let n = 1; n <= 6; n += 1) sheet.addRow(noticeFields.map(({ key }) => `${key} ${n}`));
    const dialog = await openImportModal(page);
    const narrow = (await dialog.boundingBox())!;
    await dialog.getByLabel('Excel file (.xlsx)').setInputFiles({
      name: 'party.xlsx',
      mimeType: XLSX_TYPE,
      buffer: Buffer.from(await workbook.xlsx.writeBuffer()),
    });
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByRole('heading', { name: 'Review mapping' }).waitFor();

    // Wide: nearly the whole window, not the 480 px the file step needs.
    const wide = (await dialog.boundingBox())!;
    expect(narrow.width).toBeLessThan(600);
    expect(wide.width).toBeGreaterThanOrEqual(DESKTOP.width * 0.9);

    // What blocks Import comes first, in view, above the columns to change.
    const blocker = dialog.getByText('Map a column to Customer Name to import.');
    await blocker.waitFor();
    const blockerBox = (await blocker.boundingBox())!;
    const columnsBox = (await dialog.getByRole('group', { name: 'Columns' }).boundingBox())!;
    const headerRowBox = (await dialog.getByLabel('Header row').boundingBox())!;
    expect(blockerBox.y + blockerBox.height).toBeLessThanOrEqual(headerRowBox.y);
    expect(blockerBox.y + blockerBox.height).toBeLessThanOrEqual(columnsBox.y);
    expect(blockerBox.y).toBeGreaterThanOrEqual(wide.y);
    expect(blockerBox.y + blockerBox.height).toBeLessThan(DESKTOP.height / 2);

    // No count of problem rows while a required field has no column: every row would be one.
    await dialog
      .getByText('The rows with problems are counted once every required field has a column.')
      .waitFor();
    expect(await dialog.getByText(/rows? ha(s|ve) problems/).count()).toBe(0);
    await shoot(page, 'workday-review-mapping-blocked');

    await dialog.getByLabel('Party').selectOption('custName');
    await dialog.getByText('Every required field has a column.').waitFor();
    await dialog
      .getByText('0 of 6 rows have problems: the import skips them, and its report lists them.')
      .waitFor();
    await shoot(page, 'workday-review-mapping-ready');
    expect(await dialog.getByRole('button', { name: 'Import' }).isEnabled()).toBe(true);

    expect(surprises).toEqual([]);
    await context.close();
  });

  it('at 390 px: the audit log time keeps to its cell, and Send Notice never covers Select all', async () => {
    const campaignId = await importNoticesOverApi(
      product.baseUrl,
      admin,
      await noticeWorkbook(12, 'phone'),
      'Phone sheet',
    );
    const { context, page, surprises } = await open(admin, PHONE);

    await page.goto('/audit-log');
    const times = page.locator('tbody tr td time');
    await times.first().waitFor();
    await shoot(page, 'workday-phone-audit-log');
    const rows = await page.locator('tbody tr').count();
    expect(rows).toBeGreaterThan(0);
    for (let n = 0; n < Math.min(rows, 5); n += 1) {
      const row = page.locator('tbody tr').nth(n);
      const time = await textBox(row.locator('td time'));
      const cells = row.locator('td');
      const count = await cells.count();
      for (let c = 0; c < count; c += 1) {
        const cell = cells.nth(c);
        if ((await cell.locator('time').count()) > 0) continue;
        const box = await cell.boundingBox();
        if (box && box.width > 0 && box.height > 0)
          expect(overlaps(time, box), `row ${n + 1}: the time runs into cell ${c + 1}`).toBe(false);
      }
      expect(time.x + time.width).toBeLessThanOrEqual(PHONE.width);
    }

    await page.goto(`/campaign/notice/${campaignId}`);
    const selectAll = page.getByRole('checkbox', { name: 'Select all rows on this page' });
    await selectAll.waitFor();
    const sendNotice = page.getByRole('button', { name: 'Send Notice', exact: true });
    const selectAllLabel = page.locator('thead label').filter({ has: selectAll });
    // Select all sits wherever the table begins, lower as the page gains lines above it (a send's
    // progress bar, its summary). Screens whose foot (where Send Notice is) falls on it, and the phone's
    // own: wherever the page is scrolled, Send Notice stays clear of it.
    await page.evaluate(() => window.scrollTo(0, 0));
    const natural = (await selectAllLabel.boundingBox())!;
    const labelFoot = Math.ceil(natural.y + natural.height);
    for (const height of [PHONE.height, labelFoot + 4, labelFoot + 24, labelFoot + 48]) {
      await page.setViewportSize({ width: PHONE.width, height });
      const bottom = await page.evaluate(() => document.scrollingElement!.scrollHeight);
      for (const y of [0, 100, 300, bottom]) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        const label = (await selectAllLabel.boundingBox())!;
        const button = (await sendNotice.boundingBox())!;
        const where = `${height} px high, scrolled to ${y}`;
        expect(button.y + button.height, `${where}: Send Notice off screen`).toBeLessThanOrEqual(height);
        if (label.y + label.height > height) continue; // below the fold at this screen's height
        expect(await onTop(selectAllLabel), `${where}: Select all is covered`).toBe(true);
        expect(overlaps(label, button), `${where}: Send Notice covers Select all`).toBe(false);
        if (height === labelFoot + 24 && y === 0) await shoot(page, 'workday-phone-campaign-top');
      }
    }
    await shoot(page, 'workday-phone-campaign-foot');
    await page.setViewportSize(PHONE);
    await selectAll.check();
    expect(await page.getByRole('checkbox', { name: 'Select row 12', exact: true }).isChecked()).toBe(true);

    expect(surprises).toEqual([]);
    await context.close();
  });
});
