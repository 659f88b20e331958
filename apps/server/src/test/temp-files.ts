import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * A folder of a test file's own, removed after its tests: `write` puts bytes in a new file there
 * (named `f1.csv`, `f2.csv`… unless named) and answers its path.
 */
export function tempFiles(prefix: string): (bytes: Buffer | string, name?: string) => string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  let files = 0;
  return (bytes, name = `f${++files}.csv`) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return file;
  };
}
