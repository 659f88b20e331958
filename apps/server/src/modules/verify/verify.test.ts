import { execFile } from 'node:child_process';
import { randomBytes, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import jsQR from 'jsqr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyFileAnswer, VerifyPage } from '@notice-desk/contract/verify';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config/env.ts';
import { loadSigningKey } from '../../lib/pdf/signing.ts';
import type { TestApp } from '../../test/app.ts';
import { pdftotext } from '../../test/pdf-text.ts';
import { readPng } from '../../test/png.ts';
import { P12_PASSWORD, sha256, startSigningTestbed, type SigningTestbed } from '../../test/signed-notices.ts';
import { unzip } from '../../test/zip.ts';

// Issue 30, done when: a signed notice e-mailed, verifiable by anyone, and its evidence court-ready.
const run = promisify(execFile);
const PER_MINUTE = 40;
let bed: SigningTestbed;
let t: TestApp;

beforeAll(async () => {
  bed = await startSigningTestbed({ FIRM_NAME: 'Rao & Associates', VERIFY_PER_MINUTE: String(PER_MINUTE) });
  t = bed.t;
});
afterAll(async () => {
  await bed?.close();
});

let ips = 0;
/** A fresh address per request group: the per-address limit is tested on its own. */
const nextIp = () => `198.51.100.${++ips}`;

function form(fields: Record<string, string>, file?: Buffer) {
  const boundary = `----form${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notice.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const check = (file: Buffer | undefined, fields: Record<string, string> = {}, ip = nextIp()) => {
  const body = form(fields, file);
  return t.app.inject({
    method: 'POST',
    url: '/api/public/verify',
    remoteAddress: ip,
    headers: body.headers,
    payload: body.payload,
  });
};

/** The QR code on the PDF's last page, read as a phone would: pdftoppm's picture, then jsQR. */
async function qrOf(pdf: Buffer): Promise<string | undefined> {
  const file = bed.write(`qr-${sha256(pdf).slice(0, 12)}.pdf`, pdf);
  const pages = /Pages:\s+(\d+)/.exec((await run('pdfinfo', [file])).stdout)![1]!;
  await run('pdftoppm', [
    '-gray',
    '-png',
    '-r',
    '150',
    '-f',
    `${pages}`,
    '-l',
    `${pages}`,
    '-singlefile',
    file,
    file,
  ]);
  const { width, height, grey } = readPng(fs.readFileSync(`${file}.png`));
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < grey.length; i++) rgba.set([grey[i]!, grey[i]!, grey[i]!, 255], i * 4);
  return jsQR(rgba, width, height)?.data;
}

describe('a signed notice, e-mailed, anyone can verify, and its evidence is court-ready', () => {
  const ids = new Map<string, string>();
  beforeAll(async () => {
    ids.set('Latin', (await bed.notice(1, { custName: 'Rajesh Sharma', loanNo: 'LN001987651' }))._id);
    ids.set(
      'Hindi',
      (await bed.notice(2, { custName: 'राजेश शर्मा', loanNo: 'LN002987652', language: 'Hindi' }))._id,
    );
    await bed.send([...ids.values()]);
  });

  /** The mailed PDF, checked with poppler; its printed link and QR code, the record's own code. */
  async function mailed(script: string, i: number) {
    const id = ids.get(script)!;
    const [pdf] = await bed.mailedPdfs(`borrower${i}@example.com`);
    expect(await bed.pdfsig(pdf!)).toContain('Signature is Valid.');
    const [delivery] = await bed.db
      .selectFrom('deliveries')
      .selectAll()
      .where('record_id', '=', id)
      .execute();
    expect(delivery!.pdf_sha256).toBe(sha256(pdf!));
    // The printed link is the record's own code (not its notice page's), and the QR code says the same.
    const { code } = (await bed.db
      .selectFrom('verify_codes')
      .select('code')
      .where('record_id', '=', id)
      .executeTakeFirst())!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const link = `${t.config.appUrl}/v/${code}`;
    expect((await pdftotext(pdf!)).replace(/\s+/g, '')).toContain(link);
    expect(await qrOf(pdf!)).toBe(link);
    return { id, pdf: pdf!, code };
  }

  it('Hindi: the QR code decodes to the printed link, its line is in Hindi, and the file is found served', async () => {
    const { pdf, code } = await mailed('Hindi', 2);
    // The Hindi variant prints; its verification line is in Hindi (poppler splits 'कै' from 'स्').
    const text = (await pdftotext(pdf)).replace(/\s+/g, '');
    expect(text).toContain('विधिकसूचना');
    expect(text).toContain('इसनोटिसकासत्यापनकरें');
    expect(text).not.toContain('Verify');
    expect((await check(pdf, { code })).json<VerifyFileAnswer>()).toMatchObject({
      served: true,
      signature: { valid: true },
    });
  }, 60_000);

  it('Latin: verifies with pdfsig and the verify API, a changed byte does not, the bundle is court-ready', async () => {
    const { id, pdf, code } = await mailed('Latin', 1);
    expect((await pdftotext(pdf)).replace(/\s+/g, ' ')).toContain(
      'Verify this notice: scan the code or open',
    );
    const i = 1;
    const name = 'Rajesh Sharma';
    // The page of the code: the firm, the loan's last four, served when and how, the hash, the signature.
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/public/verify/${code}`,
      remoteAddress: nextIp(),
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json<VerifyPage>()).toEqual({
      issuedBy: 'Rao & Associates',
      referenceKind: 'Loan',
      referenceEnding: `••••765${i}`,
      servedOn: expect.stringMatching(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2} IST$/),
      channels: ['email'],
      sha256: sha256(pdf),
      signature: { valid: true, signer: 'Advocate Asha Rao', reason: null, earlierCertificate: null },
    });
    expect(page.body).not.toContain(name);
    expect(page.body).not.toContain(`borrower${i}@`);

    // The file dropped on it: served; one byte changed anywhere: not, and its signature no longer holds.
    const served = (await check(pdf)).json<VerifyFileAnswer>();
    const day = page.json<VerifyPage>().servedOn!.slice(0, 10);
    expect(served).toMatchObject({
      served: true,
      message: `This is the notice served on ${day} by e-mail`,
      sha256: sha256(pdf),
      signature: { valid: true },
    });
    expect((await check(pdf, { code })).json<VerifyFileAnswer>().served).toBe(true);
    for (const at of [200, Math.floor(pdf.length / 2), pdf.length - 10]) {
      const changed = Buffer.from(pdf);
      changed[at] = changed[at]! ^ 0x01;
      const answer = (await check(changed)).json<VerifyFileAnswer>();
      expect(answer).toMatchObject({ served: false, message: 'This file is not a notice we served' });
      expect(answer.signature?.valid ?? false).toBe(false);
    }

    // The evidence bundle: the same file, the section 63 certificate naming its hash, a signed manifest.
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/notices/${id}/evidence`,
      headers: bed.asha.headers,
    });
    expect(res.statusCode).toBe(200);
    const files = new Map((await unzip(res.rawPayload)).map((f) => [f.name, f.data]));
    expect(sha256(files.get(`pdfs/${sha256(pdf)}.pdf`)!)).toBe(sha256(pdf));
    const certificate = await pdftotext(files.get('section-63-certificate.pdf')!);
    expect(certificate).toContain(sha256(pdf));
    expect(certificate).toContain('[See section 63(4)(c)]');
    expect(certificate).toMatch(/PART B\s+\(To be filled by the Expert\)/);
    expect(files.get('section-63-certificate.docx')!.subarray(0, 2).toString()).toBe('PK');
    const summary = await pdftotext(files.get('summary.pdf')!);
    expect(summary).toContain('Rao & Associates');
    expect(summary).toMatch(/\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2} IST/);
    expect(summary).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    bed.write(`manifest-${i}.json`, files.get('manifest.json')!);
    bed.write(`manifest-${i}.json.p7s`, files.get('manifest.json.p7s')!);
    bed.write('ca.pem', Buffer.from(bed.pki.caPem));
    await run(
      'openssl',
      [
        'cms',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        `manifest-${i}.json.p7s`,
        '-content',
        `manifest-${i}.json`,
      ].concat(['-CAfile', 'ca.pem', '-purpose', 'any', '-out', '/dev/null']),
      { cwd: bed.dir },
    );
    // A manifest changed after signing does not verify.
    bed.write(`manifest-${i}.json`, Buffer.concat([files.get('manifest.json')!, Buffer.from(' ')]));
    await expect(
      run(
        'openssl',
        ['cms', '-verify', '-binary', '-inform', 'DER', '-in', `manifest-${i}.json.p7s`].concat([
          '-content',
          `manifest-${i}.json`,
          '-CAfile',
          'ca.pem',
          '-purpose',
          'any',
          '-out',
          '/dev/null',
        ]),
        { cwd: bed.dir },
      ),
    ).rejects.toThrow();
  }, 120_000);
});

describe('after the DSC is renewed, a notice signed with the earlier key (NOTICE_SIGNING_EARLIER_CERTS)', () => {
  let recordId: string;
  let earlierPem: string;
  let renewedP12: string;
  beforeAll(async () => {
    recordId = (await bed.notice(3, { loanNo: 'LN003987653' }))._id;
    await bed.send([recordId]);
    const earlier = loadSigningKey(bed.p12, P12_PASSWORD).chain;
    earlierPem = bed.write(
      'earlier.pem',
      Buffer.from(earlier.map((der) => new X509Certificate(der).toString()).join('')),
    );
    renewedP12 = bed.pki.p12({ password: P12_PASSWORD }).toString('base64');
  });

  /** The notice served signed with the earlier key (bed.p12), and its code (awaited in a test: it polls). */
  async function servedNotice() {
    const [pdf] = await bed.mailedPdfs('borrower3@example.com');
    const { code } = await bed.db
      .selectFrom('verify_codes')
      .select('code')
      .where('record_id', '=', recordId)
      .executeTakeFirstOrThrow();
    return { pdf: pdf!, code };
  }

  /** The app restarted on the same database and files, signing with the renewed key. */
  async function restarted(env: Record<string, string>) {
    const { signing, signingEarlierChains } = loadConfig({
      DATA_DIR: t.config.dataDir,
      NOTICE_SIGNING_P12: renewedP12,
      NOTICE_SIGNING_PASSWORD: P12_PASSWORD,
      ...env,
    });
    return buildApp({ ...t.config, runJobs: false, signing, signingEarlierChains });
  }

  /** What the restarted app says of the served notice: its code's page, and the file dropped on it. */
  async function signatureReadBy(app: FastifyInstance) {
    const { pdf: served, code } = await servedNotice();
    const page = await app.inject({
      method: 'GET',
      url: `/api/public/verify/${code}`,
      remoteAddress: nextIp(),
    });
    const body = form({ code }, served);
    const dropped = await app.inject({
      method: 'POST',
      url: '/api/public/verify',
      remoteAddress: nextIp(),
      headers: body.headers,
      payload: body.payload,
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(dropped.json<VerifyFileAnswer>().served).toBe(true);
    expect(dropped.json<VerifyFileAnswer>().signature).toEqual(page.json<VerifyPage>().signature);
    return { signature: page.json<VerifyPage>().signature, page: page.body };
  }

  it('with the earlier certificate listed: valid, by our earlier certificate, named with its validity', async () => {
    const app = await restarted({ NOTICE_SIGNING_EARLIER_CERTS: earlierPem });
    try {
      const { signature, page } = await signatureReadBy(app);
      expect(signature).toEqual({
        valid: true,
        signer: 'Advocate Asha Rao',
        reason: null,
        earlierCertificate: {
          subject: 'Advocate Asha Rao',
          validFrom: expect.stringMatching(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2} IST$/),
          validTo: expect.stringMatching(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2} IST$/),
        },
      });
      expect(page).not.toContain('custName-3');
      expect(page).not.toContain('borrower3@');
    } finally {
      await app.close();
    }
  });

  it('without the setting: not signed with our signing key', async () => {
    const app = await restarted({});
    try {
      expect((await signatureReadBy(app)).signature).toEqual({
        valid: false,
        signer: 'Advocate Asha Rao',
        reason: 'It was not signed with our signing key.',
        earlierCertificate: null,
      });
    } finally {
      await app.close();
    }
  });
});

describe('bad inputs to the public verification', () => {
  it('an unknown, malformed or overlong code answers 404 or 400, in words', async () => {
    for (const code of [randomBytes(16).toString('base64url'), 'short', '../../etc/passwd', '%00']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/public/verify/${encodeURIComponent(code)}`,
        remoteAddress: nextIp(),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json<{ message: string }>().message).toMatch(/No notice has this verification code/);
    }
    // Past the router's longest path parameter: 414 before any lookup.
    const long = await t.app.inject({ method: 'GET', url: `/api/public/verify/${'a'.repeat(101)}` });
    expect([400, 414]).toContain(long.statusCode);
    expect((await check(Buffer.from('%PDF-1.7'), { code: 'x'.repeat(22) })).statusCode).toBe(404);
  });

  it('a file that is not a PDF, an empty one, or no file: not served, or 400 naming the file', async () => {
    for (const file of [Buffer.alloc(0), Buffer.from('MZ\x90\x00'), randomBytes(4096)]) {
      const res = await check(file);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<VerifyFileAnswer>()).toMatchObject({ served: false, signature: null });
    }
    const none = await check(undefined, { code: 'x' });
    expect(none.statusCode).toBe(400);
    expect(none.body).toMatch(/file/);
    const json = await t.app.inject({ method: 'POST', url: '/api/public/verify', payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.body).toMatch(/multipart\/form-data/);
  });

  it('a file over 20 MB answers 413 in words', async () => {
    const res = await check(Buffer.alloc(20 * 1024 * 1024 + 1, 0x20));
    expect(res.statusCode).toBe(413);
    expect(res.json<{ message: string }>().message).toMatch(/larger than 20 MB/);
  });

  it(`holds one address to ${PER_MINUTE} requests a minute (VERIFY_PER_MINUTE), others unaffected`, async () => {
    const ip = nextIp();
    const code = randomBytes(16).toString('base64url');
    const ask = (from: string) =>
      t.app.inject({ method: 'GET', url: `/api/public/verify/${code}`, remoteAddress: from });
    const answers = await Promise.all(Array.from({ length: PER_MINUTE + 5 }, () => ask(ip)));
    expect(answers.filter((a) => a.statusCode === 404)).toHaveLength(PER_MINUTE);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(5);
    expect((await check(Buffer.from('x'), {}, ip)).statusCode).toBe(429);
    expect((await ask(nextIp())).statusCode).toBe(404);
  });
});
