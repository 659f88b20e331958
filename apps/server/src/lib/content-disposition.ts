import type { Readable } from 'node:stream';
import { create } from 'content-disposition';
import type { FastifyReply } from 'fastify';

/**
 * The plain-ASCII name for clients that cannot read `filename*`: Latin letters keep their base letter
 * (é → e), other scripts drop out; the extension stays.
 */
export function asciiFallback(name: string): string {
  const extension = /\.[a-z0-9]{1,5}$/i.exec(name)?.[0] ?? '';
  const stem = name
    .slice(0, name.length - extension.length)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]+|["\\%]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `${stem || 'download'}${extension}`;
}

/** A download's Content-Disposition (RFC 6266): `filename*` in UTF-8 (RFC 5987) plus the ASCII fallback. */
export const attachment = (name: string): string => create(name, { fallback: asciiFallback(name) });

/** The same, for a file the browser shows in its tab (a notice PDF). */
export const inline = (name: string): string =>
  create(name, { type: 'inline', fallback: asciiFallback(name) });

/** A file sent as a download: its type, the Content-Disposition that names it, its bytes as they come. */
export const sendDownload = (reply: FastifyReply, type: string, file: { name: string; stream: Readable }) =>
  reply.type(type).header('content-disposition', attachment(file.name)).send(file.stream);
