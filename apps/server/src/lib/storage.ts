import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from './errors.ts';

/**
 * Where the product keeps files: uploads, rendered and signed PDFs, the outbox, acknowledgement scans.
 * Callers name files by key ('uploads/<owner>/<name>'); only a store knows where they live: a folder
 * under DATA_DIR (FolderStore, the embedded default) or an S3 bucket (S3Store, STORAGE_URL=s3://…).
 * Every key is written whole or not at all: a reader never sees part of a file.
 */
export interface FileStore {
  /** 'folder' or 's3': what the start and readiness say. */
  readonly kind: 'folder' | 's3';
  /** Writes a stream to a key; answers its size in bytes. */
  write(key: string, source: Readable): Promise<number>;
  writeBuffer(key: string, data: Buffer): Promise<void>;
  /**
   * Keeps `data` at a key unless a file is there already; answers the bytes kept, the caller's or the
   * earlier ones, so two processes making the same file at once (a signed notice) hand out the same bytes.
   */
  writeBufferOnce(key: string, data: Buffer): Promise<Buffer>;
  /** A whole file; a missing one throws StoredFileMissing. Only for small files (a notice PDF). */
  readBuffer(key: string): Promise<Buffer>;
  /** A file as a stream, opened before it answers: a missing one throws StoredFileMissing. */
  open(key: string): Promise<Readable>;
  exists(key: string): Promise<boolean>;
  /** When the file was last written; undefined when there is none. */
  modifiedAt(key: string): Promise<Date | undefined>;
  remove(key: string): Promise<void>;
  /** Every file under a folder key ('outbox', 'uploads'), at any depth, with its size and last change. */
  list(prefix: string): Promise<StoredFile[]>;
  /**
   * A path on this machine for readers that need random access (the .xlsx reader): the file itself in a
   * folder store, else a copy under a random name in DATA_DIR/tmp that `release` removes.
   */
  localCopy(key: string): Promise<LocalCopy>;
  /** Bytes this store may still write (Infinity for an object store). */
  freeBytes(): Promise<number>;
  /**
   * Throws, saying why, when the store cannot be reached or written (at start, and for readiness, which
   * gives up on an answer after `timeoutMs`).
   */
  check(timeoutMs?: number): Promise<void>;
  /** Lets go of connections (an S3 client's sockets). */
  close(): void;
}

export interface StoredFile {
  key: string;
  size: number;
  modifiedAt: Date;
}

export interface LocalCopy {
  path: string;
  release(): Promise<void>;
}

/** A file the database names is not in the store (removed by hand, a restore that missed the files). */
export class StoredFileMissing extends AppError {
  constructor(readonly key: string) {
    super(
      404,
      'FILE_MISSING',
      `The stored file ${key} is missing from the file store. Ask the administrator to restore it from a backup.`,
    );
  }
}

/** The store did not answer (S3 down, a network fault): nothing was read or written; try again. */
export class StorageUnavailable extends AppError {
  constructor(cause: unknown) {
    super(503, 'STORAGE_UNAVAILABLE', 'The file store is unavailable right now. Try again shortly.');
    this.cause = cause;
  }
}

/** Keys are relative, '/'-separated, and never climb out of the store. */
export function checkKey(key: string): string {
  if (
    key.length === 0 ||
    key.length > 900 ||
    key.startsWith('/') ||
    key.includes('\\') ||
    key.includes('\0') ||
    key.split('/').some((part) => part === '' || part === '.' || part === '..')
  )
    throw new Error(`Invalid storage key: ${key}`);
  return key;
}

/** Files in a folder: DATA_DIR on one machine, or one shared by every process (NFS). */
export class FolderStore implements FileStore {
  readonly kind = 'folder';
  /** Folders this store made or found, so writes into them skip the mkdir. */
  private readonly folders = new Set<string>();

  constructor(private readonly root: string) {}

