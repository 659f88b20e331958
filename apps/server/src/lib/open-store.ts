import path from 'node:path';
import type { Config } from '../config/env.ts';
import { S3Store } from './s3-store.ts';
import { FolderStore, sweepTemporaryFiles, type FileStore } from './storage.ts';

/**
 * The store STORAGE_URL names: unset, a folder under DATA_DIR; s3://bucket/prefix, the bucket. Either is
 * checked before it is handed out, so a store that cannot be read stops the start, saying why.
 */
export async function openFileStore(config: Config): Promise<FileStore> {
  const tempFolder = path.join(config.dataDir, 'tmp');
  await sweepTemporaryFiles(tempFolder);
  const store = config.storage ? new S3Store(config.storage, tempFolder) : new FolderStore(config.dataDir);
  await store.check();
  return store;
}
