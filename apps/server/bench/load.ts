import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { noticeFields } from '@notice-desk/contract/notice';
import { openDatabase } from '../src/db/database.ts';
import { creditCardKind, noticeKind } from '../src/modules/records/record-kinds.ts';
import { startSmtpListener, startWhatsappPeer } from '../src/test/peers.ts';
import {
  type ServerProcess,
  signUpOver,
  startNoticeImportOver,
  startServerProcess,
} from '../src/test/server-process.ts';
import { recordSheet, writeSheet } from '../src/test/xlsx.ts';
import { benchTarget, seedCampaign, seedSendableNotices, type BenchTarget } from './support.ts';

export const USERS = 50;
/** Notices and credit cards each user has, in one campaign of each kind. */
export const RECORDS_PER_KIND = 1000;
export const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
export const IMPORT_ROWS = 20_000;
export const SEND = Number(process.env.BENCH_LOAD_SEND ?? 3000);
const SEND_CHUNK = 100;

interface Account {
  authorization: string;
  noticeCampaignId: string;
}

/** The 20,000-row notice sheet the background import uploads; written once and kept in the temp folder. */
async function importSheet(): Promise<string> {
  const file = path.join(os.tmpdir(), `notice-desk-bench-load-${IMPORT_ROWS}.xlsx`);
  if (!fs.existsSync(file)) {
    await writeSheet(`${file}.partial`, recordSheet(noticeFields, IMPORT_ROWS, 'load'));
    fs.renameSync(`${file}.partial`, file);
  }
  return file;
}

const pages = RECORDS_PER_KIND / 10;
const randomPage = () => 1 + Math.floor(Math.random() * pages);

/** What a signed-in user's browser asks for, by endpoint name. */
const endpoints: Record<string, (account: Account) => string> = {
  'notice list': () => `/api/notices/by-user-id?page=${randomPage()}&limit=10`,
  'credit-card list': () => `/api/credit-cards/by-user-id?page=${randomPage()}&limit=10`,
  'campaign detail': (a) =>
    `/api/campaigns/single-campaign/${a.noticeCampaignId}?page=${1 + Math.floor(Math.random() * 20)}&limit=50`,
  dashboard: () => '/api/dashboard',
  'PDF templates': () => '/api/emailTemplates/getdata',
  'WhatsApp templates': () => '/api/whatsapptemplates/getdata',
};

interface Sample {
  /** Of every answer, whatever its status. */
  latencies: number[];
  /** Answers other than 200, and requests that got no answer. */
  errors: number;
  unanswered: number;
  firstError?: string;
}

