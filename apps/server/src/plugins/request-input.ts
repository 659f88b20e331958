import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../lib/errors.ts';

type ParseDone = (err: Error | null, body?: unknown) => void;
type CallbackParser = (request: FastifyRequest, body: string, done: ParseDone) => void;

export const prototypeKeysRefused = () =>
  new AppError(
    400,
    'FORBIDDEN_KEY',
    'The request body uses __proto__ or constructor.prototype as a key; those keys are not allowed.',
  );

/** What no stored text can hold: a NUL (PostgreSQL refuses it) or a lone surrogate (not a character at all). */
function unstorable(text: string): string | undefined {
  if (text.includes('\0')) return 'a NUL character (\\u0000), which no field may contain';
  const lone = /\p{Cs}/u.exec(text)?.[0];
  if (lone === undefined) return undefined;
  const code = lone.charCodeAt(0).toString(16).toUpperCase();
  return `a lone surrogate (\\u${code}), half of a character; send whole characters`;
}

/**
 * The first place in a parsed JSON value holding unstorable text: its path ('' for the value itself) and
 * what. Walks with a list rather than recursion: a body may nest as deep as its bytes allow.
 */
function findUnstorable(value: unknown): { path: string; what: string } | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    if (typeof item.value === 'string') {
      const what = unstorable(item.value);
      if (what) return { path: item.path, what };
    } else if (typeof item.value === 'object' && item.value !== null) {
      // Reversed, so the list is searched in the order the body was written.
      for (const [key, inner] of Object.entries(item.value).reverse()) {
        const path = item.path ? `${item.path}.${key}` : key;
        const what = unstorable(key);
        if (what) return { path, what };
        pending.push({ value: inner, path });
      }
    }
  }
  return undefined;
}

/**
 * What every request must be before any route reads it, refused with a 4xx that says why:
 * - JSON bodies keyed `__proto__` or `constructor.prototype` (secure-json-parse finds them; Fastify would
 *   call them 'not valid JSON');
 * - a NUL character in a JSON string or in the address: PostgreSQL text cannot hold one, so it would fail
 *   deep inside a query; and a lone surrogate, which each database would store as a different garble;
 * - a multipart form sent to a route that takes JSON (it would read as an empty body).
 */
export function registerRequestInput(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error') as unknown as CallbackParser;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done: ParseDone) => {
    // Fastify's parser answers synchronously; what follows runs outside it, so nothing thrown here is
    // mistaken for a parse failure.
    let parsed: { err: Error | null; body?: unknown } | undefined;
    parseJson(request, text as string, (err, body) => (parsed ??= { err, body }));
    const { err, body } = parsed!;
    if (err) return done(isPlainJson(text as string) ? prototypeKeysRefused() : err);
    // Both can only arrive escaped (\u0000, \uD800): JSON takes no raw control characters in strings,
    // and bytes that are not UTF-8 were decoded as U+FFFD already.
    const found = /\\u(0000|d[89a-f])/i.test(text as string) ? findUnstorable(body) : undefined;
    if (found) {
      // A path as deep as the body can nest is named by its last steps.
      const where = found.path.length > 100 ? `…${found.path.slice(-100)}` : found.path;
      const message = `${where || 'The body'} holds ${found.what}.`;
      return done(badRequest(message, where ? { [where]: message } : undefined));
    }
    done(null, body);
  });

  app.addHook('onRequest', async (request) => {
    if (/%00/.test(request.url))
      throw badRequest('The address holds a NUL character (%00), which no parameter may contain.');
  });

  app.addHook('preValidation', async (request) => {
    // Routes with a body schema take JSON; the upload routes read their forms themselves and have none.
    if (request.routeOptions.schema?.body !== undefined && request.isMultipart())
      throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type: send application/json.');
  });
}

/** Whether the text is JSON a plain parse accepts: then only its keys made secure-json-parse refuse it. */
function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
