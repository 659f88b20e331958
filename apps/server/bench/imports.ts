import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { noticeFields } from '@notice-desk/contract/notice';
import { signUpOver, startNoticeImportOver, startServerProcess } from '../src/test/server-process.ts';
import { cpuSeconds, peakRssMb } from './process-stats.ts';
import { benchTarget, type BenchTarget } from './support.ts';

const ROWS = 100_000;

/** Columns whose values repeat across rows (categories), as in real sheets; the rest are unique per row. */
const repeating = new Set([
  'product',
  'branchAddress',
  'hub',
  'region',
  'callManager',
  'npaStage',
  'tenure',
  'city',
  'state',
  'modelNo',
  'concilator',
  'bankAddress',
  'legalManager',
  'remark',
  'modeOfDispatch',
  'conciliationDate',
  'noticeSentOn',
  'allocationDated',
  'zipCode',
  'address4',
  'emiAmt',
]);

/** The bench sheet's cell at column `c` of data row `i`. */
function benchCell(key: string, label: string, c: number, i: number): string | number {
  if (key === 'language') return 'English'; // a language the templates know: any other is a note in the report
  if (key === 'amtfin' || key === 'totalOverdueAmt') return 10_000 + ((i * 37 + c) % 90_000);
  return repeating.has(key) ? `${label} ${(i + c) % 40}` : `${key}-${i.toString(36)}-${c}`;
}

/** A 100,000-row, 37-column notice sheet written with exceljs (shared strings, as Excel writes them); cached. */
export async function benchSheet(): Promise<string> {
  const file = path.join(os.tmpdir(), `notice-desk-bench-${ROWS}x${noticeFields.length}-v2.xlsx`);
  if (fs.existsSync(file)) return file;
  const partial = `${file}.partial`;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: partial, useSharedStrings: true });
  const sheet = workbook.addWorksheet('Notices');
  sheet.addRow(noticeFields.map((f) => f.label)).commit();
  for (let i = 0; i < ROWS; i++) {
    sheet.addRow(noticeFields.map((f, c) => benchCell(f.key, f.label, c, i))).commit();
  }
  sheet.commit();
  await workbook.commit();
  fs.renameSync(partial, file);
  return file;
}

/**
 * The same rows as CSV, as Excel's 'CSV UTF-8' saves them (a byte-order mark, commas, CR LF; no
 * cell of these needs quotes); cached. About 50 MB.
 */
