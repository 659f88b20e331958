import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { noticeFields } from '@notice-desk/contract/notice';
import { signUpOver, startNoticeImportOver, startServerProcess } from '../src/test/server-process.ts';
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

/** CPU seconds (user + system, every thread) the process has used: on a shared machine, what it cost. */
function cpuSeconds(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

export interface ImportFigures {
  database: string;
  file: 'xlsx' | 'csv';
  'import s': number;
  'exceljs read s': number;
  /** The import's time over exceljs's bare read of the .xlsx. */
  ratio: number;
  /** For the CSV: its import's time over the .xlsx import's in the same run. */
  'vs xlsx': number | string;
  'rows imported': number;
  'server peak MB': number;
  /** CPU the server used from upload to committed rows (with the probes' requests): load-independent. */
  'server cpu s': number;
  /** Latency of the API while the import runs: one request after another, each kind on its own. */
  'health p99 ms': number;
  'health max ms': number;
  'list p99 ms': number;
  'list max ms': number;
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

/** Upload to committed rows, through the HTTP API of a real server process. */
export async function benchImport(
  label: BenchTarget['label'],
  file: string,
  excelJsSeconds: number,
  xlsxSeconds?: number,
): Promise<ImportFigures> {
  const target = await benchTarget(label, 'imports');
  const server = await startServerProcess({
    ...target.env,
    // The CSV of the same rows is about 50 MB, the default limit.
    UPLOAD_MAX_MB: '200',
    NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS ?? '',
  });
  try {
    const user = await signUpOver(server.baseUrl, 'bench-import');
    const cpuBefore = cpuSeconds(server.child.pid!);
    const start = performance.now();
    await startNoticeImportOver(server.baseUrl, user.headers, file);
    // BENCH_IMPORT_PROBES=0: no requests beside the import, so 'server cpu s' is the import's alone.
    const probing = process.env.BENCH_IMPORT_PROBES !== '0';
    const idle = { stop: async () => [0] };
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
    return {
      database: label,
      file: file.endsWith('.csv') ? 'csv' : 'xlsx',
      'import s': Number(seconds.toFixed(2)),
      'exceljs read s': Number(excelJsSeconds.toFixed(2)),
      ratio: Number((seconds / excelJsSeconds).toFixed(2)),
      'vs xlsx': xlsxSeconds ? Number((seconds / xlsxSeconds).toFixed(2)) : '',
      'rows imported': progress.imported ?? 0,
      'server peak MB': peakRssMb(server.child.pid!),
      'server cpu s': Number(cpu.toFixed(2)),
      'health p99 ms': percentile(healthTimes, 99),
      'health max ms': Math.round(Math.max(...healthTimes)),
      'list p99 ms': percentile(listTimes, 99),
      'list max ms': Math.round(Math.max(...listTimes)),
    };
  } finally {
    await server.stop();
    await target.cleanup();
  }
}

/**
 * The .xlsx import and the CSV import of the same rows on each database, against exceljs's bare read
 * of the .xlsx measured in the same run (the machine is shared: only ratios within one run compare).
 */
export async function benchImports(withPostgres: boolean): Promise<ImportFigures[]> {
  const [sheet, csv] = [await benchSheet(), await benchCsv()];
  const excelJs = await timeExcelJsRead(sheet);
  const figures: ImportFigures[] = [];
  for (const label of withPostgres ? (['SQLite', 'PostgreSQL'] as const) : (['SQLite'] as const)) {
    const xlsx = await benchImport(label, sheet, excelJs.seconds);
    figures.push(xlsx, await benchImport(label, csv, excelJs.seconds, xlsx['import s']));
  }
  return figures;
}
