import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceRecord } from '@notice-desk/contract/evidence';
import { noticeFields } from '@notice-desk/contract/notice';
import { pdftotext } from '../../server/src/test/pdf-text.ts';
import { startSmtpListener, startWhatsappPeer } from '../../server/src/test/peers.ts';
import { createTestPki } from '../../server/src/test/signing-certs.ts';
import { unzip } from '../../server/src/test/zip.ts';
import { createAccount, createRecord, signedInContext, type Account } from './accounts.ts';
import { describeViolations, seriousViolations } from './axe.ts';
import { downloadedBytes, launchBrowser, startProduct, watchForSurprises } from './harness.ts';

const SCREENSHOTS = path.resolve(import.meta.dirname, 'screenshots/readme');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const FIRM = { name: 'Mehta & Rao, Advocates', address: '12 MG Road, Pune 411001' };

let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let whatsapp: Awaited<ReturnType<typeof startWhatsappPeer>>;
let product: Awaited<ReturnType<typeof startProduct>>;
let browser: Browser;
/** A throwaway CA and signing certificate: the notices are signed, as the verification page expects. */
const pkiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-page-pki-'));

beforeAll(async () => {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  [smtp, whatsapp, browser] = await Promise.all([startSmtpListener(), startWhatsappPeer(), launchBrowser()]);
  product = await startProduct({
    NOTICE_SIGNING_P12: createTestPki(pkiDir).p12().toString('base64'),
    NOTICE_SIGNING_PASSWORD: 'p12-pass',
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: whatsapp.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_MODE: 'session',
    FIRM_NAME: FIRM.name,
    FIRM_ADDRESS: FIRM.address,
    UPI_PAYEE_VPA: 'mehtarao@upi',
    CALL_US_NUMBER: '+91 20 4000 1234',
  });
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
  await smtp?.close();
  await whatsapp?.close();
  fs.rmSync(pkiDir, { recursive: true, force: true });
});

/** Waits until `find` answers something (the messages arrive after the send's answer). */
async function eventually<T>(find: () => T | undefined, what: string, timeout = 30_000): Promise<T> {
  await expect.poll(find, { timeout, message: what }).toBeDefined();
  return find()!;
}

/** The page's path and query out of a message's link: the server's APP_URL names another host. */
const pagePath = (text: string, channel: 'e' | 'w') => {
  const link = new RegExp(`/n/[A-Za-z0-9_-]{22}\\?c=${channel}`).exec(text);
  expect(link, `a notice page link (c=${channel}) in ${text.slice(0, 200)}`).not.toBeNull();
  return link![0];
};

/** Opens the link on a phone-sized page and answers the check. */
async function openAndAnswer(page: Page, link: string) {
  await page.goto(link);
  await page.getByText(FIRM.name).waitFor();
  const digits = page.getByLabel('Last four digits of your registered mobile number');
  expect(await digits.getAttribute('inputmode')).toBe('numeric');
  expect(await digits.getAttribute('autocomplete')).toBe('off');
  // A forwarded link shows nothing about the debt before the check.
  expect(await page.getByText('Ravi Kumar').count()).toBe(0);
  await digits.fill('4321');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByText('Ravi Kumar').waitFor();
}

/** No serious or critical WCAG 2.1 AA violation on the page as it stands. */
async function expectAccessible(page: Page) {
  const violations = await seriousViolations(page);
  expect(violations, describeViolations(violations)).toEqual([]);
}

/** The layout shift so far (CLS without session windows), read from Chromium's layout-shift entries. */
const layoutShift = (page: Page) =>
  page.evaluate(async () => {
    let shift = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shift += (entry as unknown as { value: number }).value;
    });
    observer.observe({ type: 'layout-shift', buffered: true });
    // Buffered entries arrive with the next frames.
    await new Promise(requestAnimationFrame);
    await new Promise(requestAnimationFrame);
    for (const entry of observer.takeRecords()) shift += (entry as unknown as { value: number }).value;
    observer.disconnect();
    return shift;
  });

/** Downloads the PDF from the page and answers its SHA-256. */
async function downloadPdf(page: Page) {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 30_000 }),
    page.getByRole('button', { name: 'Download the notice (PDF)' }).click(),
  ]);
  const bytes = await downloadedBytes(file);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

