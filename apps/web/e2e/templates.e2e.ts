import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditCardFields } from '@notice-desk/contract/credit-card';
import { noticeFields } from '@notice-desk/contract/notice';
import type { EmailTemplate, TemplateList, WhatsappTemplate } from '@notice-desk/contract/templates';
import { createAccount, createRecord, signedInContext, type Account } from './accounts.ts';
import { launchBrowser, startProduct, watchForSurprises } from './harness.ts';

let product: Awaited<ReturnType<typeof startProduct>>;
let browser: Browser;
let admin: Account;
let plainUser: Account;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
  // A fresh database makes its first sign-up the ADMIN; the second is a plain user.
  admin = await createAccount(product.baseUrl, 'admin');
  plainUser = await createAccount(product.baseUrl, 'clerk');
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

type Visit = {
  context: BrowserContext;
  page: Page;
  surprises: string[];
  /** Every URL any page of the context asked for, in order. */
  requests: string[];
  /** Console errors of every frame, CSP refusals among them. */
  consoleErrors: string[];
};

async function openAs(account: Account): Promise<Visit> {
  const context = await signedInContext(browser, product.baseUrl, account, {
    viewport: { width: 1400, height: 900 },
  });
  const requests: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  const surprises = watchForSurprises(page);
  return { context, page, surprises, requests, consoleErrors };
}

async function apiGet<T>(account: Account, path: string): Promise<T> {
  const answer = await fetch(`${product.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${account.token}` },
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as T;
}

/**
 * A request that stays on this machine: to the app's own origin, or not over the network at all
 * (data: and blob: URLs, and the chrome:// pages of the browser's own PDF viewer).
 */
const staysHome = (url: string) => {
  const { protocol, origin } = new URL(url);
  return !['http:', 'https:', 'ws:', 'wss:'].includes(protocol) || origin === product.baseUrl;
};

const headers = (page: Page) => page.getByRole('columnheader').allTextContents();
const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });
const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).waitFor();

