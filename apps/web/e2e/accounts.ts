import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { watchForSurprises } from './harness.ts';

export type Account = { username: string; password: string; token: string; user: Record<string, string> };

const postJson = (url: string, body: object, token?: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });

let counter = 0;
/** A fresh user name per call, so tests sharing one server never meet. */
export const uniqueUsername = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;

/** Signs an account up and in over the API (what the UI does, without spending browser time on it). */
export async function createAccount(baseUrl: string, prefix: string): Promise<Account> {
  const username = uniqueUsername(prefix);
  const password = 'pass-word-1';
  const registered = await postJson(`${baseUrl}/api/auth/register`, {
    name: `${prefix} user`,
    username,
    password,
  });
  if (!registered.ok) throw new Error(`register answered ${registered.status}`);
  const login = await postJson(`${baseUrl}/api/auth/login`, { username, password });
  const { token, user } = (await login.json()) as { token: string; user: Record<string, string> };
  return { username, password, token, user };
}

/** A browser context already signed in as `account`: the session sits in localStorage as the app keeps it. */
export function signedInContext(
  browser: Browser,
  baseUrl: string,
  account: Account,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const auth = JSON.stringify({ accessToken: account.token, user: account.user });
  return browser.newContext({
    ...options,
    baseURL: baseUrl,
    storageState: {
      cookies: [],
      origins: [{ origin: baseUrl, localStorage: [{ name: 'auth', value: auth }] }],
    },
  });
}

/** Stores a record over the API, as a quicker way to have rows to delete. */
export async function createRecord(baseUrl: string, account: Account, path: string, body: object) {
  const answer = await postJson(`${baseUrl}${path}`, body, account.token);
  if (answer.status !== 201) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as Record<string, string>;
}

/** A signed-in page of a new account, with dialogs and page errors watched. */
export async function openAsNewAccount(browser: Browser, baseUrl: string, prefix: string) {
  const account = await createAccount(baseUrl, prefix);
  const context = await signedInContext(browser, baseUrl, account);
  const page = await context.newPage();
  const surprises = watchForSurprises(page);
  return { account, context, page, surprises };
}
