import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditCardSteps } from '@notice-desk/contract/credit-card';
import { createAccount, signedInContext, type Account } from './accounts.ts';
import { launchBrowser, startProduct, watchForSurprises } from './harness.ts';

/**
 * Work is not lost when a session ends (issue 28). The server's sessions last 125 s (SESSION_TTL), so
 * the expiry notice, two minutes before the end, shows 5 s after signing in; the other tests sign in
 * with 'Remeber this Device' (REMEMBER_TTL, 30 days) and never see it.
 */
const SESSION_TTL_SECONDS = 125;

let product: Awaited<ReturnType<typeof startProduct>>;
let browser: Browser;

beforeAll(async () => {
  [product, browser] = await Promise.all([
    startProduct({ SESSION_TTL: `${SESSION_TTL_SECONDS}s` }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const api = (path: string, token: string, method = 'GET') =>
  fetch(`${product.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${token}` } });

/** An account signed in over the API as a remembered device (a 30-day token). */
async function rememberedAccount(prefix: string): Promise<Account> {
  const account = await createAccount(product.baseUrl, prefix);
  const login = await fetch(`${product.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: account.username, password: account.password, remember: true }),
  });
  const { token } = (await login.json()) as { token: string };
  return { ...account, token };
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const storedToken = (page: Page) =>
  page.evaluate(
    () => (JSON.parse(localStorage.getItem('auth') ?? '{}') as { accessToken?: string }).accessToken,
  );
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number; iat: number };

/** Fills the three credit-card steps, stopping on the last with Submit to press. */
async function fillCreditCard(page: Page, tag: string) {
  for (const [index, fields] of creditCardSteps.entries()) {
    for (const { key, label } of fields) await field(page, label).fill(`${key} ${tag}`);
    if (index < creditCardSteps.length - 1) await page.getByRole('button', { name: 'Next' }).click();
  }
}

describe('work is not lost when a session ends (issue 28)', () => {
  it('a submit refused with 401 keeps the form: sign-in opens over it and the submit goes on', async () => {
    const account = await rememberedAccount('reauth');
    const context = await signedInContext(browser, product.baseUrl, account);
    const page = await context.newPage();
    const surprises = watchForSurprises(page);
    await page.goto('/forms/credit-card/add-credit-card');
    await fillCreditCard(page, 'kept');

    // The session ends on the server meanwhile (a logout elsewhere): the token the page holds is dead.
    expect((await api('/api/auth/logout', account.token, 'POST')).status).toBe(200);
    expect((await api('/api/dashboard', account.token)).status).toBe(401);

    await page.getByRole('button', { name: 'Submit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Login' });
    await dialog.getByText('Your session has expired. Please sign in again.').waitFor();
    // Still on the form, with what was typed.
    expect(page.url()).toContain('/forms/credit-card/add-credit-card');
    const lastField = creditCardSteps.at(-1)![0]!;
    expect(await field(page, lastField.label).inputValue()).toBe(`${lastField.key} kept`);

    await dialog.getByLabel('Username').fill(account.username);
    await dialog.getByLabel('Password').fill(account.password);
    await dialog.getByText('Remeber this Device').click();
    await dialog.getByRole('button', { name: 'Login' }).click();
    await page.getByText('User Login Successfully').waitFor();
    // The submit went on with the new token: saved once, and the list shows it.
    await page.getByText('Credit Card Created Successfully.').waitFor();
    await page.waitForURL('**/forms/credit-card');
    const token = await storedToken(page);
    expect(token).toBeTruthy();
    expect(token).not.toBe(account.token);
    const list = (await (await api('/api/credit-cards/by-user-id?page=1&limit=10', token!)).json()) as {
      total: number;
    };
    expect(list.total).toBe(1);

    // Logout ends the session on the server: the token, copied before, stops working.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByText('Logged out successfully.').waitFor();
    await page.waitForURL('**/auth/login');
    expect((await api('/api/dashboard', token!)).status).toBe(401);
    expect(surprises).toEqual([]);
    await context.close();
  });

  it('keeps a wizard draft per user in the browser until it is submitted or discarded', async () => {
    const asha = await rememberedAccount('draft');
    const context = await signedInContext(browser, product.baseUrl, asha);
    const page = await context.newPage();
    const surprises = watchForSurprises(page);
    await page.goto('/forms/credit-card/add-credit-card');
    const [first] = creditCardSteps[0]!;
    await field(page, first!.label).fill('typed before the tab closed');
    await page.reload();
    await page.getByText('Your unsaved draft is restored.').waitFor();
    expect(await field(page, first!.label).inputValue()).toBe('typed before the tab closed');

    // Another user on the same browser starts with an empty form.
    const ravi = await rememberedAccount('other');
    await page.evaluate(
      (auth) => localStorage.setItem('auth', auth),
      JSON.stringify({ accessToken: ravi.token, user: ravi.user }),
    );
    await page.reload();
    await field(page, first!.label).waitFor();
    expect(await field(page, first!.label).inputValue()).toBe('');
    expect(await page.getByText('Your unsaved draft is restored.').count()).toBe(0);

    // Back as the first user: the draft is there, and Discard draft empties the form for good.
    await page.evaluate(
      (auth) => localStorage.setItem('auth', auth),
      JSON.stringify({ accessToken: asha.token, user: asha.user }),
    );
    await page.reload();
    await page.getByText('Your unsaved draft is restored.').waitFor();
    await page.getByRole('button', { name: 'Discard draft' }).click();
    expect(await field(page, first!.label).inputValue()).toBe('');
    await page.reload();
    await field(page, first!.label).waitFor();
    expect(await field(page, first!.label).inputValue()).toBe('');
    expect(await page.getByText('Your unsaved draft is restored.').count()).toBe(0);
    expect(surprises).toEqual([]);
    await context.close();
  });

  it('two minutes before the session ends, offers to stay signed in, which renews the token', async () => {
    // Signed in without remembering: a 125 s session, so the notice shows after 5 s.
    const account = await createAccount(product.baseUrl, 'expiry');
    const context = await signedInContext(browser, product.baseUrl, account);
    const page = await context.newPage();
    const surprises = watchForSurprises(page);
    await page.goto('/');
    const notice = page.getByRole('alert').filter({ hasText: 'Your session ends at' });
    await notice.waitFor({ timeout: 30_000 });
    await notice.getByRole('button', { name: 'Stay signed in' }).click();
    await page.getByText('You are still signed in.').waitFor();
    await notice.waitFor({ state: 'detached' });
    const renewed = await storedToken(page);
    expect(renewed).toBeTruthy();
    const claims = claimsOf(renewed!);
    expect(claims.exp - claims.iat).toBe(SESSION_TTL_SECONDS);
    expect(claims.exp).toBeGreaterThan(claimsOf(account.token).exp);
    expect((await api('/api/dashboard', renewed!)).status).toBe(200);
    expect(surprises).toEqual([]);
    await context.close();
  });
});
