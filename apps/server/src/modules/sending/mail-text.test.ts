import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { startSmtpListener } from '../../test/peers.ts';
import { noticeKind } from '../records/record-kinds.ts';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let admin: SignedIn;

beforeAll(async () => {
  smtp = await startSmtpListener();
  t = await createTestApp({ SMTP_URL: smtp.url });
  admin = await signUp(t.app, 'admin');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });

async function setTemplate(key: string, html: string) {
  const templates = (await call('GET', '/api/emailTemplates/getdata?limit=100')).json().items;
  const template = templates.find((candidate: { key: string }) => candidate.key === key);
  const saved = await call('PUT', `/api/emailTemplates/update/${template._id}`, { html });
  expect(saved.statusCode, saved.body).toBe(200);
}

describe('a notice e-mail', () => {
  it('has a text part read out of its HTML: entities decoded, no tags, styles or images, values as they are', async () => {
    await setTemplate('email-subject-notice', 'Notice for {{custName}} & {{loanNo}}');
    await setTemplate(
      'email-body-notice',
      '<style>p { color: red; }</style><p>Dear {{custName}},</p><p>Loan&nbsp;{{loanNo}} &amp; its <b>interest</b> are due.<br><img src="data:image/png;base64,AAAA" alt="logo"></p>',
    );
    const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-1`]));
    const created = await call('POST', '/api/notices', {
      ...fields,
      custName: 'Asha & Sons "Rao"',
      loanNo: 'LN-7',
      emailId: 'asha@example.com',
      modeOfDispatch: 'Email',
    });
    expect(created.statusCode, created.body).toBe(201);
    const sent = await call('POST', '/api/campaigns/send-mail', {
      data: [created.json()._id],
      type: 'notice',
    });
    expect(sent.json(), sent.body).toMatchObject({ sent: 1 });

    const [mail] = smtp.mails;
    // A text/plain part of its own: mailparser would otherwise make `text` out of the HTML itself.
    expect(mail!.raw).toMatch(/^Content-Type: text\/plain/im);
    const parsed = await simpleParser(mail!.raw);
    const text = parsed.text!;
    expect(text).toContain('Dear Asha & Sons "Rao",');
    // The no-break space stays one: it reads as a space and keeps "Loan" beside its number.
    expect(text).toContain('Loan\u00a0LN-7 & its interest are due.');
    expect(text).not.toMatch(/&(amp|nbsp|lt|gt|quot|#\d+);/);
    expect(text).not.toMatch(/[<>]/);
    expect(text).not.toMatch(/color: red|data:image|logo/);
    // The HTML part keeps the values escaped; the subject, plain text, does not escape them.
    expect(parsed.html).toContain('Dear Asha &amp; Sons &quot;Rao&quot;,');
    expect(parsed.html).toContain('Loan&nbsp;LN-7 &amp; its <b>interest</b>');
    expect(parsed.subject).toBe('Notice for Asha & Sons "Rao" & LN-7');
  });
});
