import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { noticeFields } from '@notice-desk/contract/notice';
import { PDFDocument } from 'pdf-lib';
import pino from 'pino';
import yauzl from 'yauzl';
import { afterAll, describe, expect, it } from 'vitest';
import { PdfRenderer } from '../lib/pdf/renderer.ts';
import { createTestApp, signUp } from '../test/app.ts';
import { pdfPagesText } from '../test/pdf-text.ts';
import { signUpOver, startNoticeImportOver, startServerProcess } from '../test/server-process.ts';
import { recordSheet, writeSheet } from '../test/xlsx.ts';

// Chromium killed with SIGKILL in the middle of printing: the renderer sees the browser go, starts a
// new one, and the work in hand still completes, every record with its own valid PDF.
// The browser does not care which database the server uses: CI's second pass (on PostgreSQL) skips these.
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const onPostgres = Boolean(process.env.DATABASE_URL);

function processTable(): { children: Map<number, number[]>; commands: Map<number, string> } {
  const children = new Map<number, number[]>();
  const commands = new Map<number, string>();
  for (const line of execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' }).split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [pid, ppid] = [Number(match[1]), Number(match[2])];
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    commands.set(pid, match[3]!);
  }
  return { children, commands };
}

/**
 * The pid of the one headless Chromium browser process (not its helpers) started by `parent` or below
 * it; with `printing`, only once it has a tab's renderer process, so it is past its launch.
 */
function browserUnder(parent: number, printing = false): number | undefined {
  const { children, commands } = processTable();
  const below = (pid: number): number[] =>
    (children.get(pid) ?? []).flatMap((child) => [child, ...below(child)]);
  const browsers = below(parent).filter((pid) => {
    const command = commands.get(pid)!;
    return (
      /chrom/i.test(command) && command.includes('--remote-debugging-pipe') && !command.includes('--type=')
    );
  });
  if (browsers.length !== 1) return undefined;
  const renderers = below(browsers[0]!).filter((pid) => commands.get(pid)!.includes('--type=renderer'));
  return !printing || renderers.length > 0 ? browsers[0] : undefined;
}

async function waitFor<T>(probe: () => T | undefined, what: string, ms = 20_000): Promise<T> {
  return waitForAsync(async () => probe(), what, ms);
}

async function waitForAsync<T>(probe: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Each PDF is a whole PDF of its own (no two alike), and a sample across every batch of 80 shows its
 * own record's text: nothing lost, swapped or half-written. (Reading every PDF's text takes 40 ms each.)
 */
async function expectOwnPdfs(pdfs: Buffer[], text: (i: number) => RegExp): Promise<void> {
  for (const pdf of pdfs) expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  await Promise.all(pdfs.map((pdf) => PDFDocument.load(pdf)));
  expect(new Set(pdfs.map((pdf) => createHash('sha256').update(pdf).digest('hex'))).size).toBe(pdfs.length);
  const sample = pdfs.map((_, i) => i).filter((i) => i % 40 === 0 || i % 80 === 79 || i === pdfs.length - 1);
  for (const i of sample) expect((await pdfPagesText(pdfs[i]!)).join(' ')).toMatch(text(i));
}

describe.skipIf(onPostgres)('Chromium killed while rendering', () => {
  const warnings: string[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
  const renderer = new PdfRenderer({ executablePath: chromiumPath, log });
  afterAll(() => renderer.close());

  it('the renderer relaunches the browser and the batch in hand completes', async () => {
    await renderer.render('<p>warm</p>');
    const first = await waitFor(() => browserUnder(process.pid), 'the browser');
    const documents = Array.from(
      { length: 800 },
      (_, i) =>
        `<h1>Notice to record ${i}</h1><p>${'Amount overdue. '.repeat(40)}</p><p>End of record ${i}</p>`,
    );
    let settled = false;
    const rendering = renderer.renderMany(documents).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false); // the kill lands mid-render
    process.kill(first, 'SIGKILL');
    const pdfs = await rendering;

    // The browser died under batches in flight, and they were printed again on a new one.
    expect(warnings).toContain('Chromium went away; a new one starts on the next render');
    expect(warnings).toContain('PDF batch failed; retrying on a fresh tab');
    expect(pdfs).toHaveLength(documents.length);
    await expectOwnPdfs(pdfs, (i) => new RegExp(`Notice to record ${i}(?!\\d)`));
    const second = await waitFor(() => browserUnder(process.pid), 'the new browser');
    expect(second).not.toBe(first);
    // And the next render, on the new browser, works as before.
    await expectOwnPdfs(await renderer.renderMany(['<h1>After the crash</h1>']), () => /After the crash/);
  }, 60_000);
});

