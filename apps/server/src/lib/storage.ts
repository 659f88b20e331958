import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where the product keeps files (uploads, PDFs). Callers name files by key ('uploads/<owner>/<name>');
 * only this class knows they live under DATA_DIR, so a shared object store can replace it later.
 */
export class FileStore {
  /** Folders this store made or found, so writes into them skip the mkdir. */
  private readonly folders = new Set<string>();

  constructor(private readonly root: string) {}

  /** A path on this machine for readers that need random access (the .xlsx reader). */
  localPath(key: string): string {
    const full = path.resolve(this.root, key);
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
      await fs.rename(partial, target);
    } catch (err) {
      // A full disk leaves the bytes that fitted: they are no file anyone may read.
      await fs.rm(partial, { force: true });
      throw err;
    }
  }

  /** Bytes this store may still write (what the file system keeps for root not counted). */
  /**
   * Keeps `data` at a key unless a file is there already: a hard link fails on a name taken, where a
   * rename would replace it. Answers the bytes kept, the caller's or the earlier ones, so two processes
   * making the same file at once (a signed notice) hand out the same bytes.
   */
  async writeBufferOnce(key: string, data: Buffer): Promise<Buffer> {
    const target = this.localPath(key);
    const partial = partialName(target);
    const folder = path.dirname(target);
    if (!this.folders.has(folder)) await this.makeFolder(folder);
    try {
      await fs.writeFile(partial, data).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
        await this.makeFolder(folder);
        await fs.writeFile(partial, data);
      });
      await fs.link(partial, target);
      return data;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFile(target);
      throw err;
    } finally {
      await fs.rm(partial, { force: true });
    }
  }

  async freeBytes(): Promise<number> {
    await fs.mkdir(this.root, { recursive: true });
    const stats = await fs.statfs(this.root);
    return stats.bavail * stats.bsize;
  }

  private async makeFolder(folder: string): Promise<void> {
    await fs.mkdir(folder, { recursive: true });
    if (this.folders.size >= 10_000) this.folders.clear();
    this.folders.add(folder);
  }

  readBuffer(key: string): Promise<Buffer> {
    return fs.readFile(this.localPath(key));
  }

  read(key: string): Readable {
    return createReadStream(this.localPath(key));
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

  /** Every file under a folder key ('outbox', 'uploads'), at any depth, with its size and last change. */
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

/**
 * A name beside the target no other writer picks: containers all run as PID 1, so a name by process id
 * would be shared by two of them writing to one volume.
 */
const partialName = (target: string) => `${target}.partial-${randomUUID()}`;

export interface StoredFile {
  key: string;
  size: number;
  modifiedAt: Date;
}
