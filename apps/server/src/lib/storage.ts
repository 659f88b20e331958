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
    const partial = `${target}.partial-${process.pid}`;
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
    await fs.mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.partial-${process.pid}`;
    await fs.writeFile(partial, data);
    await fs.rename(partial, target);
  }

  readBuffer(key: string): Promise<Buffer> {
    return fs.readFile(this.localPath(key));
  }

  read(key: string): Readable {
    return createReadStream(this.localPath(key));
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
}
