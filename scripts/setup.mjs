#!/usr/bin/env node
// Brings a fresh clone to a runnable state with nothing but Node and npm:
// installs dependencies when missing or stale, makes sure Chromium is there (installing
// Debian's package when running as root on Debian), and builds the web app and the server (to
// apps/server/dist, which `npm run serve`, `worker`, `admin` and `migrate` run) when their sources changed.
// Each step prints what it did and how long it took, so a slow first start is never a silent one.
// Only Node built-ins here: this runs before any dependency exists.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const say = (line) => console.log(`[setup] ${line}`);
/** Runs a shell command in view; a failure stops the setup with the command's own output above it. */
const run = (command, env = {}) => {
  say(`  $ ${command}`);
  const { status } = spawnSync(command, {
    cwd: root,
    stdio: 'inherit',
    shell: true,
    env: { ...process.env, ...env },
  });
  if (status !== 0) {
    console.error(
      `[setup] \`${command}\` failed (exit code ${status ?? 'none: killed'}); see its output above.`,
    );
    process.exit(status || 1);
  }
};

const duration = (ms) =>
  ms < 60_000
    ? `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
    : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

/** Runs one step and prints its outcome (what the step answers) with the time it took. */
async function step(name, action) {
  const started = Date.now();
  const outcome = await action();
  say(`${name}: ${outcome} (${duration(Date.now() - started)})`);
}

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`Node ${process.versions.node} is too old: install Node 20.19 or newer.`);
    process.exit(1);
  }
  return `Node ${process.versions.node}`;
}

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function newestIn(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(full) : mtime(full));
  }
  return newest;
}

const hasCommand = (name) => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;

/** Installs Debian packages when running as root on Debian; answers false when it cannot. */
function aptInstall(packages, why) {
  if (process.getuid?.() !== 0 || !hasCommand('apt-get')) return false;
  say(`${why}: installing Debian's ${packages.join(', ')}`);
  run('apt-get update -q');
  run(`DEBIAN_FRONTEND=noninteractive apt-get install -y -q ${packages.join(' ')}`);
  return true;
}

// better-sqlite3, the SQLite driver, is the one native module. Its install script fetches a prebuilt
// binary from the project's GitHub releases and compiles from source when it cannot (no network there,
// or no binary for this platform and Node). prebuild-install looks in npm's cache first, under a name
// derived from that download address; after a compile, the setup puts the binary there, so the next
// clone on this machine skips the compile.
const nativeModule = 'better-sqlite3';
const nativeBinary = path.join(root, 'node_modules', nativeModule, 'build', 'Release', 'better_sqlite3.node');

function nativePrebuild() {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const version = lock.packages?.[`node_modules/${nativeModule}`]?.version;
  if (!version) return undefined;
  const libc =
    process.platform === 'linux' && !process.report.getReport().header.glibcVersionRuntime ? 'musl' : '';
  const file = `${nativeModule}-v${version}-node-v${process.versions.modules}-${process.platform}${libc}-${process.arch}.tar.gz`;
  const url = `https://github.com/WiseLibs/${nativeModule}/releases/download/v${version}/${file}`;
  // The same name prebuild-install gives its cached downloads (util.cachedPrebuild).
  const digest = crypto.createHash('sha512').update(url).digest('hex').slice(0, 6);
  const cache = process.env.npm_config_cache || path.join(os.homedir(), '.npm');
  return {
    version,
    url,
    cached: path.join(cache, '_prebuilds', `${digest}-${file.replace(/[^a-zA-Z0-9.]+/g, '-')}`),
  };
}

