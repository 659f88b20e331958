import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.ts';
import type { FileStore } from '../lib/storage.ts';
import { diskFullMessage } from './errors.ts';

/**
 * An upload that cannot fit is refused before its first byte is read: otherwise the client sends it all
 * (a 40 MB file over a slow line takes minutes) only to hear the disk filled on the way. Only a form that
 * says its length can be measured; one sent in chunks is stopped by the disk itself (and the error handler).
 */
export function registerDiskRoom(app: FastifyInstance, store: FileStore): void {
  app.addHook('onRequest', async (request) => {
    if (!/^multipart\//i.test(request.headers['content-type'] ?? '')) return;
    const length = Number(request.headers['content-length']);
    if (!Number.isSafeInteger(length) || length <= 0) return;
    const free = await store.freeBytes().catch((err: unknown) => {
      request.log.warn({ err }, 'could not measure free disk space');
      return Infinity;
    });
    if (length > free) throw new AppError(507, 'DISK_FULL', diskFullMessage);
  });
}
