import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Database } from '../../db/database.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import type { FileStore } from '../../lib/storage.ts';
import { importFileName, refuseUnreadableUpload } from '../../lib/sheet-source.ts';
import { nowIso } from '../../lib/time.ts';
import { XlsxError } from '../../lib/xlsx/xlsx-error.ts';
import * as uploads from './uploads.repository.ts';

export interface IncomingFile {
  filename: string;
  stream: Readable & { truncated?: boolean };
}

export const uploadKey = (ownerId: string, storedName: string) => `uploads/${ownerId}/${storedName}`;

/** Keeps uploaded .xlsx, .csv and .tsv files under random names, each readable only by its uploader. */
export class UploadsService {
  constructor(
    private readonly db: Database,
    private readonly store: FileStore,
    private readonly maxBytes: number,
  ) {}

  async save(ownerId: string, file: IncomingFile): Promise<{ storedName: string; originalName: string }> {
    const name = importFileName(file.filename, 'Please upload an Excel file (.xlsx).');
    if ('refusal' in name) {
      file.stream.resume();
      throw badRequest(name.refusal, { file: name.refusal });
    }
    const storedName = `${randomBytes(16).toString('base64url')}.${name.ending}`;
    const key = uploadKey(ownerId, storedName);
    const tooLarge = () =>
      new AppError(
        413,
        'FILE_TOO_LARGE',
        `The file is larger than ${Math.round(this.maxBytes / 1024 / 1024)} MB, the most an upload may be.`,
      );
    let size: number;
    try {
      size = await this.store.write(key, file.stream);
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      throw err;
    }
    if (file.stream.truncated) {
      await this.store.remove(key);
      throw tooLarge();
    }
    try {
      const copy = await this.store.localCopy(key);
      try {
        await refuseUnreadableUpload(copy.path, file.filename);
      } finally {
        await copy.release();
      }
    } catch (err) {
      await this.store.remove(key);
      if (err instanceof XlsxError) throw badRequest(err.message, { file: err.message });
      throw err;
    }
    const originalName = baseName(file.filename);
    await uploads.insertUpload(this.db, {
      stored_name: storedName,
      owner_id: ownerId,
      original_name: originalName,
      size,
      created_at: nowIso(),
    });
    return { storedName, originalName };
  }

  /** Removes an upload whose form turned out broken after the file was stored: nothing may import it. */
  async discard(ownerId: string, storedName: string): Promise<void> {
    await uploads.deleteUpload(this.db, ownerId, storedName);
    await this.store.remove(uploadKey(ownerId, storedName));
  }

  /** The caller's upload by stored name; another user's name answers exactly as an unknown one does. */
  async find(ownerId: string, storedName: string): Promise<{ key: string; originalName: string }> {
    const upload = await uploads.findUpload(this.db, ownerId, storedName);
    if (!upload) throw notFound('Uploaded file');
    return { key: uploadKey(ownerId, storedName), originalName: upload.original_name };
  }
}

/** The last segment of a client-supplied file name, without any folders it claimed. */
function baseName(name: string): string {
  return name.split(/[\\/]/).pop()!.trim().slice(0, 200) || 'upload.xlsx';
}