export async function benchCsv(): Promise<string> {
  const file = path.join(os.tmpdir(), `notice-desk-bench-${ROWS}x${noticeFields.length}-v2.csv`);
  if (fs.existsSync(file)) return file;
  const partial = `${file}.partial`;
  const out = fs.createWriteStream(partial);
  const write = (text: string) =>
    out.write(text) ? undefined : new Promise<void>((resolve) => out.once('drain', resolve));
  await write(`\ufeff${noticeFields.map((f) => f.label).join(',')}\r\n`);
  for (let i = 0; i < ROWS; i++) {
    await write(`${noticeFields.map((f, c) => benchCell(f.key, f.label, c, i)).join(',')}\r\n`);
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  fs.renameSync(partial, file);
  return file;
}

/** exceljs's streaming reader merely reading every cell of the file: the yardstick. */
export async function timeExcelJsRead(file: string): Promise<{ seconds: number; rows: number }> {
  const start = performance.now();
  let rows = 0;
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(fs.createReadStream(file), {
    sharedStrings: 'cache',
  });
  for await (const sheet of workbook) {
    for await (const row of sheet) {
      (row as ExcelJS.Row).eachCell(() => undefined);
      rows += 1;
    }
  }
  return { seconds: (performance.now() - start) / 1000, rows };
}

export interface ImportFigures {
  database: string;
  file: 'xlsx' | 'csv';
  'import s': number;
  'exceljs read s': number;
  /** The import's time over exceljs's bare read of the .xlsx, measured just before it. */
  ratio: number;
  /** For the CSV: its import's time over the .xlsx import's in the same run. */
  'vs xlsx': number | string;
  'rows imported': number;
  /** For the .xlsx, the higher of its two runs (alone, and with the API probed). */
  'server peak MB': number;
  /** CPU the server used from upload to committed rows: load-independent. */
  'server cpu s': number;
  /** A second import of the same file while the API is asked one request after another, each kind on its own. */
  'import with API s': number | string;
  'health p99 ms': number | string;
  'health max ms': number | string;
  'list p99 ms': number | string;
  'list max ms': number | string;
}

/** One import from upload to committed rows, through the HTTP API of a real server process. */
interface ImportRun {
  seconds: number;
  imported: number;
  peakMb: number;
  cpuSeconds: number;
  /** Request times of the API beside the import, when it was probed. */
  health: number[];
  list: number[];
}

/**
 * Asks `url` again and again, one request at a time, until stopped; answers each request's time. A
 * request that waits behind the import (a blocked event loop, a held database) shows in these times.
 */
function probe(url: string, headers: Record<string, string>): { stop(): Promise<number[]> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${url} answered ${res.status} during the import`);
      times.push(performance.now() - start);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return times;
    },
  };
}

function percentile(times: number[], p: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0);
}

/**
 * What a server alone on its database must never log: it lost its own job's lease (nobody else could
 * have taken it). A run that logs it fails, whatever its times.
 */
const LOST_OWN_LEASE = 'job lease taken over by another worker';

/**
 * Imports `file` on a fresh server. With `probing`, the API is asked for its health and a list page
 * throughout, to measure its latency; those requests and the bench's own loops take CPU from the same
 * two cores, so the import's time is measured in a run of its own, without them, as exceljs's read is.
 */
export async function runImport(
  label: BenchTarget['label'],
  file: string,
  probing: boolean,
): Promise<ImportRun> {
  const target = await benchTarget(label, 'imports');
  // The last words seen, so a line split over two chunks is still found.
  let tail = '';
  let lostLease = false;
  const server = await startServerProcess(
    {
      ...target.env,
      // The CSV of the same rows is about 50 MB, the default limit.
      UPLOAD_MAX_MB: '200',
      NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS ?? '',
    },
    (text) => {
      tail = (tail + text).slice(-(text.length + LOST_OWN_LEASE.length));
      lostLease ||= tail.includes(LOST_OWN_LEASE);
    },
  );
  let run: ImportRun;
  try {
    const user = await signUpOver(server.baseUrl, 'bench-import');
    const cpuBefore = cpuSeconds(server.child.pid!);
    const start = performance.now();
    await startNoticeImportOver(server.baseUrl, user.headers, file);
    const idle = { stop: async () => [] };
    const health = probing ? probe(`${server.baseUrl}/api/health`, {}) : idle;
    const list = probing
      ? probe(`${server.baseUrl}/api/notices/by-user-id?page=1&limit=10`, user.headers)
      : idle;
    let progress: { status?: string; imported?: number; error?: string };
    for (;;) {
      const res = await fetch(`${server.baseUrl}/api/notices/by-user-id/progress-count`, {
        headers: user.headers,
      });
      progress = (await res.json()) as typeof progress;
      if (progress.status === 'done' || progress.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - start) / 1000;
    const cpu = cpuSeconds(server.child.pid!) - cpuBefore;
    const [healthTimes, listTimes] = [await health.stop(), await list.stop()];
    if (progress.status !== 'done') throw new Error(`bench import failed: ${progress.error}`);
    run = {
      seconds,
      imported: progress.imported ?? 0,
      peakMb: peakRssMb(server.child.pid!),
      cpuSeconds: cpu,
      health: healthTimes,
      list: listTimes,
    };
  } finally {
    await server.stop();
    await target.cleanup();
  }
  // Checked once the server has stopped, so a renewal that answered late has written its line.
  if (lostLease)
    throw new Error(`bench import: the server, alone on its database, logged '${LOST_OWN_LEASE}'`);
  return run;
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

/**
 * On each database: exceljs's bare read of the .xlsx, then the .xlsx import and the CSV import of the
 * same rows, each alone (the machine is shared: only times measured together compare), then the .xlsx
 * import again with the API probed throughout, for its latency.
 */
export async function benchImports(withPostgres: boolean): Promise<ImportFigures[]> {
  const [sheet, csv] = [await benchSheet(), await benchCsv()];
  const figures: ImportFigures[] = [];
  for (const label of withPostgres ? (['SQLite', 'PostgreSQL'] as const) : (['SQLite'] as const)) {
    const excelJs = (await timeExcelJsRead(sheet)).seconds;
    const xlsx = await runImport(label, sheet, false);
    const fromCsv = await runImport(label, csv, false);
    const probed = await runImport(label, sheet, true);
    const row = (file: 'xlsx' | 'csv', run: ImportRun, vsXlsx: number | string): ImportFigures => ({
      database: label,
      file,
      'import s': round(run.seconds),
      'exceljs read s': round(excelJs),
      ratio: round(run.seconds / excelJs),
      'vs xlsx': vsXlsx,
      'rows imported': run.imported,
      // The higher of the import alone and the import beside the API's requests.
      'server peak MB': file === 'xlsx' ? Math.max(run.peakMb, probed.peakMb) : run.peakMb,
      'server cpu s': round(run.cpuSeconds),
      'import with API s': file === 'xlsx' ? round(probed.seconds) : '',
      'health p99 ms': file === 'xlsx' ? percentile(probed.health, 99) : '',
      'health max ms': file === 'xlsx' ? Math.round(Math.max(...probed.health)) : '',
      'list p99 ms': file === 'xlsx' ? percentile(probed.list, 99) : '',
      'list max ms': file === 'xlsx' ? Math.round(Math.max(...probed.list)) : '',
    });
    figures.push(row('xlsx', xlsx, ''), row('csv', fromCsv, round(fromCsv.seconds / xlsx.seconds)));
  }
  return figures;
}
