import type { FastifyRequest } from 'fastify';
import { badRequest } from '../lib/errors.ts';
import type { IncomingFile } from '../modules/uploads/uploads.service.ts';

export interface UploadForm<T> {
  fields: Record<string, string>;
  file: T;
}

/**
 * Reads a multipart form with one file: text fields are collected, the file is handed to `save`
 * as it streams (it is never held in memory). Fields after the file are read too.
 */
export async function readUploadForm<T>(
  request: FastifyRequest,
  save: (file: IncomingFile) => Promise<T>,
): Promise<UploadForm<T>> {
  if (!request.isMultipart())
    throw badRequest('Send the file as multipart/form-data with a field named file.');
  const fields: Record<string, string> = {};
  let saved: { value: T } | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (saved || part.fieldname !== 'file') {
        part.file.resume();
        throw badRequest('Send exactly one file, in the field named file.');
      }
      saved = { value: await save({ filename: part.filename, stream: part.file }) };
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  if (!saved) throw badRequest('Please select a file.', { file: 'Please select a file.' });
  return { fields, file: saved.value };
}
