// vitest/config's defineConfig is vite's, typed with the `test` section.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// In development the API runs separately; in production the server serves this build on the same origin.
const apiOrigin = 'http://localhost:3000';
const proxy = { '/api': apiOrigin, '/temporary-upload': apiOrigin };

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'static',
    // The shell is React, React Router and Redux Toolkit (~430 kB minified, ~140 kB gzipped); screens are lazy chunks.
    chunkSizeWarningLimit: 600,
    rollupOptions: {
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
