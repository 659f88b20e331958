import net from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { trackInFlight } from './in-flight.ts';

/** A promise and the function that resolves it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('closing waits for work in flight', () => {
  it('lets a handler whose client hung up finish before closing what it uses', async () => {
    const app = Fastify();
    const inFlight = trackInFlight(app);
    const events: string[] = [];
    const started = gate();
    const release = gate();
    app.get('/slow', async () => {
      started.open();
      await release.opened;
      events.push('handler used the database');
      return { ok: true };
    });
    app.addHook('onClose', async () => {
      await inFlight.idle();
      events.push('database closed');
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;

    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await started.opened;
    socket.destroy(); // the client hangs up; the handler goes on
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(inFlight.count).toBe(1);

    const closed = app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual([]);
    release.open();
    await closed;
    expect(events).toEqual(['handler used the database', 'database closed']);
    expect(inFlight.count).toBe(0);
  });

  it('counts nothing once answers are sent, whether handlers return, send or throw', async () => {
    const app = Fastify({ logger: false });
    const inFlight = trackInFlight(app);
    app.get('/async', async () => ({ ok: true }));
    app.get('/sync', (_request, reply) => {
      void reply.send({ ok: true });
    });
    app.get('/throws', async () => {
      throw new Error('boom');
    });
    await app.ready();
    for (const url of ['/async', '/sync', '/throws', '/missing']) await app.inject({ method: 'GET', url });
    expect(inFlight.count).toBe(0);
    await app.close();
  });
});
