import './lib/heap-growth.ts'; // first: before any module fills the heap
import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { loadConfigOrExit, requestLimitProblem } from './config/env.ts';
import { stopOnSignals } from './lib/shutdown.ts';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const refused = requestLimitProblem(config);
  if (refused) {
    console.error(refused);
    process.exit(2);
  }
  const app = await buildApp(config);
  stopOnSignals(
    (signal) => app.log.info({ signal }, 'shutting down: finishing requests in flight'),
    // close() stops accepting, waits for requests in flight, then runs onClose hooks (database, mailer).
    () => app.close(),
  );
  await app.listen({ port: config.port, host: config.host });
  // One line for the person who typed `npm start`, beside the JSON logs that machines read; quiet when
  // the logs are (tests run at warn).
  if (['info', 'debug', 'trace'].includes(config.logLevel)) {
    console.log(`Notice Desk is running at ${browserUrl(app.server.address() as AddressInfo)}`);
  }
}

/** Where a browser on this machine reaches the server: a wildcard address is reached as localhost. */
function browserUrl({ address, port }: AddressInfo): string {
  const wildcard = address === '0.0.0.0' || address === '::';
  const host = wildcard ? 'localhost' : address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${port}`;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
