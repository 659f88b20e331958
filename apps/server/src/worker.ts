import pino from 'pino';
import { loadConfigOrExit } from './config/env.ts';
import { createServices } from './services.ts';

const SHUTDOWN_GRACE_MS = 30_000;

/** A job worker on its own: `npm run worker`. Run several, beside API processes started with RUN_JOBS=false. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = pino({ level: config.logLevel });
  const services = await createServices(config, log);
  services.jobs.start();
  services.retention.start();
  services.bounceMailbox?.start();
  log.info({ workerId: services.jobs.workerId }, 'worker started');
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // A request or job that never finishes must not keep the process from stopping.
    setTimeout(() => {
      console.error(`still stopping after ${SHUTDOWN_GRACE_MS / 1000} s; exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    log.info({ signal }, 'worker stopping: letting the running job reach a safe point');
    await services.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
