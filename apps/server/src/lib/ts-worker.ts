import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

// A worker runs TypeScript source like the rest of the server: it registers tsx's loader first,
// whichever way the parent process was started (node --import tsx, or the test runner).
const tsxApi = pathToFileURL(
  createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs'),
).href;

/** A worker thread running the TypeScript module at `module`. */
export function startTsWorker(module: URL, options: Omit<WorkerOptions, 'eval'>): Worker {
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(module.href)}, ${JSON.stringify(module.href)}))`;
  return new Worker(bootstrap, { ...options, eval: true });
}
