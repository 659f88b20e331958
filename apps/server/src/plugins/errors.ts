import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/**
 * Errors Fastify meets before any route (and so before the error handler): a path parameter longer than
 * the router takes (414), an address that does not decode (400). Answered in the one shape.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply
      .status(414)
      .send(body(414, 'URI_TOO_LONG', 'The address is too long: a part of it exceeds 100 characters.'));
    return;
  }
  if (err.code === 'FST_ERR_BAD_URL') {
    void reply
      .status(400)
      .send(body(400, 'BAD_URL', 'The address holds an escape (%) that is not valid; it cannot be read.'));
    return;
  }
  void reply
    .status(err.statusCode ?? 400)
    .send(body(err.statusCode ?? 400, err.code ?? 'BAD_REQUEST', err.message));
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers or address too large, a header
 * holding NUL or another forbidden character): Node would answer a bare status, Fastify a shape of its
 * own. The answer is written on the socket in the one shape, and the connection closed.
 */
export function clientErrorHandler(err: ConnectionError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = clientErrorAnswer(err);
  const json = JSON.stringify(body(status, code, message));
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
  socket.destroy();
}

function clientErrorAnswer(err: ConnectionError): [number, string, string] {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive; send it again.'];
    case 'HPE_HEADER_OVERFLOW': {
      // The parser counts the address with the headers: a first line that holds most of the limit (or
      // never ended) was an address too long, not headers too large.
      const raw: unknown = err.rawPacket;
      const firstLine = Buffer.isBuffer(raw)
        ? raw.subarray(0, (raw.indexOf('\r\n') + 1 || raw.length + 1) - 1)
        : undefined;
      const requestLineEnded = !(
        firstLine &&
        /^[A-Z]+ /.test(firstLine.toString('latin1', 0, 16)) &&
        firstLine.length > 8 * 1024
      );
      return requestLineEnded
        ? [
            431,
            'HEADERS_TOO_LARGE',
            'The request headers are too large (more than 16 KB together); send fewer or shorter headers.',
          ]
        : [
            414,
            'URI_TOO_LONG',
            'The address is too long (more than 16 KB); send the values in a request body instead.',
          ];
    }
    case 'HPE_INVALID_HEADER_TOKEN':
      return [
        400,
        'BAD_HEADER',
        'A request header holds a character no header may contain (such as NUL or a line break).',
      ];
    default:
      return [400, 'BAD_REQUEST', 'The request is not valid HTTP and cannot be read.'];
  }
}
