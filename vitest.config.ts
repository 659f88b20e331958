import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

const postgresUrl = process.env.TEST_DATABASE_URL;

/**
 * CI's PostgreSQL pass: the files whose subject is the database's own behaviour (SQL written per
 * dialect, transactions, locks, leases, unique keys, paging, counts, migrations, two processes on one
 * database, crashes mid-write). The rest of the server suite runs on SQLite in CI and on PostgreSQL with
 * `npm run test:postgres` (TEST_POSTGRES_ALL=1): input checks, parsing, printing, providers' replies,
 * the command line, headers and documents, whose queries these files already make here. On 29 Nov the
 * whole pass took 2 x 800 s of CI's lanes on a machine 3x slower than the day before.
 */
const databaseSubjects = [
  'src/db/*.test.ts',
  'src/jobs/*.test.ts',
  'src/paging.test.ts',
  'src/scale.test.ts',
  'src/security-ids.test.ts',
  'src/modules/*/*-paging.test.ts',
  'src/modules/*/*-search.routes.test.ts',
  'src/modules/*/*-migration.test.ts',
  'src/modules/auth/sessions.routes.test.ts',
  'src/modules/campaigns/campaign-counts.test.ts',
  'src/modules/dashboard/mail-details.routes.test.ts',
  'src/modules/evidence/*.test.ts',
  'src/modules/fallback/fallback-claims.test.ts',
  'src/modules/funnel/funnel.routes.test.ts',
  'src/modules/imports/import-crash.test.ts',
  'src/modules/imports/import-duplicates.test.ts',
  'src/modules/imports/import-progress-counts.test.ts',
  'src/modules/limits/*.test.ts',
  'src/modules/notice-pages/notice-pages.routes.test.ts',
  'src/modules/records/*.test.ts',
  'src/modules/retention/retention.test.ts',
  'src/modules/search/search.routes.test.ts',
  'src/modules/sending/resend-two-processes.test.ts',
  'src/modules/sending/send-crash.test.ts',
  'src/modules/sending/send-integrity.test.ts',
  'src/modules/sending/webhooks.routes.test.ts',
  'src/modules/bounces/email-webhooks.routes.test.ts',
  'src/modules/service-dates/*.test.ts',
];

/** The files server-s3 runs with STORAGE_URL set (src/lib/storage.test.ts and shared-store.test.ts name their own). */
const S3_SUITE = ['src/modules/uploads/uploads.routes.test.ts'];

// One test command for every workspace: `npm test` runs all three projects.
export default defineConfig({
  test: {
    // Two files at a time even on two cores (Vitest's default there is one): most tests wait on a child
    // process, a browser, a peer or a timer. `npm test` (scripts/test.mjs) runs the e2e project in a
    // process of its own beside the others, so that the e2e files, one at a time, never run alone.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      serverProject('server'),
      // The PostgreSQL pass (TEST_DATABASE_URL; scripts/test.mjs runs it after the SQLite one): the
      // server suite again, each test in a schema of its own. src/lib never opens the database; the
      // fault tests time their answers, so they run one at a time after. (Vitest's --exclude on the
      // command line did not reach the project: the excluded files ran anyway, the faults twice.)
      ...(postgresUrl
        ? [
            serverProject(
              'server-pg',
              { DATABASE_URL: postgresUrl },
              ['src/lib/**', 'src/faults/**'],
              process.env.TEST_POSTGRES_ALL === '1' ? undefined : databaseSubjects,
            ),
          ]
        : []),
      // The storage suite again with every file in a bucket of the local S3 peer (issue 32): the tests
      // that upload, serve PDFs and keep acknowledgement scans, each app under a prefix of its own.
      serverProject('server-s3', { TEST_STORAGE: 's3' }, [], S3_SUITE),
      './apps/web/vite.config.ts',
      {
        test: {
          name: 'e2e',
          globalSetup: ['../server/src/test/shared-browser.ts'],
          experimental: { fsModuleCache: true },
          root: './apps/web',
          include: ['e2e/**/*.e2e.ts'],
          // The README's pictures: taken by `npm run docs` (WRITE_DOCS=1); the screens they show are
          // checked by the other files (76 s of CI's e2e lane on 29 Nov).
          exclude: process.env.WRITE_DOCS === '1' ? [] : ['e2e/readme-screenshots.e2e.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

/** The server suite, on SQLite unless env names a DATABASE_URL. */
function serverProject(
  name: string,
  env: Record<string, string> = {},
  exclude: string[] = [],
  include: string[] = ['src/**/*.test.ts'],
) {
  return {
    test: {
      name,
      // One module graph per worker, shared by the files it runs: each file imported the server's
      // modules afresh (about 2.5 s a file, 104 files) where it now imports them once per worker. The
      // tests share no module state they change (vi.mock is not used; fake timers are restored).
      isolate: false,
      globalSetup: ['./src/test/shared-browser.ts'],
      setupFiles: ['./src/test/per-file.ts'],
      // Transformed sources kept on disk between runs (node_modules/.experimental-vitest-cache;
      // `npx vitest --clearCache` empties it): a run of one file transformed in 10-14 s instead of
      // 27-30 s at load average 18.
      experimental: { fsModuleCache: true },
      root: './apps/server',
      include,
      exclude: [...configDefaults.exclude, ...exclude],
      env,
      environment: 'node',
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
}
