#!/usr/bin/env node
// Brings a fresh clone to a runnable state with nothing but Node and npm:
// installs dependencies when missing or stale, makes sure Chromium is there (installing
// Debian's package when running as root on Debian), and builds the web app when its sources changed.
// Only Node built-ins here: this runs before any dependency exists.
import { execSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const say = (line) => console.log(`[setup] ${line}`);
const run = (command) => {
  say(command);
  execSync(command, { cwd: root, stdio: 'inherit' });
};

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`Node ${process.versions.node} is too old: install Node 20.19 or newer.`);
    process.exit(1);
  }
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

function installDependencies() {
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  if (mtime(installed) >= mtime(path.join(root, 'package-lock.json'))) return;
  // npm install, not npm ci: npm leaves other platforms' optional packages out of the lock file, which npm ci refuses.
  run('npm install --no-audit --no-fund');
}

export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const hasCommand = (name) => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;

/** Installs Debian packages when running as root on Debian; answers false when it cannot. */
function aptInstall(packages, why) {
  if (process.getuid?.() !== 0 || !hasCommand('apt-get')) return false;
  say(`${why}: installing Debian's ${packages.join(', ')}`);
  run('apt-get update -q');
  run(`DEBIAN_FRONTEND=noninteractive apt-get install -y -q ${packages.join(' ')}`);
  return true;
}

function ensureChromium() {
  if (fs.existsSync(chromiumPath)) return;
  if (aptInstall(['chromium'], 'Chromium is missing')) return;
  console.warn(
    `[setup] Chromium was not found at ${chromiumPath}. PDF rendering and the browser tests need it:\n` +
      '        on Debian or Ubuntu run `sudo apt-get install chromium`; elsewhere install Chromium or Chrome\n' +
      '        and set CHROMIUM_PATH to its executable.',
  );
}

/** The tests read PDFs as a person's tools do: pdftotext and pdffonts (poppler-utils). */
function ensurePdfTools() {
  if (hasCommand('pdftotext')) return;
  if (aptInstall(['poppler-utils'], 'The tests read PDFs with pdftotext')) return;
  console.warn(
    '[setup] pdftotext was not found: install poppler-utils (`sudo apt-get install poppler-utils`).',
  );
}

/** The bounce tests read DSNs from a real IMAP server: Debian's Dovecot, started by the test itself. */
function ensureDovecot() {
  if (fs.existsSync('/usr/sbin/dovecot')) return;
  if (aptInstall(['dovecot-imapd'], 'The bounce tests poll a real Dovecot')) return;
  console.warn(
    '[setup] dovecot was not found: the IMAP bounce tests are skipped (`sudo apt-get install dovecot-imapd`).',
  );
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
  if (built >= sources) return;
  run('npm run build --workspace apps/web');
}

checkNode();
installDependencies();
ensureChromium();
if (process.argv.includes('--test')) {
  ensurePdfTools();
  ensureDovecot();
}
buildWeb();
