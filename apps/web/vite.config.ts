// vitest/config's defineConfig is vite's, typed with the `test` section.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import type { Connect, Plugin } from 'vite';

// In development the API runs separately; in production the server serves this build on the same origin.
const apiOrigin = 'http://localhost:3000';
const proxy = { '/api': apiOrigin, '/temporary-upload': apiOrigin };

/** /n/<code> is the public notice page, its own small entry (notice.html), as the server serves it; /v/<code> too. */
const noticePageRewrite: Connect.NextHandleFunction = (request, _response, next) => {
  if (/^\/[nv]\//.test(request.url ?? '')) request.url = '/notice.html';
  next();
};
const noticePageEntry: Plugin = {
  name: 'notice-page-entry',
  configureServer: (server) => void server.middlewares.use(noticePageRewrite),
  configurePreviewServer: (server) => void server.middlewares.use(noticePageRewrite),
};

/** The head both pages share, the staff app's (index.html) and the notice page's (notice.html), written once. */
const icon =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='6' fill='%230b3a8c'/%3E%3Ctext x='16' y='21' font-family='Arial,sans-serif' font-size='11' font-weight='700' fill='white' text-anchor='middle'%3ELND%3C/text%3E%3C/svg%3E";
const sharedHead: Plugin = {
  name: 'shared-head',
  transformIndexHtml: () =>
    [
      { tag: 'meta', attrs: { charset: 'UTF-8' } },
      { tag: 'meta', attrs: { name: 'viewport', content: 'width=device-width, initial-scale=1.0' } },
      { tag: 'meta', attrs: { name: 'theme-color', content: '#0b3a8c' } },
      { tag: 'link', attrs: { rel: 'icon', href: icon } },
    ].map((tag) => ({ ...tag, injectTo: 'head-prepend' as const })),
};

export default defineConfig({
  plugins: [
    react(),
    sharedHead,
    noticePageEntry,
    // Each text file also as .br and .gz beside it, which the server sends to a browser that takes
    // them (@fastify/static's preCompressed): the notice page's first view is 85 KB so, 280 KB not.
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(html|js|css|svg|json)$/,
      threshold: 1024,
    }),
  ],
  build: {
    outDir: 'dist',
    assetsDir: 'static',
    // The shell is React, React Router and Redux Toolkit (~430 kB minified, ~140 kB gzipped); screens are lazy chunks.
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      // The staff app, and the public notice page without the app's router, store and screens.
      input: { main: 'index.html', notice: 'notice.html' },
      output: {
        entryFileNames: 'static/js/[name]-[hash].js',
        chunkFileNames: 'static/js/[name]-[hash].js',
        assetFileNames: (asset) =>
          asset.names.some((name) => name.endsWith('.css'))
            ? 'static/css/[name]-[hash][extname]'
            : 'static/media/[name]-[hash][extname]',
      },
    },
  },
  server: { proxy },
  preview: { proxy },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup.ts'],
    testTimeout: 30_000,
  },
});
