import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.ts';

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached,
 * and every other GET that is not an API call answered with index.html so deep links load the app.
 * The public notice page, /n/<code>, is its own small entry: notice.html (and /v/<code>, the verification page).
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const index = path.join(webDist, 'index.html');
  const built = fs.existsSync(index);
  const noticePageBuilt = fs.existsSync(path.join(webDist, 'notice.html'));
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
    // /v/<code>, a notice's verification page, is a view of the same small entry.
    const page = /^\/[nv]\//.test(url) && noticePageBuilt ? 'notice.html' : 'index.html';
    return reply.header('cache-control', 'no-cache').type('text/html').sendFile(page);
  });
}
