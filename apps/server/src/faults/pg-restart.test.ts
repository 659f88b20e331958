import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpOver, startServerProcess, type ServerProcess } from '../test/server-process.ts';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy.ts';

// PostgreSQL going away under a running server: the shared PostgreSQL cannot be restarted in CI, so a
// TCP proxy stands between the server process and it; stopping the proxy drops every connection and
// refuses new ones, as a restart does. Requests meanwhile answer 503 quickly, later ones succeed, and
// the process is never restarted.
const OUTAGE_MS = 3000;
/** The pool waits at most 5 s for a connection: every answer, 200 or 503, comes within this. */
const ANSWER_BOUND_MS = 8000;
const STREAMS = 4;

interface Answer {
  startedAt: number;
  endedAt: number;
  status: number | 'timeout' | 'network';
  code?: string;
  message?: string;
}

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL restarted while requests run', () => {
  const databaseUrl = new URL(process.env.DATABASE_URL ?? 'postgres://127.0.0.1');
  const schema = `fault_${randomBytes(5).toString('hex')}`;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let headers: { authorization: string };

  beforeAll(async () => {
    proxy = await startTcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
    const proxied = new URL(databaseUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    server = await startServerProcess({
      DATABASE_URL: proxied.toString(),
      DATABASE_SCHEMA: schema,
      JWT_SECRET: 'fault-test-secret-fault-test-secret-0123',
      // Every 503 logs a warning; the test reads the answers instead.
      LOG_LEVEL: 'error',
    });
    ({ headers } = await signUpOver(server.baseUrl, 'asha'));
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${server.baseUrl}/api/notices`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(Object.fromEntries(noticeFields.map((f) => [f.key, `${f.key}-${i}`]))),
      });
      expect(res.status).toBe(201);
    }
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  /** Signed-in list requests, back to back on a few connections, until stopped. */
  function requestStream() {
    const answers: Answer[] = [];
    let running = true;
    const loop = async () => {
      while (running) {
        const startedAt = Date.now();
        const answer: Answer = { startedAt, endedAt: 0, status: 'network' };
        try {
          const res = await fetch(`${server.baseUrl}/api/notices/by-user-id?page=1&limit=10`, {
            headers,
            signal: AbortSignal.timeout(ANSWER_BOUND_MS * 2),
          });
          answer.status = res.status;
          const body = (await res.json()) as { code?: string; message?: string };
          Object.assign(answer, { code: body.code, message: body.message });
        } catch (err) {
          answer.status = (err as Error).name === 'TimeoutError' ? 'timeout' : 'network';
        }
        answer.endedAt = Date.now();
        answers.push(answer);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const loops = Array.from({ length: STREAMS }, loop);
    return {
      answers,
      async stop() {
        running = false;
        await Promise.all(loops);
      },
    };
  }

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /** Every answer a 200 or a clear 503, none slower than the bound, and the process the one it was. */
  async function expectClearAnswers(answers: Answer[], pid: number | undefined) {
    expect(answers.filter((a) => typeof a.status !== 'number')).toEqual([]);
    expect(Math.max(...answers.map((a) => a.endedAt - a.startedAt))).toBeLessThan(ANSWER_BOUND_MS);
    expect([...new Set(answers.map((a) => a.status))].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    for (const answer of answers.filter((a) => a.status === 503)) {
      expect(answer).toMatchObject({
        code: 'DATABASE_UNAVAILABLE',
        message: expect.stringMatching(/database is unavailable/i),
      });
    }
    expect(server.child.exitCode).toBeNull();
    expect(server.child.signalCode).toBeNull();
    expect(server.child.pid).toBe(pid);
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
  }

  it('answers 503 while the database is away, then serves again, in the same process', async () => {
    const pid = server.child.pid;
    const stream = requestStream();
    await sleep(1000);
    const down = Date.now();
    await proxy.stop();
    await sleep(OUTAGE_MS);
    const up = Date.now();
    await proxy.start();
    await sleep(3000);
    await stream.stop();
    const { answers } = stream;

    await expectClearAnswers(answers, pid);
    expect(answers.filter((a) => a.endedAt < down).every((a) => a.status === 200)).toBe(true);
    // Asked after the drop and answered before the return: the database was away the whole time.
    const duringOutage = answers.filter((a) => a.startedAt > down + 100 && a.endedAt < up);
    expect(duringOutage.length).toBeGreaterThan(STREAMS);
    expect(duringOutage.every((a) => a.status === 503)).toBe(true);
    // Once it is back the pool reconnects by itself: within a second every answer is a 200 again.
    const afterReturn = answers.filter((a) => a.startedAt > up + 1000);
    expect(afterReturn.length).toBeGreaterThan(STREAMS);
    expect(afterReturn.every((a) => a.status === 200)).toBe(true);
  }, 60_000);

  it('survives PostgreSQL ending its sessions (57P01, as a fast shutdown does) and serves again', async () => {
    const pid = server.child.pid;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const stream = requestStream();
    await sleep(500);
    // Ten times over a second, so some end mid-query, some between a transaction's queries, some idle.
    let ended = 0;
    for (let i = 0; i < 10; i++) {
      const result = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where client_port = any($1::int[])',
        [proxy.upstreamPorts()],
      );
      ended += result.rowCount ?? 0;
      await sleep(100);
    }
    const last = Date.now();
    await sleep(2000);
    await stream.stop();
    await admin.end();
    const { answers } = stream;

    expect(ended).toBeGreaterThan(0);
    await expectClearAnswers(answers, pid);
    const afterwards = answers.filter((a) => a.startedAt > last + 500);
    expect(afterwards.length).toBeGreaterThan(STREAMS);
    expect(afterwards.every((a) => a.status === 200)).toBe(true);
  }, 60_000);
});
