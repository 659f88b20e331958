import './lib/heap-growth.ts'; // first: before any module fills the heap
import pino from 'pino';
import { loadConfigOrExit } from './config/env.ts';
import { stopOnSignals } from './lib/shutdown.ts';
import { startOpsServer } from './modules/health/ops-server.ts';
import { createServices } from './services.ts';

/** A job worker on its own: `npm run worker`. Run several, beside API processes started with RUN_JOBS=false. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = pino({ level: config.logLevel });
  const services = await createServices(config, log);
  // Its only port: the metrics and the checks an orchestrator polls (/api/health, /api/ready).
  const ops =
    config.metricsPort !== undefined
      ? await startOpsServer(services, config.metricsPort, config.host)
      : undefined;
  services.jobs.start();
  services.retention.start();
  services.fallback.start();
  services.bounceMailbox?.start();
  log.info({ workerId: services.jobs.workerId }, 'worker started');
  stopOnSignals(
    (signal) => log.info({ signal }, 'worker stopping: letting the running job reach a safe point'),
    async () => {
      await ops?.close();
      await services.close();
    },
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
