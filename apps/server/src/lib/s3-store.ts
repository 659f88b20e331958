import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout } from 'node:timers/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  checkKey,
  StorageUnavailable,
  StoredFileMissing,
  temporaryFile,
  type FileStore,
  type LocalCopy,
  type StoredFile,
} from './storage.ts';

export interface S3Settings {
  bucket: string;
  /** Keys are kept under this ('' for the bucket's top), without a trailing '/'. */
  prefix: string;
  /** S3_ENDPOINT: an S3-compatible store's address (MinIO, Ceph, R2); unset for AWS. */
  endpoint: string | undefined;
  /** S3_REGION; unset: the AWS SDK's default chain (AWS_REGION, the profile), else us-east-1. */
  region: string | undefined;
  /** S3_FORCE_PATH_STYLE: http://host/bucket/key instead of http://bucket.host/key (MinIO, s3rver). */
  forcePathStyle: boolean;
}

/** Parts of a multipart upload: S3's least is 5 MiB; an upload of 50 MB goes in 7 parts, 2 at a time. */
const PART_SIZE = 8 * 1024 * 1024;

/**
 * Files in an S3 bucket (or any S3-compatible store), shared by every process that names the same
 * STORAGE_URL. Credentials come from the AWS SDK's default chain (environment, profile, instance or
 * container role). S3 makes an object visible whole or not at all, so no partial names are needed.
 */