async function sendNotice(account: Account, changes: Record<string, string> = {}) {
  const notice = await createRecord(product.baseUrl, account, '/api/notices', {
    ...Object.fromEntries(noticeFields.map(({ key }) => [key, `${key} N`])),
    custName: 'Ravi Kumar',
    loanNo: 'LN-2026-0077',
    totalOverdueAmt: '123456',
    emailId: 'ravi@example.com',
    custMobileNo: '9876504321',
    modeOfDispatch: 'Email and WhatsApp',
    language: 'en',
    ...changes,
  });
  const sent = await fetch(`${product.baseUrl}/api/campaigns/send-mail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${account.token}` },
    body: JSON.stringify({ data: [notice._id], type: 'notice' }),
  });
  expect(sent.status, await sent.clone().text()).toBe(200);
  return notice;
}

/**
 * The verification page of the served notice (issue 30), on a phone: what it says of the notice, then
 * the served file dropped on it, and a copy with one byte changed.
 */
async function verifyOnPhone(page: Page, served: Buffer, servedSha: string) {
  const code = /\/v\/([A-Za-z0-9_-]{22})/.exec((await pdftotext(served)).replace(/\s+/g, ''))![1]!;
  await page.goto(`/v/${code}`);
  const facts = page.locator('dl');
  await facts.getByText(FIRM.name).waitFor();
  const shown = await facts.innerText();
  expect(shown).toContain('Loan ending ••••0077');
  expect(shown).toMatch(
    /\d\d-\d\d-\d{4} \d\d:\d\d:\d\d IST\s+by (e-mail and WhatsApp|WhatsApp and e-mail)$/m,
  );
  expect(shown).toContain('Valid, signed by Advocate Asha Rao');
  await page.getByText(servedSha).waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  const file = page.getByLabel('The notice PDF to check');
  await file.setInputFiles({ name: 'notice.pdf', mimeType: 'application/pdf', buffer: served });
  await page
    .getByText(
      /^This is the notice served on \d\d-\d\d-\d{4} by (e-mail and WhatsApp|WhatsApp and e-mail)\.$/,
    )
    .waitFor();
  const changed = Buffer.from(served);
  const at = Math.floor(changed.length / 2);
  changed[at] = changed[at]! ^ 0x01;
  await file.setInputFiles({ name: 'changed.pdf', mimeType: 'application/pdf', buffer: changed });
  await page.getByText('This file is not a notice we served.').waitFor();
  await page.getByText(/^Signature: Not valid/).waitFor();
}