  /** The file's path on this machine (tests and the backup read it; code reads through localCopy). */
  localPath(key: string): string {
    const full = path.resolve(this.root, checkKey(key));
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`Invalid storage key: ${key}`);
    return full;
  }

  /** Writes a stream to a key atomically: readers see the whole file or none. */
  async write(key: string, source: Readable): Promise<number> {
    const target = this.localPath(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const partial = partialName(target);
    try {
      await pipeline(source, createWriteStream(partial));
      await fs.rename(partial, target);
    } catch (err) {
      await fs.rm(partial, { force: true });
      throw err;
    }
    return (await fs.stat(target)).size;
  }

  async writeBuffer(key: string, data: Buffer): Promise<void> {
    await this.put(key, data, 'replace');
  }

  async writeBufferOnce(key: string, data: Buffer): Promise<Buffer> {
    const kept = await this.put(key, data, 'keep-first');
    return kept ? data : fs.readFile(this.localPath(key));
  }

  /**
   * The one way a buffer is written: into a partial file under a random name, then renamed over the
   * target ('replace') or hard-linked to it ('keep-first': a link fails on a name taken, where a rename
   * would replace it). Answers whether this call's bytes are the ones kept.
   */
  private async put(key: string, data: Buffer, mode: 'replace' | 'keep-first'): Promise<boolean> {
    const target = this.localPath(key);
    const partial = partialName(target);
    const folder = path.dirname(target);
    // Thousands of PDFs go into a few hundred folders: each is made once, not asked for on every write
    // (and made again if it went away meanwhile).
    if (!this.folders.has(folder)) await this.makeFolder(folder);
    try {
      await fs.writeFile(partial, data).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
        await this.makeFolder(folder);
        await fs.writeFile(partial, data);
      });
      if (mode === 'replace') await fs.rename(partial, target);
      else await fs.link(partial, target);
      return true;
    } catch (err) {
      if (mode === 'keep-first' && (err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    } finally {
      // A full disk leaves the bytes that fitted: they are no file anyone may read. After a rename the
      // partial name is gone already; after a link it is the second name of the kept file.
      await fs.rm(partial, { force: true });
    }
  }

  async freeBytes(): Promise<number> {
    await fs.mkdir(this.root, { recursive: true });
    const stats = await fs.statfs(this.root);
    return stats.bavail * stats.bsize;
  }

  async check(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    await fs.access(this.root, fs.constants.W_OK);
  }

  close(): void {}

  private async makeFolder(folder: string): Promise<void> {
    await fs.mkdir(folder, { recursive: true });
    if (this.folders.size >= 10_000) this.folders.clear();
    this.folders.add(folder);
  }

  async readBuffer(key: string): Promise<Buffer> {
    return fs.readFile(this.localPath(key)).catch(missingAs(key));
  }

  async open(key: string): Promise<Readable> {
    const stream = createReadStream(this.localPath(key));
    // Opened before it is handed out: a missing file is a 404 before any header is sent.
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    }).catch(missingAs(key));
    return stream;
  }

  /** When the file was last written; undefined when there is none. */
  async modifiedAt(key: string): Promise<Date | undefined> {
    return (await fs.stat(this.localPath(key)).catch(() => undefined))?.mtime;
  }

  async exists(key: string): Promise<boolean> {
    return fs.access(this.localPath(key)).then(
      () => true,
      () => false,
    );
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.localPath(key), { force: true });
  }

  async localCopy(key: string): Promise<LocalCopy> {
    const file = this.localPath(key);
    await fs.access(file).catch(missingAs(key));
    return { path: file, release: async () => undefined };
  }

  async list(prefix: string): Promise<StoredFile[]> {
    const root = this.localPath(prefix);
    const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((err: unknown) => {
      if ((err as { code?: string }).code === 'ENOENT') return [];
      throw err;
    });
    const files: StoredFile[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const full = path.join(entry.parentPath, entry.name);
      // A file removed meanwhile (another sweep, a finished import) is simply not listed.
      const stat = await fs.stat(full).catch(() => undefined);
      if (!stat) continue;
      const key = path.relative(path.resolve(this.root), full).split(path.sep).join('/');
      files.push({ key, size: stat.size, modifiedAt: stat.mtime });
    }
    return files;
  }
}

/** An fs error for a file that is not there becomes StoredFileMissing; any other goes as it is. */
function missingAs(key: string) {
  return (err: NodeJS.ErrnoException): never => {
    if (err.code === 'ENOENT') throw new StoredFileMissing(key);
    throw err;
  };
}

/**
 * A name beside the target no other writer picks: containers all run as PID 1, so a name by process id
 * would be shared by two of them writing to one volume.
 */
const partialName = (target: string) => `${target}.partial-${randomUUID()}`;

/**
 * A local file under a random name in `folder` (DATA_DIR/tmp), for a reader that needs one: the caller
 * writes it and calls `release` when done, which removes it whatever happened.
 */
export async function temporaryFile(folder: string, ending = ''): Promise<LocalCopy> {
  await fs.mkdir(folder, { recursive: true });
  const file = path.join(folder, `${randomUUID()}${ending}`);
  return { path: file, release: () => fs.rm(file, { force: true }) };
}

/**
 * Removes temporary files older than a day (a process that died while reading one leaves it): never a
 * young one, which a process sharing this DATA_DIR may be reading.
 */
export async function sweepTemporaryFiles(folder: string, now = Date.now()): Promise<void> {
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const file = path.join(folder, name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat?.isFile() && now - stat.mtimeMs > 24 * 60 * 60 * 1000) await fs.rm(file, { force: true });
  }
}