function installedVersion(name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** Says up front whether the install will compile the native module, and makes sure it can. */
async function announceNativeBuild(prebuild) {
  if (!prebuild) return;
  if (fs.existsSync(nativeBinary) && installedVersion(nativeModule) === prebuild.version) return;
  if (fs.existsSync(prebuild.cached)) {
    say(
      `${nativeModule} ${prebuild.version}: taking the binary built earlier on this machine from npm's cache`,
    );
    return;
  }
  // GitHub answers a release asset that exists with a redirect to its storage, one that does not with 404.
  const reachable = await fetch(prebuild.url, {
    method: 'HEAD',
    redirect: 'manual',
    signal: AbortSignal.timeout(5000),
  }).then(
    (res) => res.ok || (res.status >= 300 && res.status < 400),
    () => false,
  );
  if (reachable) {
    say(`${nativeModule} ${prebuild.version}: downloading its prebuilt binary`);
    return;
  }
  say(
    `${nativeModule} ${prebuild.version} (the SQLite driver) has no prebuilt binary reachable from here, so npm\n` +
      '        compiles it from C sources: about 1 minute on an idle 2-core machine, longer on a busy one.\n' +
      '        npm prints nothing while it compiles. Later clones on this machine reuse the result.',
  );
  if (!hasCommand('make') || !(hasCommand('c++') || hasCommand('g++')) || !hasCommand('python3')) {
    if (!aptInstall(['build-essential', 'python3'], 'Compiling needs make, a C++ compiler and Python')) {
      console.warn(
        '[setup] Compiling needs make, a C++ compiler and Python 3: on Debian or Ubuntu run\n' +
          '        `sudo apt-get install build-essential python3`.',
      );
    }
  }
}

/** After a compile, the binary goes where prebuild-install looks first (see above). */
function cacheNativeBuild(prebuild) {
  if (!prebuild || fs.existsSync(prebuild.cached) || !fs.existsSync(nativeBinary)) return;
  if (installedVersion(nativeModule) !== prebuild.version) return;
  const partial = `${prebuild.cached}.${process.pid}.tmp`;
  fs.mkdirSync(path.dirname(prebuild.cached), { recursive: true });
  const tar = spawnSync(
    'tar',
    [
      '-czf',
      partial,
      '-C',
      path.join(root, 'node_modules', nativeModule),
      'build/Release/better_sqlite3.node',
    ],
    { stdio: 'ignore' },
  );
  if (tar.status === 0) fs.renameSync(partial, prebuild.cached);
  else fs.rmSync(partial, { force: true });
}

async function installDependencies() {
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  if (mtime(installed) >= mtime(path.join(root, 'package-lock.json'))) return 'up to date';
  const prebuild = nativePrebuild();
  await announceNativeBuild(prebuild);
  // npm install, not npm ci: npm leaves other platforms' optional packages out of the lock file, which npm ci refuses.
  // JOBS=max: node-gyp compiles the native module's sources in parallel when it has to.
  run('npm install --no-audit --no-fund', { JOBS: 'max' });
  cacheNativeBuild(prebuild);
  return 'installed';
}

export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function ensureChromium() {
  if (fs.existsSync(chromiumPath)) return `found at ${chromiumPath}`;
  if (aptInstall(['chromium'], 'Chromium is missing')) return 'installed';
  console.warn(
    `[setup] Chromium was not found at ${chromiumPath}. PDF rendering and the browser tests need it:\n` +
      '        on Debian or Ubuntu run `sudo apt-get install chromium`; elsewhere install Chromium or Chrome\n' +
      '        and set CHROMIUM_PATH to its executable.',
  );
  return 'missing';
}

/** The tests read PDFs as a person's tools do: pdftotext and pdffonts (poppler-utils). */
function ensurePdfTools() {
  if (hasCommand('pdftotext')) return 'found';
  if (aptInstall(['poppler-utils'], 'The tests read PDFs with pdftotext')) return 'installed';
  console.warn(
    '[setup] pdftotext was not found: install poppler-utils (`sudo apt-get install poppler-utils`).',
  );
  return 'missing';
}

/** The bounce tests read DSNs from a real IMAP server: Debian's Dovecot, started by the test itself. */
function ensureDovecot() {
  if (fs.existsSync('/usr/sbin/dovecot')) return 'found';
  if (aptInstall(['dovecot-imapd'], 'The bounce tests poll a real Dovecot')) return 'installed';
  console.warn(
    '[setup] dovecot was not found: the IMAP bounce tests are skipped (`sudo apt-get install dovecot-imapd`).',
  );
  return 'missing (its tests are skipped)';
}

function buildWeb() {
  const web = path.join(root, 'apps', 'web');
  const built = mtime(path.join(web, 'dist', 'index.html'));
  const sources = Math.max(
    newestIn(path.join(web, 'src')),
    newestIn(path.join(root, 'packages', 'contract', 'src')),
    mtime(path.join(web, 'index.html')),
    mtime(path.join(web, 'vite.config.ts')),
  );
  if (built >= sources) return 'up to date';
  run('npm run build --workspace apps/web');
  return 'built';
}

/** Compiles the server to apps/server/dist when its sources changed (scripts/build-server.mjs). */
async function buildServerStep() {
  // Imported here: it needs esbuild, which the dependencies step installs.
  const { buildServer, isServerBuildFresh } = await import('./build-server.mjs');
  if (isServerBuildFresh()) return 'up to date';
  return `${await buildServer()} files compiled`;
}

const started = Date.now();
await step('Node', checkNode);
await step('Dependencies', installDependencies);
await step('Chromium', ensureChromium);
if (process.argv.includes('--test')) {
  await step('PDF tools', ensurePdfTools);
  await step('Dovecot', ensureDovecot);
}
await step('Web app', buildWeb);
await step('Server', buildServerStep);
say(`ready in ${duration(Date.now() - started)}`);
