import net from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { startSmtpListener } from '../../test/peers.ts';
import { createTestApp, signUp, type TestApp } from '../../test/app.ts';
import { insertUser } from './auth.repository.ts';

let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpListener({ closeTimeout: 100 });
});
afterAll(async () => smtp.close());
beforeEach(async () => {
  smtp.mails.length = 0;
  t = await createTestApp({ SMTP_URL: smtp.url, RESET_MAILS_PER_HOUR: '50' });
});
afterEach(async () => t.close());

const forgot = (email: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email }, headers });

/** Accounts from before usernames were checked: written straight to the database, as they are there. */
async function legacyUsers(...usernames: string[]): Promise<void> {
  const { db } = await openDatabase(t.config);
  try {
    for (const username of usernames)
      await insertUser(db, {
        id: newId(),
        name: 'Legacy',
        username,
        password_hash: 'scrypt$x',
        created_at: new Date().toISOString(),
      });
  } finally {
    await db.destroy();
  }
}

describe('forgot-password', () => {
  it('mails the one checked address, given as the only recipient, in any case of the username', async () => {
    await signUp(t.app, 'asha@example.com');
    const res = await forgot('ASHA@Example.com');
    expect(res.statusCode).toBe(200);
    await t.app.settled();
    expect(smtp.mails.map((m) => m.to)).toEqual([['asha@example.com']]);
    expect(smtp.mails[0]!.raw).toMatch(/^To: asha@example\.com\r?$/m);
  });

  it('never parses a username as an address list: legacy usernames with CR LF, lists or names get no mail', async () => {
    const hostile = [
      'ctl\r\nBcc: x@evil.test',
      'ctl2@example.com\r\nBcc: x@evil.test',
      'a@example.com, x@evil.test',
      'Asha <x@evil.test>',
      'barsadmin',
    ];
    await legacyUsers(...hostile);
    const unknown = await forgot('nobody@example.com');
    for (const username of hostile) {
      const res = await forgot(username);
      // The same answer as for nobody at all: status, shape and words.
      expect(res.statusCode, JSON.stringify(username)).toBe(200);
      expect(res.json()).toEqual(unknown.json());
      expect(Object.keys(res.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
    }
    await t.app.settled();
    expect(smtp.mails).toEqual([]);
    const { db } = await openDatabase(t.config);
    try {
      expect(await db.selectFrom('password_resets').selectAll().execute()).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  it('answers before the mail is sent, so a slow or silent mail server shows in no timing', async () => {
    // A mail server that accepts the connection and never greets.
    const sockets: net.Socket[] = [];
    let connected: () => void = () => {};
    const connection = new Promise<void>((resolve) => (connected = resolve));
    const silent = net.createServer((socket) => {
      sockets.push(socket);
      connected();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const app = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      await signUp(app.app, 'meena@example.com');
      let mailed = false;
      const res = await app.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: 'meena@example.com' },
      });
      const settled = app.app.settled().then(() => (mailed = true));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'If that account exists, a reset link has been sent.' });
      // The answer is out while the mail still waits for its server to say hello.
      await connection;
      expect(mailed).toBe(false);
      // The server goes away: the mail fails (and is logged), the answer long given.
      silent.close();
      for (const socket of sockets) socket.destroy();
      await settled;
    } finally {
      for (const socket of sockets) socket.destroy();
      await app.close();
      silent.close();
    }
  });
});

describe('reset limits', () => {
  it('allows RESET_MAILS_PER_HOUR requests per username, known or not, then answers 429 saying when', async () => {
    const app = await createTestApp({ SMTP_URL: smtp.url, RESET_MAILS_PER_HOUR: '3' });
    try {
      await signUp(app.app, 'ravi@example.com');
      const ask = (email: string, ip: string) =>
        app.app.inject({
          method: 'POST',
          url: '/api/auth/forgot-password',
          payload: { email },
          remoteAddress: ip,
        });
      // Per username: three addresses, one username (in other cases): the fourth is refused.
      const statuses = [];
      for (const [i, email] of [
        'ravi@example.com',
        'RAVI@example.com',
        'Ravi@Example.com',
        'ravi@example.com',
      ].entries())
        statuses.push((await ask(email, `10.0.0.${i + 1}`)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      // An unknown username is limited the same way, so a 429 tells nothing about who exists.
      const unknown = [];
      for (let i = 0; i < 4; i++)
        unknown.push((await ask('ghost@example.com', `10.1.0.${i + 1}`)).statusCode);
      expect(unknown).toEqual([200, 200, 200, 429]);
      // Per address: one address, several usernames.
      const fromOne = [];
      for (let i = 0; i < 4; i++) fromOne.push(await ask(`user${i}@example.com`, '10.2.0.1'));
      expect(fromOne.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
      const refused = fromOne[3]!;
      expect(refused.json()).toEqual({
        statusCode: 429,
        code: 'TOO_MANY_REQUESTS',
        message: expect.stringMatching(/^Too many password reset requests\. Try again in \d+ minutes\.$/),
        error: refused.json().message,
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
      await app.app.settled();
      expect(smtp.mails.filter((m) => m.to[0] === 'ravi@example.com')).toHaveLength(3);
    } finally {
      await app.close();
    }
  });
});
