import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/app.ts';
import { entryArgs } from './test/server-process.ts';

const repo = path.resolve(import.meta.dirname, '../../..');

/** One database for the command line and the app: a temporary DATA_DIR, and a schema of its own on PostgreSQL. */
const databaseUrl = process.env.DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-admin-'));
const schema = databaseUrl ? `test_${randomBytes(6).toString('hex')}` : 'public';
const databaseEnv = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', DATABASE_SCHEMA: schema };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run admin -- …` as the root script does, with stdin piped (so never a terminal). */
function admin(args: string[], stdin = ''): Promise<Run> {
  const child = spawn(process.execPath, [...entryArgs('admin'), ...args], {
    cwd: repo,
    env: { ...process.env, LOG_LEVEL: 'silent', ...databaseEnv },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const passwords = ['root-pass-1', 'bob-first-pass', 'bob-new-pass'];
/** An e-mail address, so reset links reach it. */
const bobName = 'bob@example.com';
const runs: Run[] = [];
async function adminRun(args: string[], stdin?: string): Promise<Run> {
  const run = await admin(args, stdin);
  runs.push(run);
  return run;
}

let t: TestApp;
const login = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

beforeAll(async () => {
  t = await createTestApp(databaseEnv);
});
afterAll(async () => {
  await t.close();
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run admin', { timeout: 90_000 }, () => {
  it('creates users, refuses a taken username and an unknown one, and promotes a user to ADMIN', async () => {
    const root = await adminRun(['create-user', '--username', 'root', '--password', passwords[0]!]);
    expect(root).toMatchObject({ code: 0, stdout: 'Created ADMIN "root".\n', stderr: '' });

    // The password is read from stdin when it is piped in rather than given as a flag.
    const bob = await adminRun(
      ['create-user', '--username', bobName, '--name', 'Bob B'],
      `${passwords[1]}\n`,
    );
    expect(bob).toMatchObject({ code: 0, stdout: `Created user "${bobName}".\n`, stderr: '' });

    const [taken, unknown, empty] = await Promise.all([
      adminRun(['create-user', '--username', 'BOB@Example.com', '--password', 'another-pass']),
      adminRun(['promote', '--username', 'nobody']),
      adminRun(['create-user', '--username', 'carol'], '\n'),
    ]);
    expect(taken).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'Username "BOB@Example.com" is already taken.\n',
    });
    expect(unknown).toMatchObject({ code: 1, stdout: '', stderr: 'No user named "nobody".\n' });
    expect(empty).toMatchObject({ code: 1, stdout: '', stderr: '--password: Password is required!!\n' });

    const signedIn = await login(bobName, passwords[1]!);
    expect(signedIn.json()).toMatchObject({ user: { username: bobName, name: 'Bob B', role: 'USER' } });

    const promoted = await adminRun(['promote', '--username', bobName]);
    expect(promoted).toMatchObject({ code: 0, stdout: `"${bobName}" is now an ADMIN.\n`, stderr: '' });
  });

  it('holds the API’s rules: a short password, the username as password, a look-alike, an invisible character', async () => {
    const [short, same, lookAlike, hidden] = await Promise.all([
      adminRun(['create-user', '--username', 'carol'], 'seven-7\n'),
      adminRun(['create-user', '--username', 'carol.davis'], 'CAROL.DAVIS\n'),
      adminRun(['create-user', '--username', 'r00t'], 'another-pass\n'),
      adminRun(['create-user', '--username', 'dave\u200b'], 'another-pass\n'),
    ]);
    expect(short).toMatchObject({
      code: 1,
      stderr: '--password: Password must be at least 8 characters.\n',
    });
    expect(same).toMatchObject({ code: 1, stderr: '--password: Password must not be the username.\n' });
    expect(lookAlike).toMatchObject({ code: 1, stdout: '' });
    expect(lookAlike.stderr).toMatch(/^Username "r00t" looks like an existing one/);
    expect(hidden).toMatchObject({ code: 1, stdout: '' });
    expect(hidden.stderr).toMatch(/^--username: Username must not contain control, invisible/);
  });

  it('resets a password: the new one signs in as ADMIN, the old one and old reset links stop working', async () => {
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: bobName },
    });
    expect(forgot.statusCode).toBe(200);
    await t.app.settled();
    const oldLink = resetTokenFromOutbox();
    const earlier = await login(bobName, passwords[1]!);

    const weak = await adminRun(['reset-password', '--username', bobName], `${bobName.toUpperCase()}\n`);
    expect(weak).toMatchObject({ code: 1, stderr: '--password: Password must not be the username.\n' });
    const reset = await adminRun(['reset-password', '--username', bobName], `${passwords[2]}\n`);
    expect(reset).toMatchObject({ code: 0, stderr: '' });
    expect(reset.stdout).toMatch(/^Password of "bob@example.com" reset/);
    // The session opened before the reset has ended with it.
    const ended = await t.app.inject({
      method: 'GET',
      url: '/api/dashboard',
      headers: { authorization: `Bearer ${earlier.json().token}` },
    });
    expect(ended.statusCode).toBe(401);

    expect((await login(bobName, passwords[1]!)).statusCode).toBe(401);
    const signedIn = await login(bobName, passwords[2]!);
    expect(signedIn.statusCode).toBe(200);
    const { token, user } = signedIn.json<{ token: string; user: { role: string } }>();
    expect(user.role).toBe('ADMIN');

    // An ADMIN-only write proves the role on the server, not just in the login answer.
    const headers = { authorization: `Bearer ${token}` };
    const list = await t.app.inject({ method: 'GET', url: '/api/whatsapptemplates/getdata', headers });
    const template = list.json<{ items: { _id: string; value: string }[] }>().items[0]!;
    const write = await t.app.inject({
      method: 'PUT',
      url: `/api/whatsapptemplates/update/${template._id}`,
      headers,
      payload: { value: template.value },
    });
    expect(write.statusCode).toBe(200);

    const useOldLink = await t.app.inject({
      method: 'PUT',
      url: `/api/auth/reset-password/${oldLink}`,
      payload: { password: 'via-old-link' },
    });
    expect(useOldLink.statusCode).toBe(400);

    // What the command line did is in the audit log, done by nobody signed in.
    const log = await t.app.inject({ method: 'GET', url: '/api/audit?limit=100', headers });
    const cli = log
      .json<{ items: { action: string; actor: unknown; summary: string }[] }>()
      .items.filter((entry) => entry.actor === null)
      .map((entry) => entry.action);
    expect(cli).toEqual(expect.arrayContaining(['user.create', 'user.promote', 'user.password-reset']));
  });

  it('refuses an unknown user, an unknown command and a stray option with one line and exit code 1', async () => {
    const [unknownUser, unknownCommand, stray] = await Promise.all([
      adminRun(['reset-password', '--username', 'nobody'], 'whatever-pass\n'),
      adminRun(['frobnicate']),
      adminRun(['promote', '--username', bobName, '--password', 'not-needed']),
    ]);
    expect(unknownUser).toMatchObject({ code: 1, stdout: '', stderr: 'No user named "nobody".\n' });
    expect(unknownCommand.code).toBe(1);
    expect(unknownCommand.stderr).toMatch(/^Unknown command "frobnicate"[^\n]*\n$/);
    expect(stray).toMatchObject({ code: 1, stderr: 'promote takes no --password.\n' });
  });

  it('never prints a password', () => {
    expect(runs.length).toBeGreaterThan(5);
    for (const run of runs)
      for (const password of passwords) expect(run.stdout + run.stderr).not.toContain(password);
  });
});

function resetTokenFromOutbox(): string {
  const outbox = path.join(dataDir, 'outbox');
  const mails = fs.readdirSync(outbox).map((file) => fs.readFileSync(path.join(outbox, file), 'utf8'));
  const match = /reset-password\/([A-Za-z0-9_-]+)/.exec(mails.join('\n').replace(/=\r?\n/g, ''));
  if (!match?.[1]) throw new Error('no reset link in the outbox');
  return match[1];
}
