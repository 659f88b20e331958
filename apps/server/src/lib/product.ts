import fs from 'node:fs';

/** "Notice Desk 1.0.0": the product and its version (apps/server/package.json), as evidence names it. */
export const PRODUCT = `Notice Desk ${(() => {
  try {
    return (
      (
        JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
          version?: string;
        }
      ).version ?? 'unknown'
    );
  } catch {
    return 'unknown';
  }
})()}`;
