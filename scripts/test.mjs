// `npm test` after the setup. With arguments (`npm test -- <path>`), one Vitest run of what they name.
// Without, every suite in two lanes at once, so that both cores work for the whole run:
//   lane 1  the end-to-end files, one at a time (a server process and a browser page: about one core),
//           the web suite, the storage suite on the local S3 peer
//   lane 2  the server suite on SQLite (two files at a time)
// With TEST_DATABASE_URL (CI sets it), lane 1 ends with the fault tests on PostgreSQL and lane 2 with
// the server files whose subject is the database on PostgreSQL; with CI_CHECKS=1, lane 2 runs the
// type check before them.
// Each step's output is printed whole when it ends, under its lane's name; the run fails when any
// step failed, after every step has run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
if (args.length > 0) process.exit(await run(['npx', 'vitest', 'run', ...args], 'inherit'));

const postgres = process.env.TEST_DATABASE_URL;
const checks = process.env.CI_CHECKS === '1';
const vitest = (...rest) => ['npx', 'vitest', 'run', ...rest];
// Two lanes of about the same length (29 Nov, on a machine a third as fast as the day before, where
// the earlier shape took 45 min): the e2e files (955 s there), the web and S3 storage suites (300 s)
// and the fault tests; the server suite on SQLite (870 s), the type check and the database files on
// PostgreSQL. Lint and the format check are `npm run check` (CONTRIBUTING: before each push), not CI's.
const lanes = [
  {
    name: 'e2e',
    steps: [
      vitest('--project', 'e2e'),
      // The web components (jsdom).
      vitest('--project', 'web'),
      // The storage suite with every file in the local S3 peer's bucket (STORAGE_URL; issue 32).
      vitest('--project', 'server-s3'),
      // The fault tests cut connections and time the answers: one at a time, on PostgreSQL.
      ...(postgres
        ? [
            [
              'env',
              `DATABASE_URL=${postgres}`,
              ...vitest('--project', 'server', 'src/faults/', '--maxWorkers=1'),
            ],
          ]
        : []),
    ],
  },
  {
    name: 'server',
    steps: [
      vitest('--project', 'server'),
      ...(checks ? [['npm', 'run', '-s', 'typecheck']] : []),
      // The server files whose subject is the database, again on PostgreSQL (vitest.config.ts).
      ...(postgres ? [vitest('--project', 'server-pg')] : []),
    ],
  },
];

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-test-logs-'));
const started = Date.now();
const failed = [];
await Promise.all(
  lanes.map(async (lane) => {
    for (const [i, command] of lane.steps.entries()) {
      const log = path.join(logDir, `${lane.name}-${i}.log`);
      const stepStarted = Date.now();
      console.log(`[${lane.name}] ${command.join(' ')}: started`);
      const code = await run(command, log);
      const took = Math.round((Date.now() - stepStarted) / 1000);
      process.stdout.write(fs.readFileSync(log, 'utf8'));
      console.log(
        `[${lane.name}] ${command.join(' ')}: ${code === 0 ? 'passed' : `FAILED (${code})`} in ${took} s`,
      );
      if (code !== 0) failed.push(`${lane.name}: ${command.join(' ')}`);
    }
  }),
);
fs.rmSync(logDir, { recursive: true, force: true });
console.log(`[test] every lane ended in ${Math.round((Date.now() - started) / 1000)} s`);
if (failed.length > 0) {
  console.log(`[test] failed:\n  ${failed.join('\n  ')}`);
  process.exit(1);
}

/** Runs a command with its output to `to` (a file, or 'inherit'); answers its exit code. */
function run([command, ...rest], to) {
  const out = to === 'inherit' ? 'inherit' : fs.openSync(to, 'w');
  return new Promise((resolve) => {
    const child = spawn(command, rest, { stdio: ['ignore', out, out] });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}
