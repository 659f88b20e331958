import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { openDatabase, type Database } from '../db/database.ts';
import { noticeKind } from '../modules/records/record-kinds.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from './app.ts';
import { startSmtpListener } from './peers.ts';
import { createTestPki, type TestPki } from './signing-certs.ts';

const run = promisify(execFile);
export const P12_PASSWORD = 'p12-pass';
export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * What the signed-notice tests share (issue 30): a throwaway CA and a signing certificate made by the
 * test, an app that signs every notice with it and mails to a local SMTP listener, a user, and the
 * checks a mailed notice is put to.
 */
export interface SigningTestbed {
  dir: string;
  pki: TestPki;
  /** The app's signing certificate, its key and the CA, opened with P12_PASSWORD. */
  p12: Buffer;
  /** The TSA the app stamps with, when asked for one. */
  tsa: Awaited<ReturnType<TestPki['startTsa']>> | undefined;
  smtp: Awaited<ReturnType<typeof startSmtpListener>>;
  t: TestApp;
  db: Database;
  asha: SignedIn;
  /** A notice e-mailed to borrower<i>@example.com, its other fields `<key>-<i>`. */
  notice(i: number, fields?: Record<string, string>): Promise<{ _id: string; campaignId: string }>;
  /** Sends the notices by e-mail again (resend). */
  send(ids: string[]): Promise<void>;
  /** The PDFs attached to the mails to `address`, once `count` have come. */
  mailedPdfs(address: string, count?: number): Promise<Buffer[]>;
  /** poppler's pdfsig's report of the file; it fails the test when poppler finds the file malformed. */
  pdfsig(pdf: Buffer): Promise<string>;
  /** Writes a file into the testbed's folder and answers its path. */
  write(name: string, bytes: Buffer): string;
  close(): Promise<void>;
}

export async function startSigningTestbed(
  env: Record<string, string> = {},
  options: { tsa?: boolean } = {},
): Promise<SigningTestbed> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-signing-'));
  const pki = createTestPki(dir);
  const p12 = pki.p12({ password: P12_PASSWORD });
  const tsa = options.tsa ? await pki.startTsa() : undefined;
  const smtp = await startSmtpListener();
  const t = await createTestApp({
    SMTP_URL: smtp.url,
    NOTICE_SIGNING_P12: p12.toString('base64'),
    NOTICE_SIGNING_PASSWORD: P12_PASSWORD,
    ...(tsa && { TSA_URL: tsa.url }),
    ...env,
  });
  const { db } = await openDatabase(t.config);
  const asha = await signUp(t.app, 'asha');
  const write = (name: string, bytes: Buffer) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return file;
  };
  return {
    dir,
    pki,
    p12,
    tsa,
    smtp,
    t,
    db,
    asha,
    async notice(i, fields = {}) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/notices',
        headers: asha.headers,
        payload: {
          ...Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${i}`])),
          emailId: `borrower${i}@example.com`,
          modeOfDispatch: 'Email',
          ...fields,
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ _id: string; campaignId: string }>();
    },
    async send(ids) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/campaigns/send-mail',
        headers: asha.headers,
        payload: { data: ids, type: 'notice', resend: true },
      });
      expect(res.statusCode, res.body).toBe(200);
    },
    async mailedPdfs(address, count = 1) {
      const mailed = () => smtp.mails.filter((m) => m.to.includes(address));
      await expect
        .poll(() => mailed().length, { timeout: 60_000, message: `${count} mails to ${address}` })
        .toBeGreaterThanOrEqual(count);
      return mailed().map((m) => attachedPdf(m.raw));
    },
    async pdfsig(pdf) {
      const file = write(`check-${sha256(pdf).slice(0, 12)}.pdf`, pdf);
      // pdfsig exits non-zero for a signature it cannot trust (the throwaway CA): its report says why.
      const { stdout, stderr } = await run('pdfsig', [file]).catch(
        (err: { stdout?: string; stderr?: string }) => ({
          stdout: err.stdout ?? '',
          stderr: err.stderr ?? '',
        }),
      );
      // A reader that finds the file malformed says so on stderr, though the signature may verify.
      expect(stderr, 'poppler reads the signed file without a syntax error').not.toMatch(
        /Syntax (Error|Warning)/,
      );
      return stdout;
    },
    write,
    async close() {
      await db.destroy();
      await t.close();
      await smtp.close();
      await tsa?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function attachedPdf(raw: string): Buffer {
  const part = /Content-Type: application\/pdf[^]*?\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(raw);
  if (!part) throw new Error('no PDF attached');
  return Buffer.from(part[1]!.replace(/\s+/g, ''), 'base64');
}
