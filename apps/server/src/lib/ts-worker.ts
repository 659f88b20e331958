import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const serverRoot = fileURLToPath(new URL('../../', import.meta.url));
/** Under the server's own node_modules, so a bundle's packages resolve as its source's do. */
const bundleDir = path.join(serverRoot, 'node_modules/.cache/worker-bundles');
const bundles = new Map<string, Promise<string>>();
/** Running the compiled server (apps/server/dist), where nothing is bundled at run time. */
const compiled = import.meta.url.endsWith('.js');

/**
 * The file a worker thread or child process runs for the server's TypeScript module at `module`: the
 * module and the server code it imports, bundled into one plain JS file by esbuild (packages stay
 * imports). Made once per process, on first use, and named by its content, so an edited source is never
 * run from an old bundle. Loading the source through tsx instead gave each thread a module loader thread
 * of its own: about 25 MB more per worker, and 0.9-1.6 s to load the import's last step (load 4).
 * esbuild builds in its own process: building on this thread (buildSync) held every request for
 * 40-160 ms, up to 430 ms under load, the first time an import started.
 */
export function workerScript(module: URL): Promise<string> {
  // Compiled (`npm run build`, apps/server/dist): the entry is already a .js file beside this one.
  if (compiled) return Promise.resolve(fileURLToPath(module).replace(/\.ts$/, '.js'));
  let file = bundles.get(module.href);
  if (!file) {
    file = bundle(module);
    bundles.set(module.href, file);
    // A failed build is tried again by the next caller.
    file.catch(() => bundles.delete(module.href));
  }
  return file;
}

async function bundle(module: URL): Promise<string> {
  // Imported here, not above: the compiled server never loads esbuild.
  const { build } = await import('esbuild');
  const [output] = (
    await build({
      entryPoints: [fileURLToPath(module)],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      // The workspace's contract package is TypeScript source: bundled, not imported.
      alias: { '@notice-desk/contract': path.join(serverRoot, '../../packages/contract/src') },
      logLevel: 'error',
    })
  ).outputFiles;
  const hash = createHash('sha256').update(output!.contents).digest('hex').slice(0, 16);
  const file = path.join(bundleDir, `${path.basename(module.pathname, '.ts')}-${hash}.mjs`);
  if (!fs.existsSync(file)) {
    await fs.promises.mkdir(bundleDir, { recursive: true });
    // Written aside and renamed: another process may be making the same file at the same moment.
    const partial = `${file}.${process.pid}.partial`;
    await fs.promises.writeFile(partial, output!.contents);
    await fs.promises.rename(partial, file);
  }
  return file;
}

/** A worker thread running the server's TypeScript module at `module` (bundled by workerScript). */
export async function startTsWorker(module: URL, options: WorkerOptions = {}): Promise<Worker> {
  return new Worker(await workerScript(module), options);
}