/** GET over a kept-alive connection; answers the status once the body has been read. */
function get(agent: http.Agent, baseUrl: string, url: string, authorization: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}${url}`, { agent, headers: { authorization } }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Each user asks for the next page the moment the last one arrived, round the endpoints, until the time is up. */
async function runUsers(server: ServerProcess, accounts: Account[], seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: accounts.length });
  const samples = new Map(
    Object.keys(endpoints).map((name) => [name, { latencies: [], errors: 0, unanswered: 0 } as Sample]),
  );
  const names = Object.keys(endpoints);
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    accounts.map(async (account, u) => {
      for (let n = u; performance.now() < until; n++) {
        const name = names[n % names.length]!;
        const sample = samples.get(name)!;
        const begin = performance.now();
        try {
          const status = await get(agent, server.baseUrl, endpoints[name]!(account), account.authorization);
          sample.latencies.push(performance.now() - begin);
          if (status !== 200) {
            sample.errors += 1;
            sample.firstError ??= `HTTP ${status}`;
          }
        } catch (err) {
          sample.errors += 1;
          sample.unanswered += 1;
          sample.firstError ??= (err as Error).message;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return { samples, elapsed };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!);
}

export interface LoadEndpointFigures {
  database: string;
  endpoint: string;
  requests: number;
  errors: number;
  'p50 ms': number;
  'p99 ms': number;
}

export interface LoadFigures {
  database: string;
  endpoints: LoadEndpointFigures[];
  'requests/s': number;
  errors: number;
  /** Problems of the background work (import or send not done right), as sentences. */
  problems: string[];
  'import s': number;
  'send s': number;
}

/**
 * 50 signed-in users, each with 1,000 notices and 1,000 credit cards, browse their lists, a campaign,
 * the dashboard and the template lists for 60 s, while one more user imports 20,000 rows and sends
 * 3,000 notices by e-mail and WhatsApp.
 */
export async function benchLoad(label: BenchTarget['label']): Promise<LoadFigures> {
  const smtp = await startSmtpListener();
  const peer = await startWhatsappPeer();
  const target = await benchTarget(label, 'load');
  const server = await startServerProcess({
    ...target.env,
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: peer.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_MODE: 'session', // free-form document messages, as these tests read them
    SMTP_RATE: '100000',
    WHATSAPP_RATE: '100000',
    LOG_LEVEL: 'error',
  });
  try {
    const sheet = await importSheet();
    const accounts: Account[] = [];
    for (let u = 0; u < USERS; u++) {
      const user = await signUpOver(server.baseUrl, `load-user-${u}`);
      const notices = await seedCampaign(target, user.userId, noticeKind, RECORDS_PER_KIND);
      await seedCampaign(target, user.userId, creditCardKind, RECORDS_PER_KIND);
      accounts.push({ authorization: user.headers.authorization, noticeCampaignId: notices.campaignId });
    }
    const background = await signUpOver(server.baseUrl, 'load-background');
    const { ids: sendIds } = await seedSendableNotices(target, background.userId, SEND);
    if (label === 'PostgreSQL') {
      const { db } = await openDatabase(target.config);
      await sql`analyze`.execute(db);
      await db.destroy();
    }

    const problems: string[] = [];
    const post = (url: string, body: unknown) =>
      fetch(`${server.baseUrl}${url}`, {
        method: 'POST',
        headers: { ...background.headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const importing = (async () => {
      const start = performance.now();
      await startNoticeImportOver(server.baseUrl, background.headers, sheet);
      for (;;) {
        const res = await fetch(`${server.baseUrl}/api/notices/by-user-id/progress-count`, {
          headers: background.headers,
        });
        const progress = (await res.json()) as { status?: string; imported?: number; error?: string };
        if (progress.status === 'failed') problems.push(`the import failed: ${progress.error}`);
        else if (progress.status === 'done' && progress.imported !== IMPORT_ROWS)
          problems.push(`the import took ${progress.imported} rows of ${IMPORT_ROWS}`);
        if (progress.status === 'done' || progress.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 500));
      }
      return (performance.now() - start) / 1000;
    })();
    const sending = (async () => {
      const start = performance.now();
      for (let i = 0; i < SEND; i += SEND_CHUNK) {
        const res = await post('/api/campaigns/send-mail', {
          data: sendIds.slice(i, i + SEND_CHUNK),
          type: 'notice',
        });
        if (res.status !== 200) problems.push(`a send answered ${res.status}: ${await res.text()}`);
        else await res.arrayBuffer();
      }
      for (let i = 0; i < 1200 && (smtp.mails.length < SEND || peer.messages.length < SEND); i++)
        await new Promise((r) => setTimeout(r, 100));
      if (smtp.mails.length !== SEND || peer.messages.length !== SEND)
        problems.push(
          `the send reached ${smtp.mails.length} mailboxes and ${peer.messages.length} WhatsApp numbers of ${SEND}`,
        );
      return (performance.now() - start) / 1000;
    })();

    const { samples, elapsed } = await runUsers(server, accounts, SECONDS);
    const [importSeconds, sendSeconds] = await Promise.all([importing, sending]);
    if (server.child.exitCode !== null) problems.push('the server process exited');

    const rows: LoadEndpointFigures[] = [...samples].map(([endpoint, sample]) => {
      const sorted = sample.latencies.sort((a, b) => a - b);
      if (sample.firstError)
        problems.push(`${endpoint}: ${sample.errors} errors, first: ${sample.firstError}`);
      return {
        database: label,
        endpoint,
        requests: sample.latencies.length + sample.unanswered,
        errors: sample.errors,
        'p50 ms': percentile(sorted, 50),
        'p99 ms': percentile(sorted, 99),
      };
    });
    const requests = rows.reduce((n, r) => n + r.requests, 0);
    const all = [...samples.values()].flatMap((s) => s.latencies).sort((a, b) => a - b);
    rows.push({
      database: label,
      endpoint: 'all',
      requests,
      errors: rows.reduce((n, r) => n + r.errors, 0),
      'p50 ms': percentile(all, 50),
      'p99 ms': percentile(all, 99),
    });
    return {
      database: label,
      endpoints: rows,
      'requests/s': Math.round(requests / elapsed),
      errors: rows.at(-1)!.errors,
      problems,
      'import s': Number(importSeconds.toFixed(1)),
      'send s': Number(sendSeconds.toFixed(1)),
    };
  } finally {
    await server.stop();
    await target.cleanup();
    await smtp.close();
    await peer.close();
  }
}