describe('templates and notice PDFs (issue 5)', () => {
  it('makes the first sign-up the ADMIN and the second a plain user', () => {
    expect(admin.user.role).toBe('ADMIN');
    expect(plainUser.user.role).toBe('USER');
  });

  it('lets an ADMIN edit a WhatsApp template: the message under an empty value, the toast, the new value listed', async () => {
    const { context, page, surprises } = await openAs(admin);
    const { items } = await apiGet<TemplateList<WhatsappTemplate>>(admin, '/api/whatsapptemplates/getdata');
    const template = items.find((t) => t.kind === 'notice')!;
    expect(template.placeholders).toContain('loanNo');

    await page.goto('/');
    await page.getByRole('button', { name: 'Templates' }).click();
    await page.getByRole('link', { name: 'Whatsapp' }).click();
    await page.waitForURL('**/templates/whatsapp-templates');
    expect(await headers(page)).toEqual(['No.', 'Name', 'Value', 'Action']);
    await rowOf(page, template.name).waitFor();

    // The search ignores case and reads names only.
    const search = page.getByRole('searchbox', { name: 'Search whatsapp templates' });
    await search.fill(template.name.toUpperCase());
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await search.fill('');

    await page.getByRole('link', { name: `Edit ${template.name}` }).click();
    await page.waitForURL(`**/templates/whatsapp-templates/edit/${template._id}`);
    await page.getByRole('heading', { level: 1, name: 'Edit Whatsapp Template' }).waitFor();
    const name = page.getByLabel('Name', { exact: true });
    expect(await name.inputValue()).toBe(template.name);
    expect(await name.getAttribute('readonly')).not.toBeNull();
    const value = page.getByLabel('Value', { exact: true });
    expect(await value.inputValue()).toBe(template.value);

    await value.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('value is required!!').waitFor();

    await value.fill('Dear {{custName}}, loan ');
    await page.getByRole('button', { name: 'Insert {{loanNo}}' }).click();
    expect(await value.inputValue()).toBe('Dear {{custName}}, loan {{loanNo}}');
    await page.keyboard.type(' is overdue (e2e).');
    await page.getByRole('button', { name: 'Save' }).click();

    await toast(page, 'Updated Successfully.');
    await page.waitForURL('**/templates/whatsapp-templates');
    await rowOf(page, template.name)
      .getByRole('cell', { name: 'Dear {{custName}}, loan {{loanNo}} is overdue (e2e).' })
      .waitFor();
    expect(surprises).toEqual([]);
    await context.close();
  });

  it('lets an ADMIN edit a PDF template in TinyMCE loaded from the app itself, and preview it', async () => {
    const visit = await openAs(admin);
    const { context, page, surprises, requests, consoleErrors } = visit;
    const { items } = await apiGet<TemplateList<EmailTemplate>>(admin, '/api/emailTemplates/getdata');
    const template = items.find((t) => t.key === 'notice-default')!;

    await page.goto('/templates/email-templates');
    await page.getByRole('heading', { level: 1, name: 'PDF Editor' }).waitFor();
    expect(await headers(page)).toEqual(['No.', 'Name', 'Action']);
    // Its Hindi and Tamil variants are listed after it under names that start alike.
    await rowOf(page, template.name).first().waitFor();
    // TinyMCE is no part of the first page load: none of the scripts so far holds it.
    const scriptsSoFar = requests.filter((url) => url.endsWith('.js'));
    expect(scriptsSoFar.length).toBeGreaterThan(0);
    for (const url of scriptsSoFar) expect(await (await fetch(url)).text()).not.toContain('tinymce');

    await page.getByRole('link', { name: `Edit ${template.name}`, exact: true }).click();
    await page.waitForURL(`**/templates/email-templates/edit/${template._id}`);
    await page.getByRole('heading', { level: 1, name: 'Edit PDF Editor' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(template.name);
    const body = page.frameLocator('iframe[title="Body"]').locator('body');
    await body.getByText('NOTICE FOR CONCILIATION').waitFor();
    for (const item of ['Bold', 'Insert/edit link', 'Emojis', 'Special character', 'Clear formatting']) {
      await page.getByRole('button', { name: item, exact: true }).waitFor();
    }

    await body.getByText('Yours faithfully,').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Edited in e2e, loan ');
    await page.getByRole('button', { name: 'Insert {{loanNo}}' }).click();
    await body.getByText('Edited in e2e, loan {{loanNo}}').waitFor();

    // The preview prints the unsaved body in a new tab.
    const [preview, previewTab] = await Promise.all([
      context.waitForEvent('response', (response) => response.url().endsWith('/api/emailTemplates/preview')),
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Preview' }).click(),
    ]);
    expect(preview.status()).toBe(200);
    expect(preview.headers()['content-type']).toBe('application/pdf');
    await previewTab.waitForURL(`blob:${product.baseUrl}/**`);
    await previewTab.close();

    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Updated Successfully.');
    await page.waitForURL('**/templates/email-templates');

    const saved = await apiGet<EmailTemplate>(admin, `/api/emailTemplates/${template._id}`);
    expect(saved.html).toContain('Edited in e2e, loan {{loanNo}}');
    // The template's own style sheet survives the editor.
    expect(saved.html).toContain('<style>');
    expect(saved.html).toContain('<span>Date: {{noticeSentOn}}</span>');
    expect(saved.html).toContain('{{custName}}');
    // The editor's fonts for India's scripts are its own: the template is saved as written.
    expect(saved.html).not.toContain('Noto Sans');

    expect(requests.filter((url) => !staysHome(url))).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(surprises).toEqual([]);
    await context.close();
  });

  it('previews a language variant with the record the ADMIN picks in the combobox, by keyboard', async () => {
    const { context, page, surprises, consoleErrors, requests } = await openAs(admin);
    const { items } = await apiGet<TemplateList<EmailTemplate>>(admin, '/api/emailTemplates/getdata');
    const hindi = items.find((t) => t.key === 'notice-default.hi')!;
    const notice = (loanNo: string, custName: string, language: string) =>
      createRecord(product.baseUrl, admin, '/api/notices', {
        ...Object.fromEntries(noticeFields.map(({ key }) => [key, `${key} picker`])),
        loanNo,
        custName,
        language,
        totalOverdueAmt: '1,25,000.50',
      });
    await notice('PICK-HI-1', 'Meera Hindi', 'Hindi');
    await notice('PICK-EN-2', 'Prakash Plain', '');

    await page.goto(`/templates/email-templates/edit/${hindi._id}`);
    const picker = page.getByRole('combobox', { name: 'Record to preview' });
    // By default the preview prints the newest Hindi record, though a newer one has no language.
    await page.getByText('Default: your newest Hindi record, PICK-HI-1 · Meera Hindi.').waitFor();
    // The Hindi template reads in the editor with the bundled Devanagari font, whatever the machine has.
    const editorBody = page.frameLocator('iframe[title="Body"]').locator('body');
    await editorBody.getByText('विधिक सूचना').first().waitFor();
    // The template's own font stack gets the bundled families after its own (in the frame's CSSOM only).
    await expect
      .poll(() => editorBody.evaluate((body) => getComputedStyle(body).fontFamily))
      .toMatch(/^"DejaVu Serif", .*"Noto Sans Devanagari"/);
    await expect
      .poll(() => requests.some((url) => url.includes('noto-sans-devanagari-devanagari-400-normal')))
      .toBe(true);

    // Keyboard only: the combobox is in the tab order just before Preview, typing searches, the
    // arrows move, Enter picks.
    await page.getByRole('button', { name: 'Preview' }).focus();
    await page.keyboard.press('Shift+Tab');
    expect(await picker.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.type('Prak');
    await page.getByRole('option', { name: /PICK-EN-2 · Prakash Plain/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByText('Prints with PICK-EN-2 · Prakash Plain.').waitFor();

    const [preview, previewTab] = await Promise.all([
      context.waitForEvent('response', (response) => response.url().endsWith('/api/emailTemplates/preview')),
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Preview' }).click(),
    ]);
    expect(preview.status()).toBe(200);
    const sent = JSON.parse(preview.request().postData() ?? '{}') as Record<string, unknown>;
    expect(sent.language).toBe('hi');
    expect(typeof sent.recordId).toBe('string');
    await previewTab.waitForURL(`blob:${product.baseUrl}/**`);
    await previewTab.close();

    // 'Use the default' goes back to the newest Hindi record.
    await page.getByRole('button', { name: 'Use the default' }).click();
    await page.getByText('Default: your newest Hindi record, PICK-HI-1 · Meera Hindi.').waitFor();
    expect(consoleErrors).toEqual([]);
    expect(surprises).toEqual([]);
    await context.close();
  });

  it('downloads a script’s bundled font only for a page that shows that script, none for a Latin page', async () => {
    const { context, page, requests, surprises } = await openAs(plainUser);
    const fonts = () => requests.filter((url) => url.endsWith('.woff2')).map((url) => url.split('/').pop()!);
    const record = (custName: string, loanNo: string) =>
      createRecord(product.baseUrl, plainUser, '/api/notices', {
        ...Object.fromEntries(noticeFields.map(({ key }) => [key, `${key} fonts`])),
        custName,
        loanNo,
        totalOverdueAmt: '₹1,25,000.50',
      });
    await record('Latin Only Name', 'FONT-1');

    await page.goto('/forms/notice');
    await rowOf(page, 'Latin Only Name').waitFor();
    await page.evaluate(() => document.fonts.ready);
    expect(fonts()).toEqual([]);

    await record('राजेश शर्मा', 'FONT-2');
    await record('முருகன் செல்வம்', 'FONT-3');
    await page.reload();
    await rowOf(page, 'राजेश शर्मा').waitFor();
    await page.evaluate(() => document.fonts.ready);
    const loaded = fonts();
    expect(loaded.some((name) => name.startsWith('noto-sans-devanagari-devanagari-400-normal'))).toBe(true);
    expect(loaded.some((name) => name.startsWith('noto-sans-tamil-tamil-400-normal'))).toBe(true);
    // No other script's font, and the names are drawn with the bundled faces.
    expect(loaded.every((name) => /^noto-sans-(devanagari-devanagari|tamil-tamil)-/.test(name))).toBe(true);
    const drawnWith = await page.evaluate(() =>
      ['400 16px "Noto Sans Devanagari"', '400 16px "Noto Sans Tamil"'].map((font) =>
        document.fonts.check(font),
      ),
    );
    expect(drawnWith).toEqual([true, true]);
    expect(surprises).toEqual([]);
    await context.close();
  });

  it('says the body is required when the editor is emptied', async () => {
    const { context, page, surprises } = await openAs(admin);
    const { items } = await apiGet<TemplateList<EmailTemplate>>(admin, '/api/emailTemplates/getdata');
    const template = items.find((t) => t.key === 'dln-performa')!;

    await page.goto(`/templates/email-templates/edit/${template._id}`);
    const body = page.frameLocator('iframe[title="Body"]').locator('body');
    await body.getByText('Yours faithfully,').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Body is required!!').waitFor();
    expect(page.url()).toContain(`/templates/email-templates/edit/${template._id}`);
    expect(surprises).toEqual([]);
    await context.close();
  });

  it.each([
    { list: '/forms/notice', api: '/api/notices', fields: noticeFields },
    { list: '/forms/credit-card', api: '/api/credit-cards', fields: creditCardFields },
  ])("opens a record's PDF from $list in a new tab", async ({ list, api, fields }) => {
    const { context, page, surprises, requests } = await openAs(admin);
    const custName = `Pdf Person ${fields.length}`;
    await createRecord(product.baseUrl, admin, api, {
      ...Object.fromEntries(fields.map(({ key }) => [key, `${key} pdf`])),
      custName,
    });

    await page.goto(list);
    const link = rowOf(page, custName).getByRole('link', { name: /^PDF/ });
    expect(await link.getAttribute('target')).toBe('_blank');
    const [pdf, pdfTab] = await Promise.all([
      context.waitForEvent('response', (response) => response.url().includes('/api/pdf/')),
      context.waitForEvent('page'),
      link.click(),
    ]);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect(pdfTab.url()).toBe(pdf.url());
    // The link is signed: it opens without the bearer header.
    const signed = await fetch(pdf.url());
    expect(signed.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await signed.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect(requests.filter((url) => !staysHome(url))).toEqual([]);
    expect(surprises).toEqual([]);
    await context.close();
  });

  it('hides Templates from a plain user and shows a 403 page with a way home on its pages', async () => {
    const { context, page, surprises } = await openAs(plainUser);
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Forms' }).waitFor();
    expect(await nav.getByRole('button', { name: 'Templates' }).count()).toBe(0);

    await page.goto('/templates/whatsapp-templates');
    await page.getByRole('heading', { level: 1, name: 'Access denied' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/templates/whatsapp-templates');
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(surprises).toEqual([]);
    await context.close();
  });
});
