import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { signUpOver, startServerProcess } from '../src/test/server-process.ts';
import { cpuSeconds, peakRssMb, withTreeMemory } from './process-stats.ts';
import { benchTarget, seedSendableNotices, type BenchTarget } from './support.ts';

export const PRINT_LETTERS = Number(process.env.BENCH_PRINT ?? 10_000);

export interface PrintFigures {
  database: string;
  letters: number;
  pages: number;
  seconds: number;
  'pages/s': number;
  'file MB': number;
  'server CPU s': number;
  'server peak MB': number;
  'server and browser peak MB': number;
}

/**
 * The print file of a campaign of 10,000 Speed Post notices, none rendered before: asked once, streamed
 * to a file, its pages counted by poppler's pdfinfo. The time covers rendering every notice, the
 * carrier pages and the join in PIN code order; memory is the server's peak and the peak of the server
 * and its browser together.
 */
export async function benchPrintFile(label: BenchTarget['label']): Promise<PrintFigures> {
  const target = await benchTarget(label, 'post_print');
  const server = await startServerProcess({ ...target.env, LOG_LEVEL: 'error' });
  const file = path.join(os.tmpdir(), `notice-desk-bench-print-${process.pid}.pdf`);
  try {
    const user = await signUpOver(server.baseUrl, 'bench-post');
    const { campaignId } = await seedSendableNotices(target, user.userId, PRINT_LETTERS, 'Speed Post');
    const cpuBefore = cpuSeconds(server.child.pid!);
    const start = performance.now();
    const { peakMb } = await withTreeMemory(async () => {
      const res = await fetch(`${server.baseUrl}/api/campaigns/${campaignId}/post/print.pdf`, {
        headers: user.headers,
      });
      if (!res.ok || !res.body) throw new Error(`the print file answered ${res.status}: ${await res.text()}`);
      await pipeline(Readable.fromWeb(res.body as WebReadableStream), fs.createWriteStream(file));
    });
    const seconds = (performance.now() - start) / 1000;
    const pages = Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1]);
    return {
      database: label,
      letters: PRINT_LETTERS,
      pages,
      seconds: Number(seconds.toFixed(1)),
      'pages/s': Math.round(pages / seconds),
      'file MB': Math.round(fs.statSync(file).size / 1024 / 1024),
      'server CPU s': Number((cpuSeconds(server.child.pid!) - cpuBefore).toFixed(1)),
      'server peak MB': peakRssMb(server.child.pid!),
      'server and browser peak MB': peakMb,
    };
  } finally {
    fs.rmSync(file, { force: true });
    await server.stop();
    await target.cleanup();
  }
}
