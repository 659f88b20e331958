import { benchFunnel, FUNNEL_RECORDS, type FunnelFigures } from './funnel.ts';
import { benchFallbackFinished, FALLBACK_RECORDS, type FallbackFigures } from './fallback.ts';
import { benchImports } from './imports.ts';
import { benchLists } from './lists.ts';
import {
  benchLoad,
  IMPORT_ROWS,
  RECORDS_PER_KIND,
  SECONDS,
  SEND,
  THROUGHPUT,
  USERS,
  type LoadFigures,
} from './load.ts';
import { benchNoticePage, VISITORS_PER_SECOND } from './notice-page.ts';
import { benchPdfs } from './pdfs.ts';
import { benchPrintFile, PRINT_LETTERS, type PrintFigures } from './post.ts';
import { benchSearch } from './search.ts';
import { benchServiceFilters, type ServiceFilterFigures } from './service-filters.ts';
import { benchSigning } from './signing.ts';
import { benchSending, benchSendRate, type RateFigures, type SendFigures } from './sending.ts';
import { postgresReachable, table, type HttpFigures } from './support.ts';

// `npm run bench` runs every benchmark; `npm run bench -- lists search` runs the named ones.
const wanted = new Set(process.argv.slice(2));
const runs = (name: string) => wanted.size === 0 || wanted.has(name);

