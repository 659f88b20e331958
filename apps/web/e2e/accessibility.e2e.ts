import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignList } from '@notice-desk/contract/campaigns';
import { creditCardFields, creditCardSteps } from '@notice-desk/contract/credit-card';
import { noticeFields, noticeSteps } from '@notice-desk/contract/notice';
import type { FieldDefinition } from '@notice-desk/contract/record-fields';
import type { EmailTemplate, TemplateList, WhatsappTemplate } from '@notice-desk/contract/templates';
import { createAccount, createRecord, signedInContext, type Account } from './accounts.ts';
import { describeViolations, seriousViolations } from './axe.ts';
import { launchBrowser, startProduct, watchForSurprises } from './harness.ts';

let product: Awaited<ReturnType<typeof startProduct>>;
let browser: Browser;
let admin: Account;
let adminContext: BrowserContext;
let guestContext: BrowserContext;
const seeded = {
  noticeId: '',
  creditCardId: '',
  noticeCampaignId: '',
  creditCardCampaignId: '',
  whatsappTemplateId: '',
  emailTemplateId: '',
};

const sample = (fields: readonly FieldDefinition[], tag: string, overrides: Record<string, string> = {}) => ({
  ...Object.fromEntries(fields.map(({ key }) => [key, `${key} ${tag}`])),
  ...overrides,
});

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const answer = await fetch(`${product.baseUrl}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
  });
  if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as T;
}

/** An ADMIN (the first sign-up) with a notice and a credit card, their campaigns, and deliveries. */
async function seed() {
  admin = await createAccount(product.baseUrl, 'a11y-admin');
  const notice = await createRecord(
    product.baseUrl,
    admin,
    '/api/notices',
    sample(noticeFields, 'A', {
      custName: 'Ravi Kumar',
      emailId: 'ravi@example.com',
      custMobileNo: '9800000001',
      modeOfDispatch: 'Email and WhatsApp',
    }),
  );
  // An address that cannot be one: its delivery fails, and the status carries a reason.
  const failing = await createRecord(
    product.baseUrl,
    admin,
    '/api/notices',
    sample(noticeFields, 'B', { custName: 'Meena Shah', emailId: 'not an address', modeOfDispatch: 'Email' }),
  );
  const creditCard = await createRecord(
    product.baseUrl,
    admin,
    '/api/credit-cards',
    sample(creditCardFields, 'C', {
      custName: 'Asha Rao',
      emailId: 'asha@example.com',
      custMobileNo: '9800000002',
    }),
  );
  // Ten more, never sent: a send of all twelve from the campaign page goes in chunks, with the bar.
  for (let n = 1; n <= 10; n += 1) {
    await createRecord(
      product.baseUrl,
      admin,
      '/api/notices',
      sample(noticeFields, `D${n}`, { custName: `Batch Customer ${n}`, modeOfDispatch: 'Email' }),
    );
  }
  seeded.noticeId = notice._id!;
  seeded.creditCardId = creditCard._id!;
  const [notices, creditCards] = await Promise.all([
    api<CampaignList>('/api/campaigns/notice?page=1&limit=10'),
    api<CampaignList>('/api/campaigns/credit-card?page=1&limit=10'),
  ]);
  seeded.noticeCampaignId = notices.items[0]!._id;
  seeded.creditCardCampaignId = creditCards.items[0]!._id;
  await api('/api/campaigns/send-mail', {
    method: 'POST',
    body: JSON.stringify({ data: [notice._id, failing._id], type: 'notice' }),
  });
  // An edit, so the audit log has before and after to show.
  await api(`/api/notices/${notice._id}`, {
    method: 'PUT',
    body: JSON.stringify(sample(noticeFields, 'A', { custName: 'Ravi Kumar', remark: 'Called twice' })),
  });
  const [whatsapp, email] = await Promise.all([
    api<TemplateList<WhatsappTemplate>>('/api/whatsapptemplates/getdata?page=1&limit=50'),
    api<TemplateList<EmailTemplate>>('/api/emailTemplates/getdata?page=1&limit=50'),
  ]);
  seeded.whatsappTemplateId = whatsapp.items[0]!._id;
  seeded.emailTemplateId = email.items.find(({ key }) => !key.startsWith('email-subject-'))!._id;
}

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
  await seed();
  adminContext = await signedInContext(browser, product.baseUrl, admin, {
    viewport: { width: 1280, height: 900 },
  });
  guestContext = await browser.newContext({
    baseURL: product.baseUrl,
    viewport: { width: 1280, height: 900 },
  });
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function fillStep(page: Page, fields: readonly FieldDefinition[], tag: string) {
  for (const { key, label } of fields) await field(page, label).fill(`${key} ${tag}`);
}

/** Goes through a wizard's steps before `step` (1-based), filling each. */
async function wizardAt(
  page: Page,
  path: string,
  title: string,
  steps: readonly (readonly FieldDefinition[])[],
  step: number,
) {
  await page.goto(path);
  await heading(page, title);
  // The wizard keeps what an earlier screen typed as a draft (issue 28): each screen starts empty.
  const discard = page.getByRole('button', { name: 'Discard draft' });
  if ((await discard.count()) > 0) await discard.click();
  for (const fields of steps.slice(0, step - 1)) {
    await fillStep(page, fields, 'typed');
    await page.getByRole('button', { name: 'Next' }).click();
  }
  await page.getByText(`Step ${step} of ${steps.length}`, { exact: true }).waitFor({ state: 'attached' });
}

type Screen = {
  name: string;
  /** The guest context (login, sign-up, phone call) rather than the signed-in ADMIN's. */
  guest?: boolean;
  /** A context of its own, signed out, for a screen that signs in. */
  fresh?: boolean;
  viewport?: { width: number; height: number };
  /** Brings the page to the state to check. */
  open: (page: Page) => Promise<void>;
};

const screens: Screen[] = [
  {
    name: 'login',
    guest: true,
    open: async (page) => {
      await page.goto('/auth/login');
      await heading(page, 'Login');
    },
  },
  {
    name: 'login with its field messages',
    guest: true,
    open: async (page) => {
      await page.goto('/auth/login');
      await page.getByRole('button', { name: 'Login' }).click();
      await page.getByText('Username is required!!').waitFor();
    },
  },
  {
    name: 'dashboard just after signing in, with its toast',
    fresh: true,
    open: async (page) => {
      await page.goto('/auth/login');
      await field(page, 'Username').fill(admin.username);
      await field(page, 'Password').fill(admin.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.getByRole('status').filter({ hasText: 'User Login Successfully' }).waitFor();
      await heading(page, 'Dashboard');
    },
  },
  {
    name: 'sign-up',
    guest: true,
    open: async (page) => {
      await page.goto('/auth/sign-up');
      await heading(page, 'Sign Up');
    },
  },
  {
    name: 'phone call',
    guest: true,
    open: async (page) => {
      await page.goto('/phonecall?phone=9800000001');
      await page.getByRole('link', { name: 'click here' }).waitFor();
    },
  },
  {
    name: 'dashboard',
    open: async (page) => {
      await page.goto('/');
      await page.getByRole('heading', { level: 2, name: 'Mails Details' }).waitFor();
      await page.getByRole('region', { name: 'Mails Details table' }).waitFor();
    },
  },
  {
    name: 'notice list',
    open: async (page) => {
      await page.goto('/forms/notice');
      await page.getByRole('cell', { name: 'Batch Customer 10', exact: true }).waitFor();
    },
  },
  {
    name: 'notice list with the Import Excel modal open',
    open: async (page) => {
      await page.goto('/forms/notice');
      await page.getByRole('cell', { name: 'Batch Customer 10', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Import Excel' }).click();
      await page.getByRole('dialog', { name: 'Import Excel' }).waitFor();
    },
  },
  {
    name: 'Import Excel modal with its file message',
    open: async (page) => {
      await page.goto('/forms/notice');
      await page.getByRole('button', { name: 'Import Excel' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import Excel' });
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await dialog.getByText('Please select a file.').waitFor();
    },
  },
  {
    name: 'notice list with the Delete All confirmation open',
    open: async (page) => {
      await page.goto('/forms/notice');
      await page.getByRole('cell', { name: 'Batch Customer 10', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Delete All' }).click();
      await page.getByRole('dialog', { name: 'Are you sure you want to delete all notices?' }).waitFor();
    },
  },
  ...noticeSteps.map((_fields, index) => ({
    name: `add notice, step ${index + 1}`,
    open: (page: Page) => wizardAt(page, '/forms/notice/add-notice', 'Add Notice', noticeSteps, index + 1),
  })),
  {
    name: 'add notice, step 1 with its field messages',
    open: async (page) => {
      await wizardAt(page, '/forms/notice/add-notice', 'Add Notice', noticeSteps, 1);
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Loan No is required!!').waitFor();
    },
  },
  {
    name: 'edit notice',
    open: async (page) => {
      await page.goto(`/forms/notice/edit-notice/${seeded.noticeId}`);
      await heading(page, 'Edit Notice');
      await page.getByRole('button', { name: /^Download evidence/ }).waitFor();
    },
  },
  {
    name: 'credit card list',
    open: async (page) => {
      await page.goto('/forms/credit-card');
      await page.getByRole('cell', { name: 'Asha Rao', exact: true }).waitFor();
    },
  },
  ...creditCardSteps.map((_fields, index) => ({
    name: `add credit card, step ${index + 1}`,
    open: (page: Page) =>
      wizardAt(page, '/forms/credit-card/add-credit-card', 'Add Credit Card', creditCardSteps, index + 1),
  })),
  {
    name: 'edit credit card',
    open: async (page) => {
      await page.goto(`/forms/credit-card/edit-credit-card/${seeded.creditCardId}`);
      await heading(page, 'Edit Credit Card');
      await page.getByRole('button', { name: /^Download evidence/ }).waitFor();
    },
  },
  {
    name: 'notice campaigns',
    open: async (page) => {
      await page.goto('/campaign/notice');
      await page.getByRole('link', { name: 'Manual entries' }).waitFor();
    },
  },
  {
    name: 'credit card campaigns',
    open: async (page) => {
      await page.goto('/campaign/credit-card');
      await page.getByRole('link', { name: 'Manual entries' }).waitFor();
    },
  },
  {
    name: 'notice campaign detail, with deliveries and a failure reason shown',
    open: async (page) => {
      await page.goto(`/campaign/notice/${seeded.noticeCampaignId}`);
      await page.getByRole('cell', { name: 'Meena Shah', exact: true }).waitFor();
      const failed = page.getByRole('button', { name: 'Not serviceable', exact: true });
      if (await failed.count()) await failed.first().focus();
    },
  },
  {
    name: 'notice campaign detail, with rows selected',
    open: async (page) => {
      await page.goto(`/campaign/notice/${seeded.noticeCampaignId}`);
      await page.getByRole('cell', { name: 'Meena Shah', exact: true }).waitFor();
      await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
    },
  },
  {
    name: 'notice campaign detail while a batch send shows its progress bar and summary',
    open: async (page) => {
      await page.goto(`/campaign/notice/${seeded.noticeCampaignId}`);
      await page.getByRole('cell', { name: 'Batch Customer 10', exact: true }).waitFor();
      await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
      await page.getByRole('button', { name: 'Send Notice' }).click();
      // Seeded deliveries failed for some of these addresses: the send may ask first (BOUNCED_ADDRESSES=confirm).
      const sendAnyway = page.getByRole('button', { name: 'Send anyway' });
      // 'Send Mail Successfully.' when all went out, else the summary ('Sent 8; 2 were sent before').
      const outcome = page
        .getByRole('status')
        .filter({ hasText: /Send Mail Successfully\.|Sent \d+|Nothing new to send/ })
        .first();
      await sendAnyway.or(outcome).first().waitFor({ timeout: 60_000 });
      if (await sendAnyway.isVisible()) await sendAnyway.click();
      await outcome.waitFor({ timeout: 60_000 });
      await page.getByRole('progressbar', { name: 'Import File Progress Bar' }).waitFor(); // it stays 5 s
    },
  },
  {
    name: 'credit card campaign detail',
    open: async (page) => {
      await page.goto(`/campaign/credit-card/${seeded.creditCardCampaignId}`);
      await page.getByRole('cell', { name: 'Asha Rao', exact: true }).waitFor();
    },
  },
  {
    name: 'WhatsApp templates',
    open: async (page) => {
      await page.goto('/templates/whatsapp-templates');
      await page.getByRole('table', { name: 'Whatsapp templates' }).getByRole('row').nth(1).waitFor();
    },
  },
  {
    name: 'edit WhatsApp template',
    open: async (page) => {
      await page.goto(`/templates/whatsapp-templates/edit/${seeded.whatsappTemplateId}`);
      await page.getByRole('textbox', { name: 'Value' }).waitFor();
    },
  },
  {
    name: 'PDF Editor templates',
    open: async (page) => {
      await page.goto('/templates/email-templates');
      await page.getByRole('table', { name: 'PDF templates' }).getByRole('row').nth(1).waitFor();
    },
  },
  {
    name: 'edit PDF Editor template (TinyMCE)',
    open: async (page) => {
      await page.goto(`/templates/email-templates/edit/${seeded.emailTemplateId}`);
      await page.frameLocator('iframe[title="Body"]').locator('body').waitFor();
      await page.locator('.tox-tinymce').waitFor();
    },
  },
  {
    name: 'audit log',
    open: async (page) => {
      await page.goto('/audit-log');
      await heading(page, 'Audit Log');
      await page.getByRole('table', { name: 'Audit entries' }).locator('tbody tr td time').first().waitFor();
    },
  },
  {
    name: 'archive (ADMIN)',
    open: async (page) => {
      await page.goto('/archive');
      await heading(page, 'Archive');
      await page.getByRole('table', { name: 'Archived campaigns' }).waitFor();
      await page.getByRole('heading', { name: 'Archived credit cards' }).waitFor();
    },
  },
  {
    name: 'audit log with an edit unfolded',
    open: async (page) => {
      await page.goto('/audit-log');
      const disclosure = page.getByText(/^Show changes/).first();
      await disclosure.click();
      await page.getByRole('columnheader', { name: 'Before' }).waitFor();
    },
  },
  {
    name: 'change password',
    open: async (page) => {
      await page.goto('/change-password');
      await heading(page, 'Change Password');
    },
  },
  {
    name: 'change password with its messages',
    open: async (page) => {
      await page.goto('/change-password');
      await page.getByPlaceholder('Old Password').fill('old-pass-word');
      await page.getByPlaceholder('New Password', { exact: true }).fill('one-pass-word');
      await page.getByPlaceholder('Confirm New Password').fill('another-pass-word');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('New password and confirm password do not match.').waitFor();
    },
  },
  {
    name: 'an unknown page',
    open: async (page) => {
      await page.goto('/no-such-page');
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    },
  },
  {
    name: 'the 403 page a plain user gets on an ADMIN page',
    fresh: true,
    open: async (page) => {
      const plain = await createAccount(product.baseUrl, 'plain');
      await page.goto('/auth/login');
      await page.evaluate(
        (auth) => localStorage.setItem('auth', auth),
        JSON.stringify({ accessToken: plain.token, user: plain.user }),
      );
      await page.goto('/audit-log');
      await heading(page, 'Access denied');
    },
  },
  {
    name: 'the login page after the session expired',
    fresh: true,
    open: async (page) => {
      await page.goto('/auth/login');
      await page.evaluate(() => localStorage.setItem('auth', '{"accessToken": "tampered"'));
      await page.reload();
      await page.getByText('Your session has expired. Please sign in again.').waitFor();
    },
  },
  {
    name: 'users (ADMIN)',
    open: async (page) => {
      await page.goto('/users');
      await heading(page, 'Users');
      await page.getByRole('button', { name: `Reset password ${admin.username}` }).waitFor();
    },
  },
  {
    name: 'users, Create user open',
    open: async (page) => {
      await page.goto('/users');
      await page.getByRole('button', { name: 'Create user' }).click();
      await page.getByRole('form', { name: 'Create user' }).getByLabel('Username').waitFor();
    },
  },
  {
    name: 'the login page after an ADMIN disabled the signed-in user',
    fresh: true,
    open: async (page) => {
      const plain = await createAccount(product.baseUrl, 'disabled');
      await page.goto('/auth/login');
      await page.evaluate(
        (auth) => localStorage.setItem('auth', auth),
        JSON.stringify({ accessToken: plain.token, user: plain.user }),
      );
      await page.goto('/');
      await heading(page, 'Dashboard');
      // The dashboard's own requests first: one answered 401 would end the session on this page, and
      // the reload below would then find no session, and no reason to give.
      await page.waitForLoadState('networkidle');
      await api(`/api/users/${plain.user._id}`, {
        method: 'PATCH',
        body: JSON.stringify({ disabled: true }),
      });
      // The next request (the notice list's) answers 401: the app says why at the login page.
      await page.goto('/forms/notice');
      await page.getByText('Your session has expired. Please sign in again.').waitFor();
      await heading(page, 'Login');
    },
  },
  {
    name: 'small screen with the navigation drawer open',
    viewport: { width: 390, height: 844 },
    open: async (page) => {
      await page.goto('/');
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('dialog', { name: 'Navigation menu' }).waitFor();
      // The panel slides in; check it once it is in place.
      await page.waitForTimeout(300);
    },
  },
];

/**
 * One tab per context, kept from screen to screen (each screen goes to its own address first): a new
 * tab is a new renderer process, which cost 1-2 s a screen on this machine, 45 screens a run.
 */
const tabs = new Map<BrowserContext, { page: Page; surprises: string[] }>();
async function tabIn(context: BrowserContext): Promise<{ page: Page; surprises: string[] }> {
  let tab = tabs.get(context);
  if (!tab || tab.page.isClosed()) {
    const page = await context.newPage();
    tab = { page, surprises: watchForSurprises(page) };
    tabs.set(context, tab);
  }
  tab.surprises.length = 0;
  return tab;
}

describe('accessibility: every screen passes axe (WCAG 2.1 A and AA) with no serious or critical violation', () => {
  it.each(screens)('$name', async (screen) => {
    const own = screen.fresh
      ? await browser.newContext({ baseURL: product.baseUrl, viewport: { width: 1280, height: 900 } })
      : null;
    const { page, surprises } = await tabIn(own ?? (screen.guest ? guestContext : adminContext));
    if (screen.viewport) await page.setViewportSize(screen.viewport);
    try {
      await screen.open(page);
      const violations = await seriousViolations(page);
      expect(describeViolations(violations)).toBe('');
      expect(surprises).toEqual([]);
    } finally {
      if (screen.viewport) await page.setViewportSize({ width: 1280, height: 900 });
      if (own) {
        tabs.delete(own);
        await own.close();
      }
    }
  });
});

/** The focused element's name as a person hears it: its aria-label, its label, or its text. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return '';
    const label = (element as HTMLInputElement).labels?.[0]?.textContent ?? '';
    return (element.getAttribute('aria-label') || label || element.textContent || '').trim();
  });

const focusIsInDialog = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('dialog') != null);

/** Presses Tab (or Shift+Tab) until the focused element has `name`; no pointer involved. */
async function tabTo(page: Page, name: string, { backwards = false, most = 80 } = {}) {
  const seen: string[] = [];
  for (let presses = 0; presses < most; presses += 1) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    const current = await focusedName(page);
    if (current === name) return;
    seen.push(current);
  }
  throw new Error(`Tab never reached '${name}'; it went through: ${seen.join(' | ')}`);
}

/** Types each field's value and Tabs on, checking focus is on the field the step lists next. */
async function typeStep(page: Page, fields: readonly FieldDefinition[], tag: string) {
  for (const [index, { key, label }] of fields.entries()) {
    expect(await focusedName(page)).toBe(label);
    await page.keyboard.type(`${key} ${tag}`);
    if (index < fields.length - 1) await page.keyboard.press('Tab');
  }
}

describe('keyboard only', () => {
  it('signs in, adds a notice through its 4 steps, and opens and closes dialogs, by keyboard alone', async () => {
    const context = await browser.newContext({
      baseURL: product.baseUrl,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    const surprises = watchForSurprises(page);
    try {
      await page.goto('/auth/login');
      await heading(page, 'Login');
      await tabTo(page, 'Username');
      await page.keyboard.type(admin.username);
      await page.keyboard.press('Tab');
      expect(await focusedName(page)).toBe('Password');
      await page.keyboard.type(admin.password);
      await page.keyboard.press('Enter');
      await heading(page, 'Dashboard');

      // The first stop on every signed-in page skips the navigation.
      await page.keyboard.press('Tab');
      expect(await focusedName(page)).toBe('Skip to content');
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

      await tabTo(page, 'Forms', { backwards: true });
      await page.keyboard.press('Enter');
      await tabTo(page, 'Assets');
      await page.keyboard.press('Enter');
      await heading(page, 'Notice Concialation');
      await tabTo(page, 'Add Notice');
      await page.keyboard.press('Enter');
      await heading(page, 'Add Notice');

      const [step1, step2, step3, step4] = noticeSteps;
      await tabTo(page, step1[0].label);
      await typeStep(page, step1, 'K');
      // The buttons in the order they show: Cancel at the start of the row, then Next.
      await page.keyboard.press('Tab');
      expect(await focusedName(page)).toBe('Cancel');
      await page.keyboard.press('Tab');
      expect(await focusedName(page)).toBe('Next');
      await page.keyboard.press('Space');
      await page.getByText('Step 2 of 4', { exact: true }).waitFor({ state: 'attached' });
      // The wizard takes focus to the new step's first field, and back again on Previous.
      await typeStep(page, step2, 'K');
      await tabTo(page, 'Previous');
      await page.keyboard.press('Enter');
      await page.getByText('Step 1 of 4', { exact: true }).waitFor({ state: 'attached' });
      expect(await focusedName(page)).toBe(step1[0].label);
      expect(await field(page, step1[0].label).inputValue()).toBe(`${step1[0].key} K`);
      // Enter in a field is Next.
      await page.keyboard.press('Enter');
      await page.getByText('Step 2 of 4', { exact: true }).waitFor({ state: 'attached' });
      expect(await focusedName(page)).toBe(step2[0].label);
      await page.keyboard.press('Enter');
      await page.getByText('Step 3 of 4', { exact: true }).waitFor({ state: 'attached' });
      await typeStep(page, step3, 'K');
      await page.keyboard.press('Enter');
      await page.getByText('Step 4 of 4', { exact: true }).waitFor({ state: 'attached' });
      await typeStep(page, step4, 'K');
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Notice Created Successfully.' }).waitFor();
      await heading(page, 'Notice Concialation');

      // The Import Excel modal: focus goes in, Escape closes it and focus comes back.
      await tabTo(page, 'Import Excel');
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Import Excel' }).waitFor();
      expect(await focusIsInDialog(page)).toBe(true);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Import Excel' }).waitFor({ state: 'hidden' });
      expect(await focusedName(page)).toBe('Import Excel');

      // The Delete All confirmation: starts on Cancel, keeps Tab inside, closes on Escape and on Cancel.
      await tabTo(page, 'Delete All');
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('dialog', { name: 'Are you sure you want to delete all notices?' });
      await confirm.waitFor();
      expect(await focusedName(page)).toBe('Cancel');
      await page.keyboard.press('Tab');
      expect(await focusedName(page)).toBe('Delete All');
      expect(await focusIsInDialog(page)).toBe(true);
      await page.keyboard.press('Tab');
      expect(await focusedName(page)).toBe('Cancel');
      await page.keyboard.press('Shift+Tab');
      expect(await focusIsInDialog(page)).toBe(true);
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'hidden' });
      expect(await focusedName(page)).toBe('Delete All');
      expect(await focusIsInDialog(page)).toBe(false);

      await page.keyboard.press('Space');
      await confirm.waitFor();
      expect(await focusedName(page)).toBe('Cancel');
      await page.keyboard.press('Enter');
      await confirm.waitFor({ state: 'hidden' });
      expect(await focusedName(page)).toBe('Delete All');
      // Nothing was deleted.
      await page
        .getByRole('cell', { name: `${step1.find(({ key }) => key === 'custName')!.key} K`, exact: true })
        .waitFor();
      expect(surprises).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('opens the navigation drawer of a small screen, keeps Tab in it, and closes it on Escape', async () => {
    const context = await signedInContext(browser, product.baseUrl, admin, {
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    try {
      await page.goto('/');
      await heading(page, 'Dashboard');
      await tabTo(page, 'Open menu');
      await page.keyboard.press('Enter');
      const drawer = page.getByRole('dialog', { name: 'Navigation menu' });
      await drawer.waitFor();
      expect(await focusedName(page)).toBe('Close menu');
      const insideDrawer = () => page.evaluate(() => document.activeElement?.closest('#nav-drawer') != null);
      for (let presses = 0; presses < 12; presses += 1) {
        await page.keyboard.press(presses % 3 === 2 ? 'Shift+Tab' : 'Tab');
        expect(await insideDrawer()).toBe(true);
      }
      await page.keyboard.press('Escape');
      expect(await focusedName(page)).toBe('Open menu');
      expect(await page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe(
        'false',
      );
    } finally {
      await context.close();
    }
  });
});
