import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignList } from '@notice-desk/contract/campaigns';
import { creditCardFields } from '@notice-desk/contract/credit-card';
import { noticeFields } from '@notice-desk/contract/notice';
import type { FieldDefinition } from '@notice-desk/contract/record-fields';
import { createRecord, openAsNewAccount, type Account } from './accounts.ts';
import { downloadedBytes, launchBrowser, startProduct } from './harness.ts';

let product: Awaited<ReturnType<typeof startProduct>>;
let browser: Browser;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const sample = (fields: readonly FieldDefinition[], overrides: Record<string, string>) => ({
  ...Object.fromEntries(fields.map(({ key }) => [key, `${key} E`])),
  ...overrides,
});

async function call(account: Account, path: string, init: RequestInit = {}) {
  const answer = await fetch(`${product.baseUrl}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${account.token}`,
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
    },
  });
  if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
  return answer.json() as Promise<unknown>;
}

/** Clicks and answers the saved file's suggested name and first two bytes. */
async function downloadBy(page: Page, click: () => Promise<void>) {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), click()]);
  const bytes = await downloadedBytes(file);
  return { name: file.suggestedFilename(), magic: bytes.subarray(0, 2).toString('latin1') };
}

const evidenceButton = (page: Page) => page.getByRole('button', { name: /^Download evidence/ });

describe('evidence bundles', () => {
  it('downloads the zip of a notice, a credit card and a campaign from their screens', async () => {
    const { account, context, page, surprises } = await openAsNewAccount(
      browser,
      product.baseUrl,
      'evidence',
    );
    const notice = await createRecord(
      product.baseUrl,
      account,
      '/api/notices',
      sample(noticeFields, { custName: 'Ravi Kumar', emailId: 'ravi@example.com', modeOfDispatch: 'Email' }),
    );
    const creditCard = await createRecord(
      product.baseUrl,
      account,
      '/api/credit-cards',
      sample(creditCardFields, {
        custName: 'Asha Rao',
        emailId: 'asha@example.com',
        custMobileNo: '9800000002',
      }),
    );
    await call(account, '/api/campaigns/send-mail', {
      method: 'POST',
      body: JSON.stringify({ data: [notice._id], type: 'notice' }),
    });

    await page.goto(`/forms/notice/edit-notice/${notice._id}`);
    const noticeZip = await downloadBy(page, () => evidenceButton(page).click());
    expect(noticeZip.name).toMatch(/\.zip$/);
    expect(noticeZip.magic).toBe('PK');

    await page.goto(`/forms/credit-card/edit-credit-card/${creditCard._id}`);
    const creditCardZip = await downloadBy(page, () => evidenceButton(page).click());
    expect(creditCardZip.magic).toBe('PK');

    const campaigns = (await call(account, '/api/campaigns/notice?page=1&limit=10')) as CampaignList;
    await page.goto(`/campaign/notice/${campaigns.items[0]!._id}`);
    await page.getByRole('cell', { name: 'Ravi Kumar', exact: true }).waitFor();
    const campaignZip = await downloadBy(page, () => evidenceButton(page).click());
    expect(campaignZip.name).toMatch(/\.zip$/);
    expect(campaignZip.magic).toBe('PK');

    expect(surprises).toEqual([]);
    await context.close();
  });

  it("shows the server's message when the bundle cannot be made", async () => {
    const { account, context, page, surprises } = await openAsNewAccount(
      browser,
      product.baseUrl,
      'evidence-gone',
    );
    const notice = await createRecord(
      product.baseUrl,
      account,
      '/api/notices',
      sample(noticeFields, { custName: 'Gone Soon' }),
    );
    await page.goto(`/forms/notice/edit-notice/${notice._id}`);
    await evidenceButton(page).waitFor();
    // Deleted elsewhere while the screen is open.
    await call(account, `/api/notices/${notice._id}`, { method: 'DELETE' });

    await evidenceButton(page).click();

    const toast = page.getByRole('status').filter({ hasText: /not found/i });
    await toast.waitFor();
    expect(await toast.textContent()).not.toContain('could not be downloaded');
    await expect.poll(() => evidenceButton(page).isEnabled()).toBe(true);
    expect(surprises).toEqual([]);
    await context.close();
  });
});
