#!/usr/bin/env node
// `npm run build` (server half): compiles the server's TypeScript, file by file, to JavaScript under
// apps/server/dist, in the same folder layout as apps/server/src, so that everything a module finds
// beside itself (`new URL('./bundled-fonts.json', import.meta.url)`, the worker-thread entries, the web
// app at ../../../web/dist) is found there too. Nothing is bundled: each source file becomes one .js file,
// its relative `./x.ts` imports become `./x.js`, the workspace's contract package (TypeScript source) is
// compiled beside it to apps/server/dist/_contract and imported by relative path, and packages stay
// imports of node_modules. Type checking is `npm run typecheck`'s job; esbuild only strips the types.
//
// Answers in about a second. The stamp file dist/.built carries the newest source time it was built
// from: `isServerBuildFresh()` (below) tells the tests whether the build is up to date.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
export const serverSrc = path.join(root, 'apps/server/src');
export const contractSrc = path.join(root, 'packages/contract/src');
export const serverDist = path.join(root, 'apps/server/dist');
const contractDist = path.join(serverDist, '_contract');
const stamp = path.join(serverDist, '.built');

/** Test code, fixtures and fault drills never run in production. */
const isShipped = (file) =>
  !/\.(test|fuzz\.test|bench)\.ts$/.test(file) &&
  !file.includes(`${path.sep}test${path.sep}`) &&
  !file.includes(`${path.sep}fixtures${path.sep}`) &&
  !file.includes(`${path.sep}faults${path.sep}`);

function sourceFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (isShipped(full)) out.push(full);
  }
  return out;
}

/** The newest modification time of the files the build reads (0 when none). */
export function newestSource() {
  let newest = 0;
  for (const file of [...sourceFiles(serverSrc), ...sourceFiles(contractSrc)]) {
    newest = Math.max(newest, fs.statSync(file).mtimeMs);
  }
  newest = Math.max(newest, fs.statSync(import.meta.filename).mtimeMs);
  return newest;
}

/** True when apps/server/dist was built from the sources as they are now. */
export function isServerBuildFresh() {
  try {
    return Number(fs.readFileSync(stamp, 'utf8')) >= newestSource();
  } catch {
    return false;
  }
}

/** Where the compiled form of a source file goes. */
function outputOf(file) {
  const [base, dist] = file.startsWith(contractSrc) ? [contractSrc, contractDist] : [serverSrc, serverDist];
  return path.join(dist, path.relative(base, file)).replace(/\.ts$/, '.js');
}

/** Every import stays an import: relative ones renamed to .js, the contract's made relative. */
const keepImports = {
  name: 'keep-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (args.path.startsWith('@notice-desk/contract/')) {
        const target = path.join(contractDist, `${args.path.slice('@notice-desk/contract/'.length)}.js`);
        let relative = path.relative(path.dirname(outputOf(args.importer)), target);
        if (!relative.startsWith('.')) relative = `./${relative}`;
        return { path: relative.split(path.sep).join('/'), external: true };
      }
      if (args.path.startsWith('.')) return { path: args.path.replace(/\.ts$/, '.js'), external: true };
      return { path: args.path, external: true };
    });
  },
};

export async function buildServer() {
  const newest = newestSource();
  const sources = [...sourceFiles(serverSrc), ...sourceFiles(contractSrc)];
  fs.rmSync(serverDist, { recursive: true, force: true });
  const code = sources.filter((file) => file.endsWith('.ts'));
  await build({
    entryPoints: code.map((file) => ({
      in: file,
      out: path.relative(root, outputOf(file)).replace(/\.js$/, ''),
    })),
    outdir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    plugins: [keepImports],
    logLevel: 'error',
  });
  // Files read at run time beside their module (bundled-fonts.json).
  for (const file of sources.filter((f) => !f.endsWith('.ts'))) {
    fs.mkdirSync(path.dirname(outputOf(file)), { recursive: true });
    fs.copyFileSync(file, outputOf(file));
  }
  fs.writeFileSync(path.join(serverDist, 'package.json'), '{ "type": "module" }\n');
  fs.writeFileSync(stamp, String(newest));
  return code.length;
}

if (import.meta.filename === process.argv[1]) {
  const started = Date.now();
  const files = await buildServer();
  console.log(`[build] server: ${files} files compiled to apps/server/dist in ${Date.now() - started} ms`);
}
