import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, signedInContext } from './accounts.ts';
import { describeViolations, seriousViolations } from './axe.ts';
import { launchBrowser, startProduct, watchForSurprises } from './harness.ts';
import { importNoticesOverApi, noticeWorkbook } from './import-files.ts';

const ROWS = 10_000;

/** The targets at 10,000 rows, printed beside what was measured. */
const TARGETS = { firstRenderMs: 300, selectAllMs: 100, scrollP95FrameMs: 16 };

let product: Awaited<ReturnType<typeof startProduct>>;
let browser: Browser;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

type FrameRecorder = { frameTimes: number[] | null };

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
};

describe('campaign detail at 10,000 rows (issue 4)', () => {
  it('renders, selects all, toggles one row and scrolls without stalling', async () => {
    const account = await createAccount(product.baseUrl, 'scale');
    const campaignId = await importNoticesOverApi(
      product.baseUrl,
      account,
      await noticeWorkbook(ROWS, 'scale'),
      'Scale check',
    );
    const context = await signedInContext(browser, product.baseUrl, account, {
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    const surprises = watchForSurprises(page);
    await page.goto(`/campaign/notice/${campaignId}`);
    await page.getByText(`Showing 1 to 50 of ${ROWS} entries`).waitFor();

    // Everything below is timed inside the page: from the user's action to the next painted frame.
    const load = await page.evaluate(async (rows) => {
      const nextPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      const select = document.querySelector<HTMLSelectElement>('select[aria-label="Entries per page"]')!;
      const start = performance.now();
      select.value = String(rows);
      select.dispatchEvent(new Event('change', { bubbles: true }));
      // The table renders only the rows in view; it says how many rows the page holds.
      const pageShown = () =>
        document.querySelector(`table[aria-rowcount="${rows + 1}"] tbody tr[aria-rowindex="2"]`) !== null;
      while (!pageShown()) await nextPaint();
      const painted = performance.now();
      const fetched = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.includes(`limit=${rows}`))
        .at(-1) as PerformanceResourceTiming | undefined;
      const responseEnd = fetched ? fetched.responseEnd : start;
      return { total: painted - start, fetch: responseEnd - start, render: painted - responseEnd };
    }, ROWS);
    await page.getByText(`Showing 1 to ${ROWS} of ${ROWS} entries`).waitFor();
    // The virtualised page (spacer rows, row counts for assistive technology) passes axe too.
    expect(describeViolations(await seriousViolations(page))).toBe('');

    const selection = await page.evaluate(async () => {
      const nextPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      // The boxes of the rows rendered (those in view and a few beyond); every row is checked through them.
      const boxes = () => [...document.querySelectorAll<HTMLInputElement>('tbody input[type="checkbox"]')];
      const selectAll = document.querySelector<HTMLInputElement>(
        'input[aria-label="Select all rows on this page"]',
      )!;

      let start = performance.now();
      selectAll.click();
      while (!(selectAll.checked && boxes().length > 0 && boxes().every((box) => box.checked)))
        await nextPaint();
      await nextPaint();
      const selectAllMs = performance.now() - start;

      const middle = boxes()[Math.floor(boxes().length / 2)]!;
      start = performance.now();
      middle.click();
      while (middle.checked) await nextPaint();
      await nextPaint();
      const toggleMs = performance.now() - start;
      return { selectAllMs, toggleMs, indeterminate: selectAll.indeterminate, rendered: boxes().length };
    });
    expect(selection.indeterminate).toBe(true);
    // Virtualised: a few dozen rows in the document, not 10,000.
    expect(selection.rendered).toBeLessThan(200);

    // Wheel over the table for about 2 s (the page scrolls: the table has no height of its own)
    // while a requestAnimationFrame loop records every frame's duration.
    const table = page.getByRole('table', { name: 'Campaign records' });
    const box = (await table.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, 400);
    const scrollStart = await page.evaluate(() => {
      const recorder = window as unknown as FrameRecorder;
      recorder.frameTimes = [];
      let last = performance.now();
      const record = (now: number) => {
        if (!recorder.frameTimes) return;
        recorder.frameTimes.push(now - last);
        last = now;
        requestAnimationFrame(record);
      };
      requestAnimationFrame(record);
      return window.scrollY;
    });
    const until = Date.now() + 2000;
    while (Date.now() < until) {
      await page.mouse.wheel(0, 240);
      await page.waitForTimeout(16);
    }
    const scroll = await page.evaluate(() => {
      const recorder = window as unknown as FrameRecorder;
      const frames = recorder.frameTimes ?? [];
      recorder.frameTimes = null;
      // The first entry is the wait for the first frame, not a frame.
      return { frames: frames.slice(1), scrolled: window.scrollY };
    });
    expect(scroll.scrolled).toBeGreaterThan(scrollStart + 1000);
    const p95 = percentile(scroll.frames, 0.95);
    const longShare = scroll.frames.filter((frame) => frame > 50).length / Math.max(1, scroll.frames.length);
    // At 60 Hz a frame on time is 16.7 ms apart from the last: one over 25 ms means one was dropped.
    const droppedShare =
      scroll.frames.filter((frame) => frame > 25).length / Math.max(1, scroll.frames.length);

    console.log(
      `[campaign-detail ${ROWS} rows] load ${Math.round(load.total)} ms ` +
        `(fetch ${Math.round(load.fetch)} ms, first render ${Math.round(load.render)} ms, target ≤ ${TARGETS.firstRenderMs}), ` +
        `select-all ${Math.round(selection.selectAllMs)} ms (target ≤ ${TARGETS.selectAllMs}), ` +
        `toggle one ${Math.round(selection.toggleMs)} ms, ` +
        `scroll p95 frame ${p95.toFixed(1)} ms (target ≤ ${TARGETS.scrollP95FrameMs}), ` +
        `${(droppedShare * 100).toFixed(1)}% of ${scroll.frames.length} frames over 25 ms, ` +
        `${(longShare * 100).toFixed(1)}% over 50 ms`,
    );

    // Only bounds that catch a hang: e2e runs beside the server suite and other e2e work, so a timing here is
    // the machine's load as much as the page's (first render took 1,575 ms in a CI run that rendered
    // 200 rows of 10,000). The table being virtualised is proven by the rows rendered (above); the
    // speed by the figures printed and by the benchmarks.
    expect(load.total).toBeLessThan(60_000);
    expect(load.render).toBeLessThan(10_000);
    expect(selection.selectAllMs).toBeLessThan(5_000);
    expect(selection.toggleMs).toBeLessThan(5_000);
    expect(surprises).toEqual([]);
    await context.close();
  });
});
