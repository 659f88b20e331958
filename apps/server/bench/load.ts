import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { noticeFields } from '@notice-desk/contract/notice';
import { openDatabase } from '../src/db/database.ts';
import { creditCardKind, noticeKind } from '../src/modules/records/record-kinds.ts';
import { startSmtpListener, startWhatsappPeer } from '../src/test/peers.ts';
import { startS3Peer } from '../src/test/s3-peer.ts';
import {
  type ServerProcess,
  signUpOver,
  startNoticeImportOver,
  startServerProcess,
  startWorkerProcess,
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
/** Fresh notices (none rendered) sent after the browsing, with nothing else running: the end-to-end rate. */
export const THROUGHPUT = Number(process.env.BENCH_LOAD_THROUGHPUT ?? 2000);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** One process doing it all (the embedded default), or issue 32's shape: two API processes and two workers. */
export type LoadShape = 'one process' | 'two APIs, two workers';

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
async function runUsers(servers: ServerProcess[], accounts: Account[], seconds: number) {
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
          // Each user stays on one API process, as a load balancer with sticky sessions would keep them.
          const { baseUrl } = servers[u % servers.length]!;
          const status = await get(agent, baseUrl, endpoints[name]!(account), account.authorization);
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
  shape: LoadShape;
  endpoints: LoadEndpointFigures[];
  'requests/s': number;
  errors: number;
  /** Problems of the background work (import or send not done right), as sentences. */
  problems: string[];
  'import s': number;
  'send s': number;
  /** THROUGHPUT fresh notices rendered and sent on both channels, nothing else running: per hour. */
  'notices/hour': number;
  'per worker/hour': number;
}

/** Whether something listens at the Redis URL's port (this machine and CI run a Redis; elsewhere none). */
function redisAnswers(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379), timeout: 1000 });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/**
 * 50 signed-in users, each with 1,000 notices and 1,000 credit cards, browse their lists, a campaign,
 * the dashboard and the template lists for 60 s, while one more user imports 20,000 rows and sends
 * 3,000 notices by e-mail and WhatsApp.
 */
export async function benchLoad(
  label: BenchTarget['label'],
  shape: LoadShape = 'one process',
): Promise<LoadFigures> {
  const smtp = await startSmtpListener();
  const peer = await startWhatsappPeer();
  const many = shape === 'two APIs, two workers';
  const target = await benchTarget(label, many ? 'load_many' : 'load');
  // Before any process starts: the S3 peer puts its credentials in the environment they inherit.
  const s3 = many ? await startS3Peer() : undefined;
  const env = {
    ...target.env,
    ...s3?.env(`bench-load-${process.pid}`),
    ...(many && (await redisAnswers()) ? { REDIS_URL } : {}),
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: peer.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_MODE: 'session', // free-form document messages, as these tests read them
    SMTP_RATE: '100000',
    WHATSAPP_RATE: '100000',
    LOG_LEVEL: 'error',
  };
  /** A DATA_DIR of its own for each process of the many shape: nothing is shared but the database and bucket. */
  const dataDir = (name: string) => ({ DATA_DIR: path.join(target.env.DATA_DIR!, name) });
  const apis = many
    ? [
        await startServerProcess({ ...env, ...dataDir('api-1'), RUN_JOBS: 'false' }),
        await startServerProcess({ ...env, ...dataDir('api-2'), RUN_JOBS: 'false' }),
      ]
    : [await startServerProcess(env)];
  const workers = many
    ? [
        startWorkerProcess({ ...env, ...dataDir('worker-1') }),
        startWorkerProcess({ ...env, ...dataDir('worker-2') }),
      ]
    : [];
  const server = apis[0]!;
  const sender = apis.at(-1)!;
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
      fetch(`${sender.baseUrl}${url}`, {
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

    const { samples, elapsed } = await runUsers(apis, accounts, SECONDS);
    const [importSeconds, sendSeconds] = await Promise.all([importing, sending]);
    if (apis.some((api) => api.child.exitCode !== null)) problems.push('an API process exited');
    if (workers.some((worker) => worker.child.exitCode !== null)) problems.push('a worker process exited');

    // End to end with nothing else running: fresh notices rendered, sent on both channels, recorded.
    const fresh = await seedSendableNotices(target, background.userId, THROUGHPUT);
    const [mailsBefore, messagesBefore] = [smtp.mails.length, peer.messages.length];
    const throughputStart = performance.now();
    for (let i = 0; i < THROUGHPUT; i += 500) {
      // The same loan numbers as the first send's (seeded alike): served again on purpose.
      const res = await post('/api/campaigns/send-mail', {
        data: fresh.ids.slice(i, i + 500),
        type: 'notice',
        confirmServedRecently: true,
      });
      if (res.status !== 200) problems.push(`a send answered ${res.status}: ${await res.text()}`);
      else await res.arrayBuffer();
    }
    const arrived = () =>
      Math.min(smtp.mails.length - mailsBefore, peer.messages.length - messagesBefore) >= THROUGHPUT;
    for (let i = 0; i < 6000 && !arrived(); i++) await new Promise((r) => setTimeout(r, 100));
    if (!arrived()) problems.push(`the end-to-end send did not reach all ${THROUGHPUT} notices in 10 min`);
    const perHour = Math.round((THROUGHPUT / ((performance.now() - throughputStart) / 1000)) * 3600);

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
      shape,
      endpoints: rows,
      'requests/s': Math.round(requests / elapsed),
      errors: rows.at(-1)!.errors,
      problems,
      'import s': Number(importSeconds.toFixed(1)),
      'send s': Number(sendSeconds.toFixed(1)),
      'notices/hour': perHour,
      'per worker/hour': Math.round(perHour / Math.max(1, workers.length)),
    };
  } finally {
    await Promise.all([...apis, ...workers].map((p) => p.stop()));
    await target.cleanup();
    await smtp.close();
    await peer.close();
    await s3?.close();
  }
}