async function main(): Promise<void> {
  const withPostgres = await postgresReachable();
  if (!withPostgres) console.log('PostgreSQL is not reachable: its figures are skipped.');

  if (runs('lists')) {
    console.log(`\n## Record list paging: 1,000,000 notices, random pages of 10, 50 connections, 20 s`);
    console.log('   target on SQLite: >= 2,000 requests/s, p99 <= 50 ms');
    const figures: HttpFigures[] = [await benchLists('SQLite')];
    if (withPostgres) figures.push(await benchLists('PostgreSQL'));
    table(figures as unknown as Record<string, number | string>[]);
  }

  if (runs('search')) {
    console.log(
      '\n## Header search: 1,000,000 notices and 50,000 credit cards, random names and numbers, 50 connections, 20 s',
    );
    console.log('   target on SQLite: >= 2,000 requests/s, p99 <= 50 ms');
    const figures: HttpFigures[] = [await benchSearch('SQLite')];
    if (withPostgres) figures.push(await benchSearch('PostgreSQL'));
    table(figures as unknown as Record<string, number | string>[]);
  }

  if (runs('imports')) {
    console.log(
      '\n## Excel import: 100,000 rows x 38 columns (every notice field), upload to committed rows',
    );
    console.log(
      "   target: at most 0.9 x (SQLite) and 1.3 x (PostgreSQL) exceljs's streaming reader merely reading the file; peak memory <= 400 MB",
    );
    console.log("   the same rows as CSV: at most half the .xlsx import's time");
    console.log(
      '   each import alone, then the .xlsx again while the API is asked one request after another: p99 <= 100 ms',
    );
    table((await benchImports(withPostgres)) as unknown as Record<string, number | string>[]);
  }

  if (runs('pdfs')) {
    console.log(
      '\n## Notice PDFs: 2,000 one-page notices, Latin, then Devanagari names and a Hindi paragraph',
    );
    console.log(
      '   targets: project renderer >= 12x one print per record for Latin, >= 9x for Hindi; browser process tree <= 1 GB',
    );
    const { figures, ratios } = await benchPdfs();
    table(figures as unknown as Record<string, number | string>[]);
    console.log(
      `   the project renderer is ${ratios.latin}x as fast as one print per record for Latin, ${ratios.hindi}x for Hindi`,
    );
  }

  if (runs('signing')) {
    console.log(
      '\n## Signed notice PDFs: the batched render of 2,000 notices, then each signed (PAdES B, no TSA)',
    );
    console.log('   target: signing costs under 20% of the batched render');
    table((await benchSigning()) as unknown as Record<string, number | string>[]);
  }

  if (runs('sending')) {
    console.log(
      '\n## Sending: 5,000 notices, e-mail (PDF attached) and WhatsApp, through the API in chunks of 10',
    );
    console.log(
      '   targets: >= 100 notices/s with no PDF rendered before, >= 300/s with them rendered; zip of 10,000 PDFs <= 5 s, <= 500 MB',
    );
    const figures: SendFigures[] = [await benchSending('SQLite')];
    if (withPostgres) figures.push(await benchSending('PostgreSQL'));
    table(figures as unknown as Record<string, number | string>[]);
  }

  if (runs('sending') || runs('send-rate')) {
    console.log(
      `\n## Provider limits: WHATSAPP_RATE, SMTP_RATE and SMS_RATE at ${process.env.BENCH_RATE ?? 50}/s, 2 worker processes on one database, ${process.env.BENCH_RATE_SECONDS ?? 60} s`,
    );
    console.log('   target: the measured rate within 5% of the limit, both workers together');
    const rates: RateFigures[] = await benchSendRate('SQLite');
    if (withPostgres) rates.push(...(await benchSendRate('PostgreSQL')));
    table(rates as unknown as Record<string, number | string>[]);
  }

  if (runs('post')) {
    console.log(
      `\n## Post: the print file of a campaign of ${PRINT_LETTERS.toLocaleString('en-US')} Speed Post notices, none rendered before`,
    );
    console.log('   pages a second (carrier page, its back, the notice, padding) and memory (issue 31)');
    const figures: PrintFigures[] = [await benchPrintFile('SQLite')];
    if (withPostgres) figures.push(await benchPrintFile('PostgreSQL'));
    table(figures as unknown as Record<string, number | string>[]);
  }

  if (runs('funnel')) {
    console.log(
      `\n## Funnel: one campaign of ${FUNNEL_RECORDS.toLocaleString('en-US')} notices sent on both channels, with notice page events`,
    );
    console.log('   target: each funnel (campaign, dashboard, ADMIN dashboard) <= 500 ms');
    const figures: FunnelFigures[] = [await benchFunnel('SQLite')];
    if (withPostgres) figures.push(await benchFunnel('PostgreSQL'));
    table(figures as unknown as Record<string, number | string>[]);
  }

  if (runs('service-filters')) {
    console.log(
      '\n## Service status filters: a campaign of 100,000 notices sent on two channels, a tenth visited on the notice page',
    );
    console.log('   the campaign page (50 rows, total, every count) per filter, and record-ids; median of 7');
    const figures: ServiceFilterFigures[] = [await benchServiceFilters('SQLite')];
    if (withPostgres) figures.push(await benchServiceFilters('PostgreSQL'));
    table(figures as unknown as Record<string, number | string>[]);
  }

  if (runs('fallback')) {
    console.log(
      `\n## The fallback task and a finished campaign: ${FALLBACK_RECORDS.toLocaleString('en')} notices, 3 ladder steps all decided`,
    );
    console.log(
      '   a turn while the campaign is read (as before fallback_finished), and once it is kept finished; median of 7',
    );
    const figures: FallbackFigures[] = [await benchFallbackFinished('SQLite')];
    if (withPostgres) figures.push(await benchFallbackFinished('PostgreSQL'));
    table(figures as unknown as Record<string, number | string>[]);
  }

  if (runs('notice-page')) {
    console.log(
      `\n## The public notice page: ${VISITORS_PER_SECOND} visitors a second, each loading the page, its intro and answering the check`,
    );
    console.log('   target: p99 under 100 ms for the page and the check (issue 29)');
    const pageRuns = [await benchNoticePage('SQLite')];
    if (withPostgres) pageRuns.push(await benchNoticePage('PostgreSQL'));
    table(pageRuns.flatMap((run) => run.figures) as unknown as Record<string, number | string>[]);
    for (const run of pageRuns)
      console.log(
        `   ${run.figures[0]!.database}: the server's CPU time a visitor (three requests): ${run.cpuMsPerVisitor} ms`,
      );
  }

  if (runs('load') || runs('load-many')) {
    const n = (value: number) => value.toLocaleString('en-US');
    console.log(
      `\n## Load: ${USERS} signed-in users (${n(RECORDS_PER_KIND)} notices and ${n(RECORDS_PER_KIND)} credit cards each) for ${SECONDS} s, while ${n(IMPORT_ROWS)} rows import and ${n(SEND)} notices send; then ${n(THROUGHPUT)} fresh notices sent end to end`,
    );
    console.log(
      '   each user asks again as soon as an answer arrives: notice and credit-card lists, a campaign, the dashboard, template lists',
    );
    console.log(
      '   `load`: one process on SQLite and on PostgreSQL; `load-many` (issue 32): two API processes and two workers, each with a DATA_DIR of its own, on PostgreSQL, the local S3 peer and Redis; target: no errors, p99 under 1 s',
    );
    const figures: LoadFigures[] = [];
    if (runs('load')) {
      figures.push(await benchLoad('SQLite'));
      if (withPostgres) figures.push(await benchLoad('PostgreSQL'));
    }
    if (runs('load-many') && withPostgres)
      figures.push(await benchLoad('PostgreSQL', 'two APIs, two workers'));
    table(
      figures.flatMap((f) => f.endpoints.map((e) => ({ ...e, shape: f.shape }))) as unknown as Record<
        string,
        number | string
      >[],
    );
    table(
      figures.map((f) => ({
        database: f.database,
        shape: f.shape,
        'requests/s': f['requests/s'],
        errors: f.errors,
        'import s': f['import s'],
        'send s': f['send s'],
        'notices/hour': f['notices/hour'],
        'per worker/hour': f['per worker/hour'],
      })),
    );
    const problems = figures.flatMap((f) => f.problems.map((p) => `${f.database}, ${f.shape}: ${p}`));
    if (problems.length > 0) {
      console.error(`   problems:\n     ${problems.join('\n     ')}`);
      process.exitCode = 1;
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
