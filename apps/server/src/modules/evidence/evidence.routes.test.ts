import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceRecord } from '@notice-desk/contract/evidence';
import { openDatabase } from '../../db/database.ts';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../../test/app.ts';
import { startSmtpListener, startWhatsappPeer } from '../../test/peers.ts';
import { pdfPagesText } from '../../test/pdf-text.ts';
import { unzip } from '../../test/zip.ts';
import { noticeKind } from '../records/record-kinds.ts';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let peer: Awaited<ReturnType<typeof startWhatsappPeer>>;
let asha: SignedIn;
let ravi: SignedIn;
const ids: string[] = [];
let campaignId = '';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  smtp = await startSmtpListener();
  peer = await startWhatsappPeer();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: peer.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_MODE: 'session', // free-form document messages, as these tests read them
  });
  asha = await signUp(t.app, 'asha');
  ravi = await signUp(t.app, 'ravi');
  for (let i = 0; i < 3; i++) {
    const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-${i}`]));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/notices',
      headers: asha.headers,
      payload: {
        ...fields,
        custName: `Customer <b>${i}</b>`,
        emailId: `c${i}@example.com`,
        custMobileNo: `98765${String(i).padStart(5, '0')}`,
        modeOfDispatch: 'Email and WhatsApp',
      },
    });
    ids.push(res.json<{ _id: string }>()._id);
    campaignId = res.json<{ campaignId: string }>().campaignId;
  }
  // Two of the three are sent; the third never is.
  await t.app.inject({
    method: 'POST',
    url: '/api/campaigns/send-mail',
    headers: asha.headers,
    payload: { data: ids.slice(0, 2), type: 'notice' },
  });
}, 60_000);
afterAll(async () => {
  await t.close();
  await smtp.close();
  await peer.close();
});

async function download(url: string, who = asha) {
  const res = await t.app.inject({ method: 'GET', url, headers: who.headers });
  return res;
}

describe('an evidence bundle', () => {
  it("holds a record's exact PDF as sent, every delivery with its history, a summary and a manifest", async () => {
    const res = await download(`/api/notices/${ids[0]}/evidence`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="evidence Notice loanNo-0/);
    const files = await unzip(res.rawPayload);
    const byName = new Map(files.map((f) => [f.name, f.data]));
    expect([...byName.keys()].sort()).toEqual([
      'deliveries.json',
      'manifest.json',
      expect.stringMatching(/^pdfs\/[0-9a-f]{64}\.pdf$/),
      'section-63-certificate.docx',
      'section-63-certificate.pdf',
      'summary.pdf',
    ]);

    const { records } = JSON.parse(byName.get('deliveries.json')!.toString()) as {
      records: EvidenceRecord[];
    };
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record).toMatchObject({ _id: ids[0], custName: 'Customer <b>0</b>', reference: 'loanNo-0' });
    expect(record!.deliveries.map((d) => d.channel).sort()).toEqual(['email', 'whatsapp']);
    const email = record!.deliveries.find((d) => d.channel === 'email')!;
    expect(email).toMatchObject({ recipient: 'c0@example.com', status: 'sent' });
    expect(email.history.map((h) => h.status)).toEqual(['queued', 'sent']);
    expect(email.providerMessageId).toMatch(/^<.+>$/);
    // The WhatsApp message names the upload its PDF went by; an e-mail has none.
    const whatsapp = record!.deliveries.find((d) => d.channel === 'whatsapp')!;
    expect(email.mediaId).toBeNull();
    expect(whatsapp.mediaId).toBe(peer.messages.find((m) => m.id === whatsapp.providerMessageId)!.mediaId);

    // The PDF in the bundle is the one that was mailed: same bytes, same hash.
    const pdf = byName.get(email.pdfFile!)!;
    expect(sha256(pdf)).toBe(email.pdfSha256);
    const mailed = smtp.mails.find((m) => m.to[0] === 'c0@example.com')!;
    const attachment = /Content-Type: application\/pdf[\s\S]*?\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(
      mailed.raw,
    )![1]!;
    expect(sha256(Buffer.from(attachment.replace(/\s+/g, ''), 'base64'))).toBe(email.pdfSha256);

    // Every file but the manifest is listed in it with its hash.
    const manifest = JSON.parse(byName.get('manifest.json')!.toString()) as {
      files: { file: string; sha256: string }[];
    };
    expect(manifest.files.map((f) => f.file).sort()).toEqual(
      [...byName.keys()].filter((n) => n !== 'manifest.json').sort(),
    );
    for (const { file, sha256: hash } of manifest.files) expect(sha256(byName.get(file)!)).toBe(hash);

    // People read the same facts in summary.pdf; markup in a name stays text.
    // (Long values wrap inside their table cells, so the text is compared without its spaces.)
    const summary = (await pdfPagesText(byName.get('summary.pdf')!)).join('').replace(/\s+/g, '');
    expect(summary).toContain('Evidenceofservice');
    expect(summary).toContain('Customer<b>0</b>');
    expect(summary).toContain('c0@example.com');
    expect(summary).toContain(email.pdfSha256);
    expect(summary).toContain(email.providerMessageId);
  });

  it('covers every record of a campaign, saying which were never sent', async () => {
    const res = await download(`/api/campaigns/${campaignId}/evidence`);
    expect(res.statusCode, res.body).toBe(200);
    const files = await unzip(res.rawPayload);
    const { records } = JSON.parse(files.find((f) => f.name === 'deliveries.json')!.data.toString()) as {
      records: EvidenceRecord[];
    };
    expect(records.map((r) => r._id)).toEqual(ids);
    expect(records.map((r) => r.deliveries.length)).toEqual([2, 2, 0]);
    expect(files.filter((f) => f.name.startsWith('pdfs/'))).toHaveLength(2);
    const summary = (await pdfPagesText(files.find((f) => f.name === 'summary.pdf')!.data)).join(' ');
    expect(summary.replace(/\s+/g, ' ')).toContain('Not sent on any channel.');
  });

  it("is the owner's alone, and the download is in the audit log", async () => {
    expect((await download(`/api/notices/${ids[0]}/evidence`, ravi)).statusCode).toBe(404);
    expect((await download(`/api/campaigns/${campaignId}/evidence`, ravi)).statusCode).toBe(404);
    expect((await download(`/api/credit-cards/${ids[0]}/evidence`)).statusCode).toBe(404);
    // asha signed up first, so she is the ADMIN who can read the log.
    const log = await t.app.inject({
      method: 'GET',
      url: '/api/audit?action=export.evidence',
      headers: asha.headers,
    });
    expect(log.json<{ items: { summary: string; actor: { username: string } }[] }>().items).toEqual([
      expect.objectContaining({
        summary: 'Evidence for campaign Manual entries',
        actor: expect.objectContaining({ username: 'asha' }),
      }),
      expect.objectContaining({ summary: 'Evidence for notice of Customer <b>0</b>' }),
    ]);
  });

  it('leaves out a kept PDF whose bytes changed since it was sent, and holds the others', async () => {
    const { db } = await openDatabase(t.config, { checkpointer: false });
    const kept = await db
      .selectFrom('deliveries')
      .select('pdf_key')
      .where('record_id', '=', ids[1]!)
      .where('pdf_key', 'is not', null)
      .executeTakeFirstOrThrow();
    await db.destroy();
    // The folder store (this file does not run in the S3 project): the kept file on this DATA_DIR.
    fs.appendFileSync(path.join(t.config.dataDir, kept.pdf_key!), '% altered');
    const res = await download(`/api/campaigns/${campaignId}/evidence`);
    expect(res.statusCode, res.body).toBe(200);
    const files = await unzip(res.rawPayload);
    const { records } = JSON.parse(files.find((f) => f.name === 'deliveries.json')!.data.toString()) as {
      records: EvidenceRecord[];
    };
    const pdfs = files.filter((f) => f.name.startsWith('pdfs/'));
    expect(pdfs).toHaveLength(1);
    expect(pdfs.map((f) => `pdfs/${sha256(f.data)}.pdf`)).toEqual(pdfs.map((f) => f.name));
    expect(records[1]!.deliveries.map((d) => d.pdfFile)).toEqual([null, null]);
    expect(records[1]!.deliveries.every((d) => d.pdfSha256)).toBe(true);
  });
});
