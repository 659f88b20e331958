import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.ts';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
});

/** Sends raw bytes (what no well-behaved client would) and answers the status and the JSON body. */
function raw(request: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', json = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body: JSON.parse(json) as Record<string, unknown> });
    });
  });
}

const shape = (statusCode: number, message: RegExp) => ({
  statusCode,
  code: expect.any(String),
  message: expect.stringMatching(message),
  error: expect.stringMatching(message),
});

it('answers headers too large with 431 in the one error shape', async () => {
  const res = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  expect(res).toEqual({ status: 431, body: shape(431, /headers are too large/) });
});

it('answers an address too long with 414 in the one error shape', async () => {
  const res = await raw(`GET /api/health?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
  expect(res).toEqual({ status: 414, body: shape(414, /address is too long/) });
});

it('answers a path parameter past the router’s limit with 414 in the one error shape', async () => {
  const res = await t.app.inject({ url: `/api/notices/${'a'.repeat(200)}` });
  expect(res.statusCode).toBe(414);
  expect(res.json()).toEqual(shape(414, /address is too long/));
});

it('answers a NUL byte in Content-Type with 400 in the one error shape', async () => {
  const res = await raw(
    'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\0\r\nContent-Length: 2\r\n\r\n{}',
  );
  expect(res).toEqual({ status: 400, body: shape(400, /header holds a character/) });
});

it('keeps answering after them', async () => {
  expect((await t.app.inject({ url: '/api/health' })).statusCode).toBeLessThan(500);
});
