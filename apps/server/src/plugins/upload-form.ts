import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../lib/errors.ts';
import type { IncomingFile } from '../modules/uploads/uploads.service.ts';

export interface UploadForm<T> {
  fields: Record<string, string>;
  file: T;
}

export interface UploadFormOptions {
  /** A smaller or larger file limit than UPLOAD_MAX_MB for this form (a stream past it is cut, `truncated`). */
  fileSizeLimit?: number;
  /** A form may come without its file (a text answer); `file` is then undefined. */
  fileOptional?: boolean;
}

/**
 * Reads a multipart form with one file: text fields are collected, the file is handed to `save`
 * as it streams (it is never held in memory). Fields after the file are read too. When the form
 * turns out broken after the file was saved (a body cut short), `discard` removes what was saved.
 */
export async function readUploadForm<T>(
  request: FastifyRequest,
  save: (file: IncomingFile) => Promise<T>,
  discard: (saved: T) => Promise<void>,
): Promise<UploadForm<T>>;
export async function readUploadForm<T>(
  request: FastifyRequest,
  save: (file: IncomingFile) => Promise<T>,
  discard: (saved: T) => Promise<void>,
  options: UploadFormOptions,
): Promise<UploadForm<T | undefined>>;
export async function readUploadForm<T>(
  request: FastifyRequest,
  save: (file: IncomingFile) => Promise<T>,
  discard: (saved: T) => Promise<void>,
  { fileSizeLimit, fileOptional = false }: UploadFormOptions = {},
): Promise<UploadForm<T | undefined>> {
  if (!request.isMultipart())
    throw badRequest('Send the file as multipart/form-data with a field named file.');
  if (!hasUsableBoundary(request.headers['content-type'] ?? '')) throw noBoundary();
  const fields: Record<string, string> = {};
  let saved: { value: T } | undefined;
  try {
    for await (const part of request.parts(
      fileSizeLimit === undefined ? undefined : { limits: { fileSize: fileSizeLimit } },
    )) {
      if (part.type === 'file') {
        if (saved || part.fieldname !== 'file') {
          part.file.resume();
          throw badRequest('Send exactly one file, in the field named file.');
        }
        if (part.filename.includes('\0')) {
          part.file.resume();
          throw badRequest('The file name holds a NUL character, which no name may contain.');
        }
        saved = { value: await save({ filename: part.filename, stream: part.file }) };
      } else if (typeof part.value === 'string') {
        if (part.value.includes('\0'))
          throw badRequest(`${part.fieldname} holds a NUL character, which no field may contain.`);
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (saved)
      await discard(saved.value).catch((failure: unknown) =>
        request.log.warn({ err: failure }, 'could not discard the upload of a broken form'),
      );
    throw malformedForm(err) ?? err;
  }
  if (!saved && !fileOptional) throw badRequest('Please select a file.', { file: 'Please select a file.' });
  return { fields, file: saved?.value };
}

/**
 * The form's own faults, in words: busboy and @fastify/multipart describe them in their terms (or, for a
 * missing boundary or a body cut short, as plain errors that would answer 500). Anything else is not the
 * client's fault and is left as it is.
 */
function malformedForm(err: unknown): AppError | undefined {
  if (err instanceof AppError || !(err instanceof Error)) return undefined;
  const code = (err as { code?: string }).code;
  if (code === 'FST_FILES_LIMIT') return badRequest('Send exactly one file, in the field named file.');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new AppError(
      413,
      'FORM_TOO_LARGE',
      'The form has too many fields; send the file and its type and name.',
    );
  if (code === 'FST_PROTO_VIOLATION')
    return badRequest(
      'A form field is named after a built-in property (such as __proto__); those names are not allowed.',
    );
  if (code === 'FST_MP_PREMATURE_CLOSE' || /unexpected end of multipart data/i.test(err.message))
    return badRequest(
      'The multipart body ended before the form was complete: it was cut short, or its parts do not use the boundary its Content-Type names. Send the file again.',
    );
  if (/^Multipart: Boundary not found$|^The needle cannot/.test(err.message)) return noBoundary();
  return undefined;
}

/** RFC 2046: the boundary parameter is 1 to 70 characters (quoted or not); busboy reads no form without one. */
function hasUsableBoundary(contentType: string): boolean {
  const match = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2] ?? '';
  return boundary.length >= 1 && boundary.length <= 70;
}

const noBoundary = () =>
  badRequest(
    'The multipart/form-data Content-Type names no usable boundary (1 to 70 characters), so the form cannot be read.',
  );
