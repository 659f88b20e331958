import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody } from '@notice-desk/contract/errors';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError, TooManyRequests } from '../lib/errors.ts';

function body(statusCode: number, code: string, message: string, fields?: Record<string, string>): ErrorBody {
  return { statusCode, code, message, error: fields ?? message };
}

/** The one error handler: every failure leaves as the one JSON error shape; 5xx never leak internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // A streamed download that fails before its first byte (a zip whose PDFs cannot be rendered) has
    // already put its headers on the raw response; Fastify would keep them and refuse to send JSON.
    for (const header of ['content-type', 'content-length', 'content-disposition'])
      reply.removeHeader(header);
    if (err instanceof AppError) {
      if (err instanceof TooManyRequests) reply.header('retry-after', String(err.retryAfterSeconds));
      return reply.status(err.statusCode).send(body(err.statusCode, err.code, err.message, err.fields));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      const general: string[] = [];
      const query = err.validationContext === 'querystring' ? (request.query as object) : undefined;
      for (const issue of err.validation) {
        const field = issue.instancePath.split('/').filter(Boolean).join('.');
        // A parameter repeated in the address (?actor=a&actor=b) arrives as a list where one value is read.
        const repeated = query && Object.hasOwn(query, field) && Array.isArray(query[field as keyof object]);
        const text = repeated ? `${field} must be given once.` : (issue.message ?? 'is not valid');
        if (field) fields[field] ??= text;
        else general.push(text);
      }
      const where = err.validationContext ?? 'request';
      if (Object.keys(fields).length === 0) {
        const message = `The ${where} is not valid: ${general.join('; ') || 'expected a JSON object'}.`;
        return reply.status(400).send(body(400, 'VALIDATION', message));
      }
      const message = Object.entries(fields)
        .map(([field, text]) => `${field}: ${text}`)
        .join(' ');
      return reply.status(400).send(body(400, 'VALIDATION', message, fields));
    }
    if (isDiskFull(err)) {
      request.log.error({ err }, 'disk full');
      return reply.status(507).send(body(507, 'DISK_FULL', diskFullMessage));
    }
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send(body(503, 'DATABASE_UNAVAILABLE', 'The database is unavailable right now. Try again shortly.'));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send(body(status, err.code ?? 'BAD_REQUEST', clientMessage(err)));
    }
    request.log.error({ err }, 'request failed');
    return reply.status(500).send(body(500, 'INTERNAL', 'Something went wrong on the server.'));
  });
}

export const diskFullMessage =
  "The server's disk is full, so nothing was saved. Ask the administrator to free space, then try again.";

/**
 * No room left to write: the file system's ENOSPC (or EDQUOT, a quota), SQLite's SQLITE_FULL, PostgreSQL's
 * disk_full (53100). Looked for along the error's causes too: a stream or driver may wrap it.
 */
function isDiskFull(err: unknown): boolean {
  for (let at = err, depth = 0; at && typeof at === 'object' && depth < 5; depth++) {
    const { code } = at as { code?: unknown };
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || code === '53100') return true;
    at = (at as { cause?: unknown }).cause;
  }
  return false;
}

/** Fastify's own 4xx messages, said in words a person reading the answer can act on. */
function clientMessage(err: FastifyError): string {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `Unsupported content type: send application/json.`;
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty; send a JSON object.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return `The request body is not valid JSON: ${err.message}`;
    default:
      return err.message;
  }
}
