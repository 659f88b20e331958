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

/** A 100,000-row, 37-column notice sheet written with exceljs (shared strings, as Excel writes them); cached. */
export async function benchSheet(): Promise<string> {
  const file = path.join(os.tmpdir(), `notice-desk-bench-${ROWS}x${noticeFields.length}-v2.xlsx`);
  if (fs.existsSync(file)) return file;
  const partial = `${file}.partial`;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: partial, useSharedStrings: true });
  const sheet = workbook.addWorksheet('Notices');
  sheet.addRow(noticeFields.map((f) => f.label)).commit();
  for (let i = 0; i < ROWS; i++) {
    sheet
      .addRow(
        noticeFields.map((f, c) =>
          f.key === 'language'
            ? 'English' // a language the templates know: any other value is a note in the row report
            : f.key === 'amtfin' || f.key === 'totalOverdueAmt'
              ? 10_000 + ((i * 37 + c) % 90_000)
              : repeating.has(f.key)
                ? `${f.label} ${(i + c) % 40}`
                : `${f.key}-${i.toString(36)}-${c}`,
        ),
      )
      .commit();
  }
  sheet.commit();
  await workbook.commit();
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

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

export interface ImportFigures {
  database: string;
  'import s': number;
  'exceljs read s': number;
  ratio: number;
  'rows imported': number;
  'server peak MB': number;
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
): Promise<ImportFigures> {
  const target = await benchTarget(label, 'imports');
  const server = await startServerProcess({
    ...target.env,
    NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS ?? '',
  });
  try {
    const user = await signUpOver(server.baseUrl, 'bench-import');
    const start = performance.now();
    await startNoticeImportOver(server.baseUrl, user.headers, file);
    const health = probe(`${server.baseUrl}/api/health`, {});
    const list = probe(`${server.baseUrl}/api/notices/by-user-id?page=1&limit=10`, user.headers);
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
    const [healthTimes, listTimes] = [await health.stop(), await list.stop()];
    if (progress.status !== 'done') throw new Error(`bench import failed: ${progress.error}`);
    return {
      database: label,
      'import s': Number(seconds.toFixed(2)),
      'exceljs read s': Number(excelJsSeconds.toFixed(2)),
      ratio: Number((seconds / excelJsSeconds).toFixed(2)),
      'rows imported': progress.imported ?? 0,
      'server peak MB': peakRssMb(server.child.pid!),
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
