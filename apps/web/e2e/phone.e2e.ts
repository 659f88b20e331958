import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignList } from '@notice-desk/contract/campaigns';
import { creditCardFields } from '@notice-desk/contract/credit-card';
import { noticeFields } from '@notice-desk/contract/notice';
import type { FieldDefinition } from '@notice-desk/contract/record-fields';
import { createAccount, createRecord, signedInContext, type Account } from './accounts.ts';
import { describeViolations, seriousViolations } from './axe.ts';
import { launchBrowser, startProduct, watchForSurprises } from './harness.ts';

/** An iPhone 12 to 15's viewport: the phone the issue was tried on. */
const PHONE = { width: 390, height: 844 };

/** Where the screenshots go, for a person to look at (not kept in git). */
const SCREENSHOTS = path.resolve(import.meta.dirname, 'screenshots');

let product: Awaited<ReturnType<typeof startProduct>>;
let browser: Browser;
let account: Account;
let context: BrowserContext;
let page: Page;
let surprises: string[];
const campaigns = { notice: '' };

const sample = (fields: readonly FieldDefinition[], tag: string, overrides: Record<string, string>) => ({
  ...Object.fromEntries(fields.map(({ key }) => [key, `${key} ${tag}`])),
  ...overrides,
});

async function api<T>(apiPath: string, init: RequestInit = {}): Promise<T> {
  const answer = await fetch(`${product.baseUrl}${apiPath}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${account.token}` },
  });
  if (!answer.ok) throw new Error(`${apiPath} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as T;
}

/** Notices (one sent to the outbox, one failed with its reason, ten never sent) and a credit card. */
async function seed() {
  account = await createAccount(product.baseUrl, 'phone');
  // Ten never sent, first (so the named ones lead the newest-first lists): the campaign page scrolls,
  // and select-all and Send Notice must stay at hand.
  for (let n = 1; n <= 10; n += 1) {
    await createRecord(
      product.baseUrl,
      account,
      '/api/notices',
      sample(noticeFields, `D${n}`, { custName: `Batch Customer ${n}`, modeOfDispatch: 'Email' }),
    );
  }
  const ravi = await createRecord(
    product.baseUrl,
    account,
    '/api/notices',
    sample(noticeFields, 'A', {
      custName: 'Ravi Kumar',
      loanNo: 'LN100012',
      emailId: 'ravi@example.com',
      custMobileNo: '9800000001',
      modeOfDispatch: 'Email and WhatsApp',
    }),
  );
  // An address that cannot be one: its delivery fails, with a reason.
  const meena = await createRecord(
    product.baseUrl,
    account,
    '/api/notices',
    sample(noticeFields, 'B', {
      custName: 'Meena Shah',
      loanNo: 'LN100013',
      emailId: 'not an address',
      modeOfDispatch: 'Email',
    }),
  );
  await createRecord(
    product.baseUrl,
    account,
    '/api/credit-cards',
    sample(creditCardFields, 'C', { custName: 'Asha Rao', maskNo: 'XXXX-1234', emailId: 'asha@example.com' }),
  );
  const notices = await api<CampaignList>('/api/campaigns/notice?page=1&limit=10');
  campaigns.notice = notices.items[0]!._id;
  await api('/api/campaigns/send-mail', {
    method: 'POST',
    body: JSON.stringify({ data: [ravi._id, meena._id], type: 'notice' }),
  });
}

beforeAll(async () => {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
  await seed();
  context = await signedInContext(browser, product.baseUrl, account, {
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
  });
  page = await context.newPage();
  surprises = watchForSurprises(page);
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** The page's own width: more than the viewport means the page scrolls sideways. */
const pageWidth = () => page.evaluate(() => document.scrollingElement!.scrollWidth);

/** Boxes of the first row's controls (actions, checkbox, links) that fall outside the viewport. */
async function firstRowControlsOutside(): Promise<string[]> {
  // The first row that has any: the funnel's tables above a list have none.
  const row = page
    .locator('tbody tr')
    .filter({ has: page.locator('a, button, input') })
    .first();
  await row.scrollIntoViewIfNeeded();
  return row.locator('a, button, input').evaluateAll(
    (controls, viewport) =>
      controls.flatMap((control) => {
        const box = control.getBoundingClientRect();
        const inside =
          box.width > 0 &&
          box.left >= 0 &&
          box.top >= 0 &&
          box.right <= viewport.width &&
          box.bottom <= viewport.height;
        return inside
          ? []
          : [`${control.textContent || control.getAttribute('aria-label')}: ${JSON.stringify(box)}`];
      }),
    PHONE,
  );
}

/** A shot of the screen as the phone shows it, which must not be wider than the phone. */
async function expectNoSidewaysScroll(name: string) {
  // The first screen only (a full-page shot would draw Send Notice, fixed, mid-page).
  await page.screenshot({ path: path.join(SCREENSHOTS, `phone-${name}.png`) });
  expect(await pageWidth(), `${name}: the page is wider than the phone`).toBeLessThanOrEqual(PHONE.width);
}

/** The screen fits the phone: no sideways scrolling, the first row's every control in view, no axe finding. */
async function expectFitsThePhone(name: string) {
  await expectNoSidewaysScroll(name);
  expect(await firstRowControlsOutside(), `${name}: controls outside the viewport`).toEqual([]);
  expect(describeViolations(await seriousViolations(page)), name).toBe('');
}

describe('at 390×844, a phone (issue 17)', () => {
  it('shows every list and the campaign page as cards, with every action in view', async () => {
    await page.goto('/forms/notice');
    await page.getByRole('button', { name: 'Delete Ravi Kumar' }).waitFor();
    await expectFitsThePhone('notices');
    const card = page.locator('tbody tr').filter({ hasText: 'Ravi Kumar' });
    for (const name of ['Edit Ravi Kumar', 'Delete Ravi Kumar']) {
      expect(await card.getByRole(name.startsWith('Edit') ? 'link' : 'button', { name }).isVisible()).toBe(
        true,
      );
    }
    // The header search takes the bar while it has focus.
    const search = page.getByRole('banner').getByRole('combobox', { name: 'Search' });
    const before = (await search.boundingBox())!.width;
    await search.focus();
    expect((await search.boundingBox())!.width).toBeGreaterThan(before + 80);
    expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'phone-search-focused.png') });
    await search.blur();

    // Delete asks first, naming the customer; the dialog fits the phone.
    await page.getByRole('button', { name: 'Delete Ravi Kumar' }).click();
    const dialog = page.getByRole('dialog', {
      name: 'Delete the notice for Ravi Kumar (LN100012)? If it was served, it is archived with its evidence; if not, it cannot be brought back.',
    });
    await dialog.waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'phone-notices-delete.png') });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // The Import Excel dialog and the wizard fit too.
    await page.getByRole('button', { name: 'Import Excel' }).click();
    await page.getByRole('dialog', { name: 'Import Excel' }).waitFor();
    await expectNoSidewaysScroll('notices-import');
    await page.keyboard.press('Escape');
    await page.goto('/forms/notice/add-notice');
    await page.getByRole('button', { name: 'Next' }).waitFor();
    await expectNoSidewaysScroll('notice-wizard');
    expect(describeViolations(await seriousViolations(page)), 'notice wizard').toBe('');
    const wizardButtons = await page
      .getByRole('button', { name: /^(Cancel|Next)$/ })
      .evaluateAll((buttons) => buttons.map((button) => button.getBoundingClientRect().right));
    expect(Math.max(...wizardButtons)).toBeLessThanOrEqual(PHONE.width);

    await page.goto('/forms/credit-card');
    await page.getByRole('button', { name: 'Delete Asha Rao' }).waitFor();
    await expectFitsThePhone('credit-cards');

    await page.goto('/campaign/notice');
    await page.getByRole('link', { name: 'Manual entries' }).waitFor();
    await expectFitsThePhone('campaigns');
    expect(await page.getByRole('button', { name: 'Delete Manual entries' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Export Manual entries' }).isVisible()).toBe(true);

    await page.goto(`/campaign/notice/${campaigns.notice}`);
    await page.getByRole('button', { name: 'Not serviceable', exact: true }).first().waitFor();
    await expectFitsThePhone('campaign-detail');
    // Both statuses in words, a failure's reason in the card without hovering.
    const meena = page.locator('tbody tr').filter({ hasText: 'Meena Shah' });
    expect(await meena.getByText('Not serviceable', { exact: true }).isVisible()).toBe(true);
    const reason = (await meena.getByRole('tooltip', { includeHidden: true }).textContent())!;
    expect(reason.length).toBeGreaterThan(0);
    expect(await meena.locator('[aria-hidden="true"]', { hasText: reason }).isVisible()).toBe(true);
    expect(await page.getByText('Outbox (not sent: no provider set up)').first().isVisible()).toBe(true);

    // Select-all stays at the top and Send Notice at the foot while the page scrolls.
    await page.evaluate(() => window.scrollTo(0, document.scrollingElement!.scrollHeight));
    const inView = async (name: string, role: 'checkbox' | 'button') => {
      const box = (await page.getByRole(role, { name, exact: true }).boundingBox())!;
      return box.y >= 0 && box.y + box.height <= PHONE.height;
    };
    expect(await inView('Select all rows on this page', 'checkbox')).toBe(true);
    expect(await inView('Send Notice', 'button')).toBe(true);
    await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
    expect(await page.getByRole('checkbox', { name: 'Select row 12', exact: true }).isChecked()).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'phone-campaign-detail-scrolled.png') });

    // The dashboard's Mails Details (Meena's address was left out as not serviceable) as cards too.
    await page.goto('/');
    await page.getByRole('button', { name: 'Not serviceable', exact: true }).first().waitFor();
    await expectFitsThePhone('dashboard');

    // The first account is the ADMIN: the Users screen, with three actions a row.
    await page.goto('/users');
    await page.getByRole('button', { name: `Reset password ${account.username}` }).waitFor();
    await expectFitsThePhone('users');

    expect(surprises).toEqual([]);
  });
});
