import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/app.ts';
import { noticeKind } from './modules/records/record-kinds.ts';

/** Drives the flows that carry secrets with request logging on, and greps what was logged. */
describe('request logs', () => {
  let t: TestApp;
  let logged = '';
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });
  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream });
  });
  afterAll(async () => t.close());

  it('hold no password, session token, reset token or link signature', async () => {
    const password = 'Very-Secret-Pa55word';
    const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url, payload, headers });
    await post('/api/auth/register', { name: 'Asha', username: 'asha@example.com', password });
    const { token } = (await post('/api/auth/login', { username: 'asha@example.com', password })).json();
    const auth = { authorization: `Bearer ${token}` };
    await post('/api/auth/login', { username: 'asha@example.com', password: `${password}-wrong` });
    await post(
      '/api/dashboard/change-password',
      { oldPassword: password, newPassword: `${password}-2` },
      auth,
    );
    const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-1`]));
    await post('/api/notices', fields, auth);
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/notices/by-user-id', headers: auth })
    ).json();
    const signature = /signature=([^&]+)/.exec(list.items[0].pdfLink)![1]!;
    await t.app.inject({
      method: 'GET',
      url: `${list.pdfUrl}${list.items[0].pdfLink.replace(/signature=[^&]+/, 'signature=tampered')}`,
    });
    await t.app.inject({
      method: 'GET',
      url: `${list.pdfUrl}${list.items[0].pdfLink}`.replace(/expires=\d+/, 'expires=1'),
    });

    // Last: a reset ends the sessions opened before it.
    await post('/api/auth/forgot-password', { email: 'asha@example.com' });
    await t.app.settled();
    const outbox = path.join(t.config.dataDir, 'outbox');
    const mail = fs
      .readFileSync(path.join(outbox, fs.readdirSync(outbox)[0]!), 'utf8')
      .replace(/=\r?\n/g, '');
    const resetToken = /reset-password\/([A-Za-z0-9_-]+)/.exec(mail)![1]!;
    await t.app.inject({
      method: 'PUT',
      url: `/api/auth/reset-password/${resetToken}`,
      payload: { password: `${password}-3` },
    });

    expect(logged).toContain('request completed');
    for (const secret of [password, token, resetToken, signature]) expect(logged).not.toContain(secret);
  });
});
