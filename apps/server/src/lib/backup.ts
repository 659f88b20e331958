import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import SqliteDatabase from 'better-sqlite3';
import type { Config } from '../config/env.ts';

/** The embedded default's database file in DATA_DIR (db/database.ts names it so). */
export const DATABASE_FILE = 'notice-desk.sqlite';
/** Written last into a backup: a folder without it is a backup that did not finish. */
export const MANIFEST_FILE = 'backup.json';

/** A mistake the person at the terminal can fix (a folder not empty, a shape this cannot back up). */
export class BackupError extends Error {}

export interface BackupManifest {
  /** When the database copy was taken (ISO, UTC): files the database names were copied after it. */
  createdAt: string;
  database: { file: string; bytes: number; sha256: string };
  /** Every stored file (uploads, PDFs, outbox, scans) by its path under DATA_DIR, with its hash. */
  files: { path: string; bytes: number; sha256: string }[];
}

/** Names in DATA_DIR that are no stored file: the database and its log, temporary copies, partial writes. */
const notStored = (relative: string) =>
  relative.startsWith(`${DATABASE_FILE}`) ||
  relative === 'tmp' ||
  relative.startsWith(`tmp${path.sep}`) ||
  relative.includes('.partial-');

/**
 * A consistent copy of the embedded default (SQLite in DATA_DIR, files under DATA_DIR) while it runs:
 * the database first, by SQLite's online backup (one snapshot, whatever is being written meanwhile),
 * then the files. Files are named by the database and written before the row naming them, and a kept
 * PDF is never changed or removed, so every file the copied database names is copied too (save an
 * upload removed after its import finished, or an outbox file past OUTBOX_RETENTION, in between).
 * The manifest, written last, holds each file's SHA-256, which restore checks.
 */
export async function backup(
  config: Config,
  target: string,
  now = () => new Date(),
): Promise<BackupManifest> {
  if (config.databaseUrl || config.storage)
    throw new BackupError(
      `npm run backup copies the embedded default (SQLite and files in DATA_DIR). This server uses ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : ''}${config.databaseUrl && config.storage ? ' and ' : ''}${config.storage ? 'a bucket (STORAGE_URL)' : ''}: back it up with pg_dump or point-in-time recovery and bucket versioning, as docs/operations.md says.`,
    );
  const source = path.join(config.dataDir, DATABASE_FILE);
  if (!(await exists(source))) throw new BackupError(`There is no database to back up at ${source}.`);
  await fs.mkdir(target, { recursive: true });
  if ((await fs.readdir(target)).length > 0)
    throw new BackupError(`${target} is not empty: back up into a new folder (such as backups/2026-11-29).`);

  const createdAt = now().toISOString();
  const databaseCopy = path.join(target, DATABASE_FILE);
  const live = new SqliteDatabase(source, { readonly: true, fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    // Every page in one step: a step copies under one read of the database, so the copy is one snapshot
    // and is never restarted by a write another process commits meanwhile (as a step at a time would be).
    await live.backup(databaseCopy, { progress: () => 1 << 30 });
  } finally {
    live.close();
  }
  const database = { file: DATABASE_FILE, ...(await measure(databaseCopy)) };

  const files: BackupManifest['files'] = [];
  for (const relative of await storedFiles(config.dataDir)) {
    const from = path.join(config.dataDir, relative);
    const to = path.join(target, 'files', relative);
    await fs.mkdir(path.dirname(to), { recursive: true });
    // A file removed since it was listed (an upload whose import ended, a swept outbox file) is left out.
    const copied = await fs.copyFile(from, to, fs.constants.COPYFILE_FICLONE).then(
      () => true,
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return false;
        throw err;
      },
    );
    if (copied) files.push({ path: relative.split(path.sep).join('/'), ...(await measure(to)) });
  }
  const manifest: BackupManifest = { createdAt, database, files };
  await fs.writeFile(path.join(target, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Puts a backup back into DATA_DIR, which must hold no database (a fresh folder, or the old one moved
 * aside): every file's hash is checked against the manifest first, and nothing is written when one
 * differs. The database is copied last, so a restore that stops half-way leaves no database to start on.
 */
export async function restore(config: Config, source: string): Promise<BackupManifest> {
  if (config.databaseUrl || config.storage)
    throw new BackupError(
      'npm run restore puts back the embedded default (SQLite and files in DATA_DIR); with DATABASE_URL or STORAGE_URL set, restore with pg_restore and the bucket’s versions, as docs/operations.md says.',
    );
  const manifestText = await fs.readFile(path.join(source, MANIFEST_FILE), 'utf8').catch(() => undefined);
  if (manifestText === undefined)
    throw new BackupError(
      `${source} holds no ${MANIFEST_FILE}: it is not a backup, or one that did not finish. Restore another.`,
    );
  const manifest = JSON.parse(manifestText) as BackupManifest;
  const target = path.join(config.dataDir, DATABASE_FILE);
  if (await exists(target))
    throw new BackupError(
      `${config.dataDir} holds a database already. Stop the server, move that DATA_DIR aside, and restore into an empty one.`,
    );
  const checks = [
    { name: DATABASE_FILE, file: path.join(source, DATABASE_FILE), sha256: manifest.database.sha256 },
    ...manifest.files.map((f) => ({
      name: f.path,
      file: path.join(source, 'files', f.path),
      sha256: f.sha256,
    })),
  ];
  const damaged: string[] = [];
  for (const check of checks) {
    if (!isInside(source, check.file) || !isInside(config.dataDir, path.join(config.dataDir, check.name)))
      throw new BackupError(`${MANIFEST_FILE} names a file outside the backup: ${check.name}.`);
    const found = await measure(check.file).catch(() => undefined);
    if (found?.sha256 !== check.sha256) damaged.push(check.name);
  }
  if (damaged.length > 0)
    throw new BackupError(
      `The backup in ${source} is damaged: ${damaged.length} file(s) differ from ${MANIFEST_FILE} (${damaged.slice(0, 5).join(', ')}). Nothing was restored.`,
    );
  for (const entry of manifest.files) {
    const to = path.join(config.dataDir, entry.path);
    await fs.mkdir(path.dirname(to), { recursive: true });
    await fs.copyFile(path.join(source, 'files', entry.path), to);
  }
  const partial = `${target}.restoring`;
  await fs.copyFile(path.join(source, DATABASE_FILE), partial);
  await fs.rename(partial, target);
  return manifest;
}

async function storedFiles(dataDir: string): Promise<string[]> {
  const entries = await fs.readdir(dataDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dataDir, path.join(entry.parentPath, entry.name)))
    .filter((relative) => !notStored(relative))
    .sort();
}

async function measure(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return { bytes: (await fs.stat(file)).size, sha256: hash.digest('hex') };
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

const isInside = (root: string, file: string) => path.resolve(file).startsWith(path.resolve(root) + path.sep);
