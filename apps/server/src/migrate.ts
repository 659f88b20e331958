import { loadConfigOrExit } from './config/env.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest, pendingMigrations } from './db/migrate.ts';

/**
 * `npm run migrate`: brings the database to this version's schema and exits. With several processes,
 * run it once before starting them (started with MIGRATE_ON_START=false, a process whose database is
 * behind refuses to start). Migrations take turns on a lock, so two runs at once are safe.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const { db, kind } = await openDatabase(config, { checkpointer: false });
  const schema = kind === 'postgres' ? config.databaseSchema : undefined;
  try {
    const pending = await pendingMigrations(db, schema);
    const started = Date.now();
    await migrateToLatest(db, schema);
    console.log(
      pending.length === 0
        ? 'The database is up to date: no migration to run.'
        : `Ran ${pending.length} migration(s) in ${((Date.now() - started) / 1000).toFixed(1)} s: ${pending.join(', ')}.`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
