import { act, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportProgress as Progress } from '@notice-desk/contract/imports';
import { api } from '../../../lib/api.ts';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { importStarted } from '../stores/import-tracker.ts';
import type { ImportKind } from '../utils/import-kinds.ts';
import { ImportProgress } from './import-progress.tsx';

// A stand-in for the notices list: a query in the 'Notices' cache group, to see it refreshed.
const listProbe = api.injectEndpoints({
  endpoints: (build) => ({
    noticesProbe: build.query<unknown, void>({
      query: () => '/api/notices/by-user-id',
      providesTags: ['Notices'],
    }),
  }),
});

beforeEach(() => {
  // The clock also runs on by itself, so answers arrive and waitFor works; advance() jumps it ahead.
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    shouldAdvanceTime: true,
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

/** A server whose progress answers are `answers` in turn (the last one repeats); null answers 500. */
function progressServer(answers: (Progress | null)[]) {
  let polls = 0;
  return stubFetch(({ path }) => {
    if (path.endsWith('progress-count')) {
      const answer = answers[Math.min(polls, answers.length - 1)];
      polls += 1;
      return answer
        ? jsonResponse(200, answer)
        : jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Down.', error: 'Down.' });
    }
    if (path.endsWith('/report')) {
      return new Response(new Blob(['xlsx']), {
        status: 200,
        headers: { 'content-disposition': 'attachment; filename="import-report.xlsx"' },
      });
    }
    return jsonResponse(200, { items: [], total: 0 });
  });
}

function startedImport(kind: ImportKind, jobId = 'job-1') {
  const prefix = kind === 'notice' ? 'notice' : 'creditCard';
  localStorage.setItem(`${prefix}ImportStatus`, '1');
  localStorage.setItem(`${prefix}ImportJob`, jobId);
}

const renderProgress = (kind: ImportKind = 'notice') =>
  renderWithApp(<ImportProgress kind={kind} />, { session: sessionOf(plainUser) });

const progressPolls = (requests: { path: string }[]) =>
  requests.filter(({ path }) => path.endsWith('progress-count')).length;
const bar = () => screen.queryByRole('progressbar');

describe('import progress', () => {
  it('does not poll, nor show a bar, while the flag is 0', async () => {
    const server = progressServer([{ progressPercentage: 40, status: 'running', jobId: 'job-1' }]);
    renderProgress();
    await advance(30_000);

    expect(server.requests).toEqual([]);
    expect(bar()).toBeNull();
  });

  it('polls at once and then every 10 s, showing the percentage on an accessible bar', async () => {
    startedImport('notice');
    const server = progressServer([
      { progressPercentage: 40, status: 'running', jobId: 'job-1' },
      { progressPercentage: 75, status: 'running', jobId: 'job-1' },
    ]);
    renderProgress();

    await waitFor(() => expect(bar()?.getAttribute('aria-valuenow')).toBe('40'));
    expect(progressPolls(server.requests)).toBe(1);
    expect(server.requests[0]?.path).toBe('/api/notices/by-user-id/progress-count');
    expect(server.requests[0]?.request.headers.get('authorization')).toBe('Bearer token-1');
    expect(bar()?.getAttribute('aria-valuemin')).toBe('0');
    expect(bar()?.getAttribute('aria-valuemax')).toBe('100');
    expect(screen.getByText('40%')).toBeTruthy();

    await advance(9_000);
    expect(progressPolls(server.requests)).toBe(1);
    await advance(1_000);
    await waitFor(() => expect(bar()?.getAttribute('aria-valuenow')).toBe('75'));
    expect(progressPolls(server.requests)).toBe(2);
  });

  it('polls an import started here every second for its first 15 s, so the bar moves from the first second, then every 10 s', async () => {
    const server = progressServer([
      { progressPercentage: 1, status: 'running', jobId: 'job-5' },
      { progressPercentage: 12, status: 'running', jobId: 'job-5' },
      { progressPercentage: 20, status: 'running', jobId: 'job-5' },
    ]);
    const { store } = renderProgress();
    act(() => {
      store.dispatch(importStarted({ kind: 'notice', jobId: 'job-5' }));
    });
    await waitFor(() => expect(bar()?.getAttribute('aria-valuenow')).toBe('1'));
    expect(progressPolls(server.requests)).toBe(1);
    await advance(1_000);
    await waitFor(() => expect(bar()?.getAttribute('aria-valuenow')).toBe('12'));
    expect(progressPolls(server.requests)).toBe(2);
    await advance(1_000);
    await waitFor(() => expect(bar()?.getAttribute('aria-valuenow')).toBe('20'));

    // Past 15 s: the spec's 10 s again.
    await advance(14_000);
    const polls = progressPolls(server.requests);
    expect(polls).toBeGreaterThanOrEqual(14);
    await advance(8_000);
    expect(progressPolls(server.requests)).toBe(polls);
    await advance(3_000);
    await waitFor(() => expect(progressPolls(server.requests)).toBe(polls + 1));
  });

  it('at 100% resets the flag and refreshes the list, then after 5 s toasts and hides the bar', async () => {
    startedImport('notice');
    const success = vi.spyOn(toast, 'success');
    const server = progressServer([
      { progressPercentage: 60, status: 'running', jobId: 'job-1' },
      { progressPercentage: 100, status: 'done', jobId: 'job-1', imported: 200, skipped: 0 },
    ]);
    const { store } = renderProgress();
    void store.dispatch(listProbe.endpoints.noticesProbe.initiate());
    const listLoads = () => server.requests.filter(({ path }) => path === '/api/notices/by-user-id').length;
    await waitFor(() => expect(bar()?.getAttribute('aria-valuenow')).toBe('60'));
    expect(listLoads()).toBe(1);

    await advance(10_000);
    await waitFor(() => expect(localStorage.getItem('noticeImportStatus')).toBe('0'));
    await waitFor(() => expect(listLoads()).toBe(2));
    expect(bar()?.getAttribute('aria-valuenow')).toBe('100');
    expect(success).not.toHaveBeenCalled();

    await advance(4_000);
    expect(bar()).not.toBeNull();
    expect(success).not.toHaveBeenCalled();
    await advance(1_000);
    await waitFor(() => expect(bar()).toBeNull());
    expect(success).toHaveBeenCalledWith('Notice Information Imported Successfully.');
    expect(screen.queryByRole('status')).toBeNull();

    await advance(30_000);
    expect(progressPolls(server.requests)).toBe(2);
  });

  it('uses the credit-card endpoint and toast for a credit-card import, leaving the notice flag alone', async () => {
    startedImport('credit-card');
    const success = vi.spyOn(toast, 'success');
    const server = progressServer([{ progressPercentage: 100, status: 'done', jobId: 'job-1' }]);
    renderProgress('credit-card');

    await waitFor(() => expect(localStorage.getItem('creditCardImportStatus')).toBe('0'));
    expect(server.requests[0]?.path).toBe('/api/credit-cards/by-user-id/credit-cards-progress-count');
    expect(localStorage.getItem('noticeImportStatus')).toBeNull();
    await advance(5_000);
    await waitFor(() =>
      expect(success).toHaveBeenCalledWith('Credit Card Information Imported Successfully.'),
    );
  });

  it('says how many rows were skipped and offers the report, which downloads with the bearer token', async () => {
    startedImport('notice', 'job-9');
    const server = progressServer([
      { progressPercentage: 100, status: 'done', jobId: 'job-9', imported: 198, skipped: 2 },
    ]);
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:report');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderProgress();

    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('2 rows of the file were skipped.');
    expect(notice.textContent).toContain('198 notices imported.');
    await act(async () => within(notice).getByRole('button', { name: 'Download report' }).click());

    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const report = server.requests.find(({ path }) => path === '/api/imports/job-9/report');
    expect(report?.request.headers.get('authorization')).toBe('Bearer token-1');
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('import-report.xlsx');

    // The notice outlives the bar and the toast, until dismissed.
    await advance(10_000);
    expect(screen.getByRole('status')).toBe(notice);
    await act(async () => within(notice).getByRole('button', { name: 'Dismiss' }).click());
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says how many skipped rows were already imported, and how many existing records an update changed', async () => {
    startedImport('notice', 'job-10');
    progressServer([
      { progressPercentage: 100, status: 'done', jobId: 'job-10', imported: 5, skipped: 13, duplicates: 12 },
    ]);
    renderProgress();
    expect((await screen.findByRole('status')).textContent).toContain(
      '13 rows of the file were skipped (12 already imported).',
    );
  });

  it('says an import that only updated existing records did so', async () => {
    startedImport('notice', 'job-11');
    progressServer([
      {
        progressPercentage: 100,
        status: 'done',
        jobId: 'job-11',
        imported: 0,
        skipped: 0,
        duplicates: 3,
        updated: 3,
      },
    ]);
    renderProgress();
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('3 existing records updated.');
    expect(notice.textContent).toContain('3 rows already imported updated the existing records.');
  });

  it("on failure resets the flag, hides the bar, and shows the server's reason once (no toast) until dismissed", async () => {
    startedImport('notice');
    const error = vi.spyOn(toast, 'error');
    const reason = 'A required column is missing: Loan No.';
    progressServer([
      { progressPercentage: null, status: 'failed', jobId: 'job-1', error: reason, skipped: 0 },
    ]);
    renderProgress();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The import of notices failed.');
    expect(alert.textContent).toContain(reason);
    expect(within(alert).queryByRole('button', { name: 'Download report' })).toBeNull();
    expect(localStorage.getItem('noticeImportStatus')).toBe('0');
    expect(bar()).toBeNull();
    expect(error).not.toHaveBeenCalled();
    expect(screen.getAllByText(reason)).toHaveLength(1);

    await advance(60_000);
    expect(screen.getByRole('alert')).toBe(alert);
    await act(async () => within(alert).getByRole('button', { name: 'Dismiss' }).click());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("starts the next import from its own progress, never from the last one's failure", async () => {
    startedImport('notice', 'job-1');
    const error = vi.spyOn(toast, 'error');
    progressServer([
      { progressPercentage: null, status: 'failed', jobId: 'job-1', error: 'No header row.' },
      { progressPercentage: 10, status: 'running', jobId: 'job-2' },
    ]);
    const { store } = renderProgress();
    await screen.findByRole('alert');

    act(() => {
      store.dispatch(importStarted({ kind: 'notice', jobId: 'job-2' }));
    });

    await waitFor(() => expect(bar()?.getAttribute('aria-valuenow')).toBe('10'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(error).not.toHaveBeenCalled();
    expect(localStorage.getItem('noticeImportStatus')).toBe('1');
  });

  it('offers the report of a failed import that recorded problem rows', async () => {
    startedImport('notice');
    progressServer([
      { progressPercentage: null, status: 'failed', jobId: 'job-1', error: 'Too many rows.', skipped: 3 },
    ]);
    renderProgress();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('3 rows had problems');
    expect(within(alert).getByRole('button', { name: 'Download report' })).toBeTruthy();
  });

  it('only logs a failed poll, keeps the bar and polls again', async () => {
    startedImport('notice');
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const errorToast = vi.spyOn(toast, 'error');
    const server = progressServer([null, { progressPercentage: 30, status: 'running', jobId: 'job-1' }]);
    renderProgress();

    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(errorToast).not.toHaveBeenCalled();
    expect(bar()?.getAttribute('aria-valuenow')).toBe('0');
    expect(localStorage.getItem('noticeImportStatus')).toBe('1');

    await advance(10_000);
    await waitFor(() => expect(bar()?.getAttribute('aria-valuenow')).toBe('30'));
    expect(progressPolls(server.requests)).toBe(2);
  });

  it('drops a flag left over from another import (another account signed in since) without a word', async () => {
    startedImport('notice', 'job-of-someone-else');
    const success = vi.spyOn(toast, 'success');
    const server = progressServer([{ progressPercentage: 100, status: 'done', jobId: 'job-2', skipped: 4 }]);
    renderProgress();

    await waitFor(() => expect(localStorage.getItem('noticeImportStatus')).toBe('0'));
    await advance(10_000);
    expect(bar()).toBeNull();
    expect(success).not.toHaveBeenCalled();
    expect(screen.queryByRole('status')).toBeNull();
    expect(progressPolls(server.requests)).toBe(1);
  });

  it('drops a flag left over when there never was an import', async () => {
    startedImport('notice');
    const server = progressServer([{ progressPercentage: null }]);
    renderProgress();

    await waitFor(() => expect(localStorage.getItem('noticeImportStatus')).toBe('0'));
    expect(bar()).toBeNull();
    await advance(20_000);
    expect(progressPolls(server.requests)).toBe(1);
  });
});
