import { benchLists, type ListFigures } from './lists.ts';
import { postgresReachable, table } from './support.ts';

// `npm run bench` runs every benchmark; `npm run bench -- lists` runs the named ones.
const wanted = new Set(process.argv.slice(2));
const runs = (name: string) => wanted.size === 0 || wanted.has(name);

async function main(): Promise<void> {
  const withPostgres = await postgresReachable();
  if (!withPostgres) console.log('PostgreSQL is not reachable: its figures are skipped.');

  if (runs('lists')) {
    console.log(`\n## Record list paging: 1,000,000 notices, random pages of 10, 50 connections, 20 s`);
    console.log('   target on SQLite: >= 2,000 requests/s, p99 <= 50 ms');
    const figures: ListFigures[] = [await benchLists('SQLite')];
    if (withPostgres) figures.push(await benchLists('PostgreSQL'));
    table(figures as unknown as Record<string, number | string>[]);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
