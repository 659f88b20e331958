import { ConfigError, loadConfig } from './config/env.ts';
import { backup, BackupError, restore } from './lib/backup.ts';

const usage = `Usage: npm run backup -- <folder>    a consistent copy of DATA_DIR (the database and every file)
       npm run restore -- <folder>   puts a backup back into an empty DATA_DIR

The embedded default only (SQLite and files in DATA_DIR): the backup may run while the server does.
With DATABASE_URL or STORAGE_URL, see docs/operations.md (pg_dump, point-in-time recovery, bucket versioning).`;

/** `backup <folder>` or `restore <folder>`: what the npm scripts pass. */
async function main([command, folder, ...rest]: string[]): Promise<string> {
  if (!folder || rest.length > 0 || (command !== 'backup' && command !== 'restore')) return usage;
  const config = loadConfig();
  if (command === 'backup') {
    const manifest = await backup(config, folder);
    const bytes = manifest.files.reduce((sum, f) => sum + f.bytes, manifest.database.bytes);
    return `Backed up ${config.dataDir} into ${folder}: the database as of ${manifest.createdAt} and ${manifest.files.length} files (${(bytes / 1024 / 1024).toFixed(1)} MB).`;
  }
  const manifest = await restore(config, folder);
  return `Restored ${folder} into ${config.dataDir}: the database as of ${manifest.createdAt} and ${manifest.files.length} files, each checked against its SHA-256. Start the server.`;
}

main(process.argv.slice(2)).then(
  (message) => console.log(message),
  (err: unknown) => {
    const message = err instanceof Error ? err.message.replace(/\n\s*/g, ' ') : String(err);
    console.error(err instanceof BackupError || err instanceof ConfigError ? message : `Failed: ${message}`);
    process.exitCode = 1;
  },
);
