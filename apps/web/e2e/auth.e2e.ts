import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, signedInContext, uniqueUsername } from './accounts.ts';
import { launchBrowser, startProduct, watchForSurprises } from './harness.ts';

let product: Awaited<ReturnType<typeof startProduct>>;
let browser: Browser;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('signing in (issue 2)', () => {
  it('signs up, logs in to /, changes the password, logs out, and logs in with the new password', async () => {
    const context = await browser.newContext({ baseURL: product.baseUrl });
    const page = await context.newPage();
    const surprises = watchForSurprises(page);
    const username = uniqueUsername('asha');

    await page.goto('/auth/sign-up');
    await page.getByLabel('Name', { exact: true }).fill('Asha Rao');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('first-secret');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('User Created Successfully!').waitFor();
    await page.waitForURL('**/auth/login');

    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('first-secret');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('User Login Successfully').waitFor();
    await page.waitForURL(`${product.baseUrl}/`);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    await page.getByRole('link', { name: 'Change Password' }).click();
    await page.waitForURL('**/change-password');
    const oldPassword = page.getByPlaceholder('Old Password');
    const newPassword = page.getByPlaceholder('New Password', { exact: true });
    const confirmPassword = page.getByPlaceholder('Confirm New Password');
    await oldPassword.fill('first-secret');
    await newPassword.fill('second-secret');
    await confirmPassword.fill('second-secreT');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('New password and confirm password do not match.').waitFor();

    await confirmPassword.fill('second-secret');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('New password and confirm password do not match.').waitFor({ state: 'detached' });
    // The answer comes after two scrypt hashes: on a busy machine that is more than a poll's second.
    await page.getByText('Password updated successfully.').waitFor();
    expect(await oldPassword.inputValue()).toBe('');
    expect(await newPassword.inputValue()).toBe('');
    expect(await confirmPassword.inputValue()).toBe('');

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByText('Logged out successfully.').waitFor();
    await page.waitForURL('**/auth/login');
    expect(await page.evaluate(() => localStorage.getItem('auth'))).toBeNull();

    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('second-secret');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${product.baseUrl}/`);

    expect(surprises).toEqual([]);
    await context.close();
  });

  it('sends an anonymous visitor to /auth/login and a signed-in user away from it', async () => {
    const anonymous = await browser.newContext({ baseURL: product.baseUrl });
    const page = await anonymous.newPage();
    const surprises = watchForSurprises(page);
    await page.goto('/forms/notice');
    await page.waitForURL('**/auth/login');
    await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
    expect(surprises).toEqual([]);
    await anonymous.close();

    const account = await createAccount(product.baseUrl, 'ravi');
    const signedIn = await signedInContext(browser, product.baseUrl, account);
    const userPage = await signedIn.newPage();
    const userSurprises = watchForSurprises(userPage);
    await userPage.goto('/auth/login');
    await userPage.waitForURL(`${product.baseUrl}/`);
    await userPage.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(userSurprises).toEqual([]);
    await signedIn.close();
  });

  it('serves the app for a deep link, which then explains an unknown record', async () => {
    const answer = await fetch(`${product.baseUrl}/forms/notice/edit-notice/abc`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('<div id="root">');

    const account = await createAccount(product.baseUrl, 'deep');
    const context = await signedInContext(browser, product.baseUrl, account);
    const page = await context.newPage();
    const surprises = watchForSurprises(page);
    await page.goto('/forms/notice/edit-notice/abc');
    await page.getByRole('heading', { level: 1, name: 'Edit Notice' }).waitFor();
    await page.getByText('Notice not found.', { exact: false }).waitFor();
    expect(surprises).toEqual([]);
    await context.close();
  });

  it('on a small screen opens the drawer with the menu button and closes it on a tap outside', async () => {
    const account = await createAccount(product.baseUrl, 'mobile');
    const context = await signedInContext(browser, product.baseUrl, account, {
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    const page = await context.newPage();
    const surprises = watchForSurprises(page);
    await page.goto('/');
    const drawer = page.getByRole('dialog', { name: 'Navigation menu' });
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    expect(await drawer.isVisible()).toBe(false);

    await menuButton.tap();
    await drawer.waitFor({ state: 'visible' });
    expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
    const panel = await drawer.boundingBox();
    expect(panel && panel.width).toBeLessThan(390);

    // Right of the panel is the backdrop.
    await page.touchscreen.tap(375, 420);
    await drawer.waitFor({ state: 'hidden' });
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
    expect(surprises).toEqual([]);
    await context.close();
  });
});
