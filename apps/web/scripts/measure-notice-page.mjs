// The public notice page's first view, as a phone downloads it before the PDF: notice.html and every
// script and style sheet it names (entry, preloaded chunks, CSS), each gzipped as a server sends it.
// Run after `npm run build` (or pass the build folder): node apps/web/scripts/measure-notice-page.mjs [dist]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const dist = path.resolve(
  process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist'),
);
const html = fs.readFileSync(path.join(dist, 'notice.html'), 'utf8');
const named = [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="(\/static\/[^"]+)"/g)].map(
  (m) => m[1],
);
const files = ['/notice.html', ...new Set(named)];

const rows = files.map((file) => {
  const bytes = fs.readFileSync(path.join(dist, file));
  return { file, raw: bytes.length, gzip: zlib.gzipSync(bytes).length };
});
const total = rows.reduce((sum, row) => sum + row.gzip, 0);
for (const row of rows)
  console.log(`${String(row.gzip).padStart(8)} B gz  ${String(row.raw).padStart(8)} B  ${row.file}`);
console.log(
  `${String(total).padStart(8)} B gz  total (${(total / 1024).toFixed(1)} KiB) for the notice page's first view`,
);
