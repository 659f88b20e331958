import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../db/database.ts';
import { isServerBuildFresh } from '../../../../scripts/build-server.mjs';
import { sharedBrowserEnv } from './shared-browser.ts';

const repo = path.resolve(import.meta.dirname, '../../../..');

export interface ServerProcess {
  baseUrl: string;
  dataDir: string;
  child: ChildProcess;
  /** SIGTERM, wait for the graceful exit, remove the data folder unless it was given. */
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * No provider rate: a test of sending is not a test of the rate limit, which has its own
 * (limits/send-rates.test.ts); at the default 10 mails a second a 1,000-notice send takes 100 s.
 */
export const unlimitedSends = { SMTP_RATE: 'unlimited', WHATSAPP_RATE: 'unlimited', SMS_RATE: 'unlimited' };
/**
 * Password hashes at scrypt's least cost (1 MiB, 2 ms), not production's (32 MiB, 50-180 ms): a sign-up
 * and a login cost 0.4 s of CPU at 15, in nearly every test (lib/password.ts).
 */
export const cheapPasswords = { PASSWORD_HASH_COST: '10' };

/** A server or worker process's environment: SQLite, quiet logs, no send rate, the run's browser. */
const childEnv = (env: Record<string, string>): NodeJS.ProcessEnv => ({
  ...process.env,
  DATABASE_URL: '',
  LOG_LEVEL: 'warn',
  ...unlimitedSends,
  ...cheapPasswords,
  // As in test/app.ts: tests written before WHATSAPP_ALONE_REFUSED send WhatsApp-only records alone.
  WHATSAPP_ALONE_REFUSED: 'false',
  ...sharedBrowserEnv(env),
  ...env,
});

/**
 * How a test starts `apps/server/src/<entry>.ts`: the compiled server (apps/server/dist, made by
 * `npm run build` and by the test setup) when it was built from the sources as they are now, as
 * production runs it, and boots in a third of the CPU time; otherwise the source through tsx, so a
 * file edited since the last build is never tested in its old form.
 */
export function entryArgs(entry: 'server' | 'worker' | 'admin' | 'migrate'): string[] {
  if (isServerBuildFresh()) return [path.join(repo, `apps/server/dist/${entry}.js`)];
  if (!warnedStale) {
    warnedStale = true;
    console.warn('[server-process] apps/server/dist is older than the sources: starting through tsx');
  }
  return ['--import', 'tsx', `apps/server/src/${entry}.ts`];
}
let warnedStale = false;

/** The port chosen was taken before the server bound it. */
class PortTaken extends Error {}

/**
 * Starts the real server as `npm start` runs it, on a free port of 127.0.0.1, and waits until it is
 * healthy. A port found free can be taken before the server binds it (by another test's server, or as
 * the local port of any outgoing connection: both come from the same range), so a server that exits
 * saying EADDRINUSE is started again on another port, up to three times.
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  /** Sees everything the server writes (its logs), as it comes. */
  onOutput?: (text: string) => void,
): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(env, onOutput);
    } catch (err) {
      if (!(err instanceof PortTaken) || attempt === 3) throw err;
    }
  }
}

async function startServerOnce(
  env: Record<string, string>,
  onOutput?: (text: string) => void,
): Promise<ServerProcess> {
  const port = await freePort();
  const ownDataDir = !env.DATA_DIR;
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-proc-'));
  const child = spawn(process.execPath, entryArgs('server'), {
    cwd: repo,
    env: { ...childEnv(env), PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: ['ignore', onOutput ? 'pipe' : 'inherit', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    onOutput?.(chunk.toString());
  });
  // Passed on as it comes; the start's last words kept, to tell a taken port from any other failure.
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    onOutput?.(chunk.toString());
    if (stderr.length < 8000) stderr += chunk.toString();
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      if (stderr.includes('EADDRINUSE')) throw new PortTaken(`port ${port} was taken`);
      throw new Error(`server exited with ${child.exitCode}`);
    }
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('server did not start within 60 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    dataDir,
    child,
    async stop() {
      await terminate(child);
      if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * SIGTERM and wait for the graceful exit; SIGKILL when it has not come within 20 s (a request that
 * never ends holds a graceful close for ever, and a test that failed must not leave the process behind).
 */
async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** Registers and signs in an account over HTTP; answers its bearer header and id. */
export async function signUpOver(baseUrl: string, username: string, password = 'pass-word-1') {
  const body = (value: object) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  });
  await fetch(`${baseUrl}/api/auth/register`, body({ name: username, username, password }));
  const login = await fetch(`${baseUrl}/api/auth/login`, body({ username, password }));
  const { token, user } = (await login.json()) as { token: string; user: { _id: string } };
  return { token, userId: user._id, headers: { authorization: `Bearer ${token}` } };
}

/**
 * How far the import a test started has read its sheet (0-100): the highest progress of any job. On
 * PostgreSQL an import's rows are unseen by other connections until it commits, so this is how a test
 * tells that it is under way.
 */
export async function importProgress(db: Database): Promise<number> {
  const job = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.max('progress').as('progress'))
    .executeTakeFirstOrThrow();
  return Number(job.progress ?? 0);
}

/**
 * Uploads a notice sheet and starts its import over HTTP, as the Import Excel modal does; answers
 * the start's response (202). `startAt` sends the start to another process than the upload.
 */
export async function startNoticeImportOver(
  baseUrl: string,
  headers: Record<string, string>,
  sheetPath: string,
  startAt = baseUrl,
): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(sheetPath)]), path.basename(sheetPath));
  const uploaded = await fetch(`${baseUrl}/temporary-upload`, { method: 'POST', headers, body: form });
  if (!uploaded.ok) throw new Error(`the upload answered ${uploaded.status}: ${await uploaded.text()}`);
  const { data } = (await uploaded.json()) as { data: string };
  return fetch(`${startAt}/api/notices/upload-notice-info`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ file: data }),
  });
}

/** Starts a job worker process (`npm run worker`) on the given data; it has no port, so it is ready when spawned. */
export function startWorkerProcess(
  env: Record<string, string>,
  /** Sees what the worker writes to stderr (its start's refusal), as it comes. */
  onStderr?: (text: string) => void,
): {
  child: ChildProcess;
  stop(): Promise<void>;
} {
  const child = spawn(process.execPath, entryArgs('worker'), {
    cwd: repo,
    env: childEnv(env),
    stdio: ['ignore', 'inherit', onStderr ? 'pipe' : 'inherit'],
  });
  child.stderr?.on('data', (chunk: Buffer) => onStderr?.(chunk.toString()));
  return {
    child,
    async stop() {
      await terminate(child);
    },
  };
}