export class S3Store implements FileStore {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(
    private readonly settings: S3Settings,
    /** DATA_DIR/tmp: where localCopy puts the copies random-access readers need. */
    private readonly tempFolder: string,
  ) {
    this.client = new S3Client({
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.region ? { region: settings.region } : {}),
      forcePathStyle: settings.forcePathStyle,
      followRegionRedirects: true,
      // Checksums only where S3 requires them: many S3-compatible stores refuse the SDK's default
      // aws-chunked uploads with trailing checksums. The bytes are still checked by TLS and by length.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
  }

  /** Where the store is, for the start's log and error messages. */
  get address(): string {
    return `s3://${this.settings.bucket}/${this.settings.prefix}`;
  }

  private objectKey(key: string): string {
    checkKey(key);
    return this.settings.prefix ? `${this.settings.prefix}/${key}` : key;
  }

  async write(key: string, source: Readable): Promise<number> {
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    // The source's own error (a form over the size limit) is the one to throw, not the upload's echo of it.
    let sourceError: unknown;
    const feeding = pipeline(source, counted).catch((err: unknown) => {
      sourceError = err;
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: this.objectKey(key), Body: counted },
      partSize: PART_SIZE,
      queueSize: 2,
      // A failed multipart upload is aborted: its parts are not left in the bucket, billed and unseen.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      await feeding;
      throw sourceError ?? storageError(err, key);
    }
    await feeding;
    if (sourceError) {
      await this.remove(key);
      throw sourceError;
    }
    return size;
  }

  async writeBuffer(key: string, data: Buffer): Promise<void> {
    await this.put(key, data, 'replace');
  }

  async writeBufferOnce(key: string, data: Buffer): Promise<Buffer> {
    return (await this.put(key, data, 'keep-first')) ? data : this.readBuffer(key);
  }

  /**
   * The one way a buffer is written. 'keep-first' is a conditional write (If-None-Match: *): S3 refuses
   * it with 412 when the key is taken, or 409 while another write to it is under way (asked again then).
   * Answers whether this call's bytes are the ones kept.
   */
  private async put(key: string, data: Buffer, mode: 'replace' | 'keep-first'): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.settings.bucket,
            Key: this.objectKey(key),
            Body: data,
            ContentLength: data.length,
            ...(mode === 'keep-first' ? { IfNoneMatch: '*' } : {}),
          }),
        );
        return true;
      } catch (err) {
        const status = statusOf(err);
        if (mode === 'keep-first' && status === 412) return false;
        // Another write is under way: its object is not readable yet, so ask again once it may be.
        if (mode === 'keep-first' && status === 409 && attempt < 6) {
          await setTimeout(50 * attempt);
          continue;
        }
        throw storageError(err, key);
      }
    }
  }

  async readBuffer(key: string): Promise<Buffer> {
    const body = await this.get(key);
    try {
      return Buffer.from(await body.transformToByteArray());
    } catch (err) {
      throw storageError(err, key);
    }
  }

  async open(key: string): Promise<Readable> {
    return (await this.get(key)) as unknown as Readable;
  }

  private async get(key: string) {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
      if (!answer.Body) throw new StoredFileMissing(key);
      return answer.Body;
    } catch (err) {
      throw storageError(err, key);
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== undefined;
  }

  async modifiedAt(key: string): Promise<Date | undefined> {
    return (await this.head(key))?.LastModified;
  }

  /** The object's headers; undefined when there is none. */
  private async head(key: string) {
    try {
      return await this.client.send(
        new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
    } catch (err) {
      if (statusOf(err) === 404) return undefined;
      throw storageError(err, key);
    }
  }

  async remove(key: string): Promise<void> {
    try {
      await this.client.send(
        new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
    } catch (err) {
      if (statusOf(err) !== 404) throw storageError(err, key);
    }
  }

  async list(prefix: string): Promise<StoredFile[]> {
    const folder = `${this.objectKey(prefix)}/`;
    const strip = this.settings.prefix ? this.settings.prefix.length + 1 : 0;
    const files: StoredFile[] = [];
    try {
      for await (const page of paginateListObjectsV2(
        { client: this.client, pageSize: 1000 },
        { Bucket: this.settings.bucket, Prefix: folder },
      ))
        for (const object of page.Contents ?? [])
          if (object.Key)
            files.push({
              key: object.Key.slice(strip),
              size: object.Size ?? 0,
              modifiedAt: object.LastModified ?? new Date(0),
            });
    } catch (err) {
      throw storageError(err, prefix);
    }
    return files;
  }

  async localCopy(key: string): Promise<LocalCopy> {
    const body = await this.get(key);
    const copy = await temporaryFile(this.tempFolder, path.extname(key));
    try {
      await pipeline(body as unknown as Readable, createWriteStream(copy.path, { mode: 0o600 }));
    } catch (err) {
      await copy.release();
      throw storageError(err, key);
    }
    return copy;
  }

  freeBytes(): Promise<number> {
    return Promise.resolve(Infinity);
  }

  /**
   * Lists one key under the prefix: the bucket is there, the credentials hold, the store answers. A
   * request with no answer within `timeoutMs` is aborted (readiness probes come every few seconds).
   */
  async check(timeoutMs?: number): Promise<void> {
    try {
      await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.settings.bucket,
          Prefix: this.settings.prefix ? `${this.settings.prefix}/` : undefined,
          MaxKeys: 1,
        }),
        timeoutMs === undefined ? {} : { abortSignal: AbortSignal.timeout(timeoutMs) },
      );
    } catch (err) {
      const why = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      throw new Error(`STORAGE_URL ${this.address} cannot be read: ${why}`, { cause: err });
    }
  }

  close(): void {
    this.client.destroy();
  }
}

function statusOf(err: unknown): number | undefined {
  return err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
}

/**
 * What an S3 failure is to the caller: a key not there is StoredFileMissing (404); a store that does not
 * answer, or answers 5xx, is StorageUnavailable (503); anything else (access denied, no such bucket) goes
 * as it is, logged as the server's fault.
 */
function storageError(err: unknown, key: string): unknown {
  if (err instanceof StoredFileMissing || err instanceof StorageUnavailable) return err;
  const status = statusOf(err);
  const name = (err as { name?: string }).name;
  if (status === 404 && (name === 'NoSuchKey' || name === 'NotFound')) return new StoredFileMissing(key);
  if (status !== undefined && status >= 500) return new StorageUnavailable(err);
  const code = (err as { code?: string }).code;
  if (
    name === 'TimeoutError' ||
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'ETIMEDOUT' ||
    code === 'EPIPE' ||
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN'
  )
    return new StorageUnavailable(err);
  return err;
}