function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a zip'));
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('unreadable entry'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe.skipIf(onPostgres)('Chromium killed under a server exporting a campaign', () => {
  it('the zip still holds every record’s own PDF, and the next export renders on a new browser', async () => {
    const server = await startServerProcess({
      JWT_SECRET: 'fault-test-secret-fault-test-secret-0123',
      LOG_LEVEL: 'error',
      CHROMIUM_PATH: chromiumPath,
    });
    try {
      const user = await signUpOver(server.baseUrl, 'asha');
      const records = 240;
      const sheet = path.join(server.dataDir, 'notices.xlsx');
      await writeSheet(sheet, recordSheet(noticeFields, records));
      await startNoticeImportOver(server.baseUrl, user.headers, sheet);
      const progress = await waitForAsync(async () => {
        const res = await fetch(`${server.baseUrl}/api/notices/by-user-id/progress-count`, {
          headers: user.headers,
        });
        const body = (await res.json()) as { status?: string; campaignId?: string };
        return body.status === 'done' ? body : undefined;
      }, 'the import');
      const exportZip = async () => {
        const res = await fetch(
          `${server.baseUrl}/api/campaigns/export-campaign/notice?campaignid=${progress.campaignId}`,
          { headers: user.headers },
        );
        expect(res.status).toBe(200);
        return unzip(Buffer.from(await res.arrayBuffer()));
      };

      const exporting = exportZip();
      // Killed as soon as it has a tab's process: while it opens its tabs or starts printing (a tab
      // being opened when the browser died once left the export waiting for ever).
      const first = await waitFor(
        () => browserUnder(server.child.pid!, true),
        'the server’s browser at work',
      );
      process.kill(first, 'SIGKILL');
      const files = await exporting;

      expect(files.size).toBe(records);
      const recordOf = (name: string) => Number(/loanNo r(\d+) /.exec(name)?.[1]);
      const names = [...files.keys()].sort((a, b) => recordOf(a) - recordOf(b));
      expect(names.map(recordOf)).toEqual(Array.from({ length: records }, (_, i) => i));
      await expectOwnPdfs(
        names.map((name) => files.get(name)!),
        (i) => new RegExp(`custName r${i}(?!\\d)`),
      );
      const second = await waitFor(() => browserUnder(server.child.pid!), 'the new browser');
      expect(second).not.toBe(first);
      expect(server.child.exitCode).toBeNull();
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe.skipIf(onPostgres)('no Chromium at all', () => {
  it('a zip export answers a JSON 503 that says why, not a broken download', async () => {
    const t = await createTestApp({ CHROMIUM_PATH: '/nowhere/chromium' });
    try {
      const user = await signUp(t.app, 'asha');
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/notices',
        headers: user.headers,
        payload: Object.fromEntries(noticeFields.map((f) => [f.key, `${f.key}-1`])),
      });
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/campaigns/export-campaign/notice?campaignid=${created.json<{ campaignId: string }>().campaignId}`,
        headers: user.headers,
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.json()).toMatchObject({
        code: 'PDF_UNAVAILABLE',
        message: expect.stringContaining('Chromium was not found at /nowhere/chromium'),
      });
    } finally {
      await t.close();
    }
  });
});
