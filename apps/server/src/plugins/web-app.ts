import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached,
 * and every other GET that is not an API call answered with index.html so deep links load the app.
 * The public notice page, /n/<code>, is its own small entry: notice.html (and /v/<code>, the verification page).
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const index = path.join(webDist, 'index.html');
  const built = fs.existsSync(index);
  const noticePage = builtPage(path.join(webDist, 'notice.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build's .br and .gz siblings (vite.config.ts), chosen by Accept-Encoding.
      preCompressed: true,
      setHeaders(reply, file) {
        reply.header(
          'cache-control',
          file.includes(`${path.sep}static${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    const isApi = url === '/api' || url.startsWith('/api/') || url.startsWith('/temporary-upload');
    if (isApi || request.method !== 'GET' || !built) {
      throw new AppError(404, 'NOT_FOUND', `No route ${request.method} ${url}.`);
    }
    if (path.extname(url) && url.startsWith('/static/')) {
      throw new AppError(404, 'NOT_FOUND', `No file ${url}.`);
    }
    reply.header('cache-control', 'no-cache');
    // /v/<code>, a notice's verification page, is a view of the same small entry.
    if (/^\/[nv]\//.test(url) && noticePage) return sendPage(request, reply, noticePage);
    return reply.type('text/html').sendFile('index.html');
  });
}

/** A built page and its compressed siblings (the build writes .br and .gz), read once, with its ETag. */
interface BuiltPage {
  bodies: { identity: Buffer; br?: Buffer; gzip?: Buffer };
  etag: string;
}

/**
 * The public notice page is what every recipient's link opens, at once after a campaign: its HTML
 * (a few hundred bytes) is kept in memory and sent without a file system call (stat, open and read
 * through libuv's threads, which waited behind the database's own disk writes under load: p50 33 ms
 * against 8 ms from memory, docs/benchmarks.md, "The notice page under load").
 */
function builtPage(file: string): BuiltPage | undefined {
  if (!fs.existsSync(file)) return undefined;
  const read = (suffix: string) =>
    fs.existsSync(file + suffix) ? fs.readFileSync(file + suffix) : undefined;
  const identity = fs.readFileSync(file);
  const [br, gzip] = [read('.br'), read('.gz')];
  return {
    bodies: { identity, ...(br && { br }), ...(gzip && { gzip }) },
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
  };
}

function sendPage(request: FastifyRequest, reply: FastifyReply, page: BuiltPage) {
  reply.header('etag', page.etag).header('vary', 'accept-encoding').type('text/html; charset=utf-8');
  if (request.headers['if-none-match'] === page.etag) return reply.code(304).send();
  const encoding = (['br', 'gzip'] as const).find(
    (name) => page.bodies[name] && accepts(request.headers['accept-encoding'] ?? '', name),
  );
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(page.bodies[encoding ?? 'identity']);
}

/**
 * Whether an Accept-Encoding header takes an encoding: named, or by `*`, with a weight above 0; names
 * in any case. By hand: docs/decisions/0012-accept-encoding.md.
 */
function accepts(header: string, encoding: string): boolean {
  const weights = new Map(
    header.split(',').map((part) => {
      const [name = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      return [name, q ? Number(q.slice(2)) : 1] as const;
    }),
  );
  return (weights.get(encoding) ?? weights.get('*') ?? 0) > 0;
}