describe('the notice page (issue 29)', () => {
  it('follows the e-mail and WhatsApp links at 390 px: check, PDF, acknowledge, dispute, the verification page, then the Responses screen', async () => {
    const account = await createAccount(product.baseUrl, 'page');
    const notice = await sendNotice(account);

    const mail = await eventually(
      () => smtp.mails.find(({ to }) => to.includes('ravi@example.com')),
      'the e-mail',
    );
    const message = await eventually(
      () => whatsapp.messages.find(({ to }) => to.endsWith('9876504321')),
      'the WhatsApp message',
    );
    const parsed = await simpleParser(mail.raw);
    const attached = parsed.attachments.find(({ contentType }) => contentType === 'application/pdf');
    expect(attached).toBeDefined();
    const servedSha = createHash('sha256').update(attached!.content).digest('hex');
    const mailLink = pagePath(String(parsed.html), 'e');
    const whatsappLink = pagePath(message.caption ?? '', 'w');
    // One page per record: the same code in both messages, each naming its channel.
    expect(mailLink.slice(0, -4)).toBe(whatsappLink.slice(0, -4));

    // The e-mail's link, on a phone: the check, the very PDF that was mailed, and the acknowledgement.
    const phone = await browser.newContext({
      baseURL: product.baseUrl,
      viewport: PHONE,
      acceptDownloads: true,
    });
    const byMail = await phone.newPage();
    const mailSurprises = watchForSurprises(byMail);
    await byMail.goto(mailLink);
    await byMail.getByLabel('Last four digits of your registered mobile number').waitFor();
    // The steps load into a card that holds its height: nothing on a slow phone jumps.
    expect(await layoutShift(byMail)).toBeLessThan(0.01);
    await expectAccessible(byMail);
    await openAndAnswer(byMail, mailLink);
    await byMail.getByText('••••0077').waitFor();
    await byMail.getByText('₹1,23,456.00').waitFor();
    expect(await byMail.getByText(servedSha).count()).toBe(1);
    expect((await downloadPdf(byMail)).sha256).toBe(servedSha);
    // No wider than the phone: nothing to scroll sideways.
    expect(await byMail.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await byMail.getByRole('button', { name: 'I have received this notice' }).click();
    await byMail
      .getByText(/^Thank you\. We recorded that you received this notice on \d\d-\d\d-\d{4} \d\d:\d\d IST\.$/)
      .waitFor();
    await byMail.screenshot({ path: path.join(SCREENSHOTS, 'notice-page-390.png'), fullPage: true });
    expect(mailSurprises).toEqual([]);

    // The WhatsApp link: a wrong answer first, then the dispute with the notice itself attached.
    const byWhatsapp = await phone.newPage();
    const whatsappSurprises = watchForSurprises(byWhatsapp);
    await byWhatsapp.goto(whatsappLink);
    await byWhatsapp.getByLabel('Last four digits of your registered mobile number').fill('1111');
    await byWhatsapp.getByRole('button', { name: 'Continue' }).click();
    await byWhatsapp.getByText('Those digits do not match our records. Check them and try again.').waitFor();
    await byWhatsapp.getByLabel('Last four digits of your registered mobile number').fill('4321');
    await byWhatsapp.getByRole('button', { name: 'Continue' }).click();
    await byWhatsapp.getByText('Ravi Kumar').waitFor();
    const pdf = await downloadPdf(byWhatsapp);
    expect(pdf.sha256).toBe(servedSha);
    await byWhatsapp.getByRole('button', { name: 'I dispute this' }).click();
    await expectAccessible(byWhatsapp);
    const disputeText = 'I paid the dues on 2 March. <b>Receipt attached</b>';
    await byWhatsapp.getByLabel('Why do you dispute this notice?').fill(disputeText);
    await byWhatsapp
      .getByLabel('Attach a document (optional)')
      .setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: pdf.bytes });
    await byWhatsapp.getByRole('button', { name: 'Send my dispute' }).click();
    await byWhatsapp.getByText(/^We received your dispute on \d\d-\d\d-\d{4} \d\d:\d\d IST\./).waitFor();
    await verifyOnPhone(byWhatsapp, attached!.content, servedSha);
    expect(whatsappSurprises).toEqual([]);
    await phone.close();

    // A desktop: the UPI link as a QR code to scan.
    const desktop = await browser.newContext({ baseURL: product.baseUrl, viewport: DESKTOP });
    const wide = await desktop.newPage();
    await openAndAnswer(wide, mailLink);
    // Acknowledged earlier: the page says so instead of offering the button.
    await wide.getByText(/We recorded that you received this notice on/).waitFor();
    await wide.getByRole('button', { name: 'I want to settle / pay' }).click();
    await wide.getByRole('img', { name: 'Pay with a UPI app' }).waitFor();
    await wide.screenshot({ path: path.join(SCREENSHOTS, 'notice-page-1440.png'), fullPage: true });
    await desktop.close();

    // The staff find the dispute, as text, with its file, on the Responses screen.
    const staff = await signedInContext(browser, product.baseUrl, account);
    const responses = await staff.newPage();
    const staffSurprises = watchForSurprises(responses);
    await responses.goto('/responses');
    await responses.getByRole('heading', { level: 1, name: 'Responses' }).waitFor();
    const dispute = responses.getByRole('row').filter({ hasText: disputeText });
    await dispute.waitFor();
    expect(await dispute.getByRole('cell').nth(1).textContent()).toBe('Dispute');
    const [file] = await Promise.all([
      responses.waitForEvent('download', { timeout: 30_000 }),
      dispute.getByRole('button', { name: /^Download/ }).click(),
    ]);
    expect(
      createHash('sha256')
        .update(await downloadedBytes(file))
        .digest('hex'),
    ).toBe(servedSha);
    await responses.getByRole('row').filter({ hasText: 'Settle / pay' }).waitFor();
    await dispute.getByRole('button', { name: /^Mark handled/ }).click();
    await dispute.getByText(new RegExp(`^Handled by .+ on \\d\\d-\\d\\d-\\d{4} \\d\\d:\\d\\d$`)).waitFor();
    await expectAccessible(responses);
    // On a phone each response is a card, every action in view and nothing to scroll sideways.
    await responses.setViewportSize(PHONE);
    await responses
      .getByRole('button', { name: /^Mark handled/ })
      .first()
      .waitFor();
    expect(await responses.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await expectAccessible(responses);
    expect(staffSurprises).toEqual([]);
    await staff.close();

    // The receipt as the staff's tools see it: the campaign's filters, the evidence bundle, the report.
    const api = async (url: string) => {
      const answer = await fetch(`${product.baseUrl}${url}`, {
        headers: { authorization: `Bearer ${account.token}` },
      });
      expect(answer.status, url).toBe(200);
      return Buffer.from(await answer.arrayBuffer());
    };
    const campaign = `/api/campaigns/single-campaign/${notice.campaignId}`;
    for (const status of ['opened', 'acknowledged', 'disputed'])
      expect(JSON.parse((await api(`${campaign}?status=${status}`)).toString()).total, status).toBe(1);
    const bundle = await unzip(await api(`/api/notices/${notice._id}/evidence`));
    const evidence = JSON.parse(bundle.find(({ name }) => name === 'deliveries.json')!.data.toString());
    const [record] = evidence.records as EvidenceRecord[];
    const events = record!.noticePage.events.map(({ event, channel }) => `${event}/${channel}`);
    for (const seen of ['link_opened/email', 'verified/email', 'pdf_viewed/email', 'acknowledged/email'])
      expect(events, events.join(' ')).toContain(seen);
    for (const seen of ['check_failed/whatsapp', 'verified/whatsapp', 'disputed/whatsapp'])
      expect(events, events.join(' ')).toContain(seen);
    expect(record!.noticePage.responses.map(({ kind, text }) => [kind, text])).toContainEqual([
      'dispute',
      disputeText,
    ]);
    // The first answered check is the receipt (IT Act s.13: the addressee retrieved it).
    expect(record!.service.servedBy).toBe('notice page: verified');
    const report = await unzip(
      await api(`/api/campaigns/export-reports/notice?campaignid=${notice.campaignId}`),
    );
    // The report writes its strings inline, in the sheet itself.
    const strings = report
      .filter(({ name }) => name.startsWith('xl/'))
      .map(({ data }) => data.toString())
      .join('');
    for (const column of ['Served On (Asia/Kolkata)', 'Served By', 'Respond By', 'notice page: verified'])
      expect(strings).toContain(column);
  });

  it("speaks the notice's language: Hindi words in the bundled Devanagari face, one weight only", async () => {
    const account = await createAccount(product.baseUrl, 'hindi');
    await sendNotice(account, { emailId: 'sunita@example.com', modeOfDispatch: 'Email', language: 'hi' });
    const mail = await eventually(
      () => smtp.mails.find(({ to }) => to.includes('sunita@example.com')),
      'the e-mail',
    );
    const link = pagePath(String((await simpleParser(mail.raw)).html), 'e');

    const phone = await browser.newContext({ baseURL: product.baseUrl, viewport: PHONE });
    const page = await phone.newPage();
    const surprises = watchForSurprises(page);
    const cdp = await phone.newCDPSession(page);
    await cdp.send('Network.enable');
    const fonts: string[] = [];
    cdp.on('Network.responseReceived', ({ response }) => {
      if (response.url.endsWith('.woff2')) fonts.push(response.url);
    });
    await page.goto(link);
    const title = page.getByRole('heading', { level: 1, name: 'आपका नोटिस' });
    await title.waitFor();
    await page.getByLabel('आपके पंजीकृत मोबाइल नंबर के अंतिम चार अंक').waitFor();

    // Drawn in the face, not as boxes: Chromium kept boxes for text shaped while the face loaded.
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'h1' });
    const drawnWith = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    // The face draws the letters; the system font at most the space between the two words.
    const glyphs = Object.fromEntries(
      drawnWith.fonts.map(({ familyName, glyphCount }) => [familyName, glyphCount]),
    );
    expect(glyphs['Noto Sans Devanagari']).toBeGreaterThanOrEqual(8);
    expect(drawnWith.fonts.filter(({ isCustomFont, glyphCount }) => !isCustomFont && glyphCount > 1)).toEqual(
      [],
    );
    expect(
      fonts.map((url) =>
        url
          .split('/')
          .pop()!
          .replace(/-[\w-]{8}\.woff2$/, ''),
      ),
    ).toEqual(['noto-sans-devanagari-devanagari-400-normal']);
    expect(surprises).toEqual([]);
    await phone.close();
  });
});
