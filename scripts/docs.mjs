#!/usr/bin/env node
// `npm run docs`: regenerates the documents the tests make, the only way they change. Tests write no
// tracked file: bad-inputs.test.ts compares its table with docs/bad-inputs.md (writing it only when
// WRITE_DOCS=1, here), and the e2e files below take the README's pictures into
// apps/web/e2e/screenshots/readme/ (ignored by git), which this copies to docs/screenshots/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const shots = path.join(root, 'apps/web/e2e/screenshots/readme');
const published = path.join(root, 'docs/screenshots');
const say = (line) => console.log(`[docs] ${line}`);

const run = (args, env = {}) => {
  say(`$ ${args.join(' ')}`);
  const { status } = spawnSync(args[0], args.slice(1), {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (status !== 0) {
    console.error(
      `[docs] \`${args.join(' ')}\` failed (exit code ${status ?? 'none: killed'}): nothing copied.`,
    );
    process.exit(status || 1);
  }
};

// The e2e test serves the built web app: the setup builds it when its sources changed.
run(['node', 'scripts/setup.mjs', '--test']);
// Pictures left by an earlier run would be copied as if taken now.
fs.rmSync(shots, { recursive: true, force: true });
run(
  [
    'npx',
    'vitest',
    'run',
    '--project',
    'server',
    '--project',
    'e2e',
    'apps/server/src/bad-inputs.test.ts',
    'apps/web/e2e/readme-screenshots.e2e.ts',
    // They take the README's pictures of Edit and resend and of the pre-send confirmation.
    'apps/web/e2e/edit-and-resend.e2e.ts',
    'apps/web/e2e/sending-confirm.e2e.ts',
    // The public notice page at 390 and 1440 px (issue 29).
    'apps/web/e2e/notice-page.e2e.ts',
  ],
  { WRITE_DOCS: '1' },
);
say('docs/bad-inputs.md written');

fs.mkdirSync(published, { recursive: true });
const taken = fs.readdirSync(shots).filter((name) => name.endsWith('.png'));
if (taken.length === 0) {
  console.error(`[docs] The screenshot test took no pictures in ${path.relative(root, shots)}.`);
  process.exit(1);
}
for (const name of taken) {
  const from = path.join(shots, name);
  const to = path.join(published, name);
  const same = fs.existsSync(to) && fs.readFileSync(to).equals(fs.readFileSync(from));
  if (!same) fs.copyFileSync(from, to);
  say(`docs/screenshots/${name}: ${same ? 'unchanged' : 'updated'}`);
}
