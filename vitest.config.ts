import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

const postgresUrl = process.env.TEST_DATABASE_URL;

/**
 * Left out of CI's PostgreSQL pass (TEST_POSTGRES_ALL=1 keeps them): printing, signing, verifying and
 * post print files, the admin command line, the input checks answered before any query, the
 * providers' error replies, readiness and metrics, backups and the served-evidence zip.
 */
const notDatabaseSubjects = [
  'src/bad-inputs.test.ts',
  'src/admin.test.ts',
  'src/backup.test.ts',
  'src/modules/verify/verify.test.ts',
  'src/modules/post/post.routes.test.ts',
  'src/modules/health/ready-metrics.test.ts',
  'src/modules/pdfs/signed-notices.test.ts',
  'src/modules/pdfs/pdfs.routes.test.ts',
  'src/modules/archive/served-evidence.test.ts',
  'src/modules/sending/provider-errors.test.ts',
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
            serverProject('server-pg', { DATABASE_URL: postgresUrl }, [
              'src/lib/**',
              'src/faults/**',
              // Files whose subject is not the database and whose cost is Chromium, PDFs or child
              // processes: their database calls are the ones the routes tests already make here. Each
              // costs 15-60 s a pass; `npm run test:postgres` runs them on PostgreSQL too.
              ...(process.env.TEST_POSTGRES_ALL === '1' ? [] : notDatabaseSubjects),
            ]),
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
  include = ['src/**/*.test.ts'],
) {
  return {
    test: {
      name,
      // One module graph per worker, shared by the files it runs: each file imported the server's
      // modules afresh (about 2.5 s a file, 104 files) where it now imports them once per worker. The
      // tests share no module state they change (vi.mock is not used; fake timers are restored).
      isolate: false,
      globalSetup: ['./src/test/shared-browser.ts'],
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
