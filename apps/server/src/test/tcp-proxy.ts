import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** The local ports of the proxy's connections to the target: how the target sees this proxy's clients. */
  upstreamPorts(): number[];
  /** Drops every connection at once and stops listening, as a server going down does. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 in front of a real server, so a test can take that server away and bring
 * it back (a PostgreSQL restart) without touching the server itself, which other tests share.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const upstreams = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    track(client);
    track(upstream);
    upstreams.add(upstream);
    upstream.once('close', () => upstreams.delete(upstream));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address() as net.AddressInfo;
  const stop = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    upstreamPorts: () => [...upstreams].map((socket) => socket.localPort).filter((p) => p !== undefined),
    stop,
    start: () => listen(port),
    close: async () => {
      if (server.listening) await stop();
    },
  };
}
