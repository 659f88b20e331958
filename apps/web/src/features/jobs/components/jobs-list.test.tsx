import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobListItem } from '@notice-desk/contract/jobs';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { adminUser, jsonResponse, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { jobAge } from '../utils/job-words.ts';
import { JobsList, NO_JOBS, NO_MATCHING_JOBS } from './jobs-list.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const job = (n: number, overrides: Partial<JobListItem> = {}): JobListItem => ({
  _id: `job-${n}`,
  kind: 'send',
  state: 'queued',
  attempts: 0,
  maxAttempts: 3,
  lastError: null,
  progress: 0,
  createdAt: '2026-11-23T09:15:42.000Z',
  updatedAt: '2026-11-23T09:15:42.000Z',
  ageSeconds: 90,
  ...overrides,
});

/** GET /api/jobs over `jobs`, paged as asked; `answer` may answer first. */
function jobsServer(jobs: JobListItem[], answer?: () => Response | undefined) {
  return stubFetch(({ search }) => {
    const early = answer?.();
    if (early) return early;
    const page = Number(search.get('page'));
    const limit = Number(search.get('limit'));
    const kept = jobs.filter(
      (j) =>
        (!search.get('kind') || j.kind === search.get('kind')) &&
        (!search.get('state') || j.state === search.get('state')),
    );
    return jsonResponse(200, {
      items: kept.slice((page - 1) * limit, page * limit),
      total: kept.length,
      timeZone: 'Asia/Kolkata',
    });
  });
}

const renderJobs = () => renderWithApp(<JobsList />, { path: '/jobs', session: sessionOf(adminUser) });

const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Jobs' }))
    .getAllByRole('row')
    .slice(1);

describe('JobsList', () => {
  it('lists jobs as the server pages them: kind, state, when queued, age, attempts, progress, last error', async () => {
    const server = jobsServer([
      job(2, {
        kind: 'import',
        state: 'failed',
        attempts: 3,
        lastError: 'The sheet has no header row.',
        ageSeconds: 3 * 3600 + 5 * 60,
      }),
      job(1, { state: 'running', attempts: 1, progress: 42 }),
    ]);
    renderJobs();

    await screen.findByText('The sheet has no header row.');
    expect(
      within(screen.getByRole('table', { name: 'Jobs' }))
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Kind', 'State', 'Queued (Asia/Kolkata)', 'Age', 'Attempts', 'Progress', 'Last error']);
    const cells = (row: number) =>
      within(bodyRows()[row]!)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    // The server's TIME_ZONE, whatever the browser's: 09:15:42 UTC is 14:45:42 in India.
    expect(cells(0)).toEqual([
      'Import',
      'Failed',
      '23 Nov 2026, 14:45:42',
      '3 h 5 min',
      '3 of 3',
      '0%',
      'The sheet has no header row.',
    ]);
    expect(cells(1)).toEqual(['Send', 'Running', '23 Nov 2026, 14:45:42', '1 min', '1 of 3', '42%', 'None']);
    expect(server.requests[0]?.path).toBe('/api/jobs');
    expect(server.requests[0]?.search.toString()).toBe('page=1&limit=25');
    expect(server.requests[0]?.request.headers.get('authorization')).toBe('Bearer token-1');
    expect([45, 60, 3600, 86_400 + 7200, 2 * 86_400].map(jobAge)).toEqual([
      '45 s',
      '1 min',
      '1 h',
      '1 d 2 h',
      '2 d',
    ]);
  });

  it('narrows by kind and state from the keyboard, back on page 1, and asks again on Refresh', async () => {
    const user = userEvent.setup();
    const server = jobsServer([
      ...Array.from({ length: 30 }, (_, i) => job(i + 10)),
      job(1, { kind: 'import', state: 'failed', lastError: 'Bad sheet' }),
    ]);
    renderJobs();
    await screen.findAllByRole('cell', { name: 'Send' });
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(server.requests.at(-1)?.search.get('page')).toBe('2'));

    // Tab from the top of the screen reaches the filters and Refresh in order.
    (document.activeElement as HTMLElement | null)?.blur();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Kind' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'Import');
    await waitFor(() =>
      expect(server.requests.at(-1)?.search.toString()).toBe('page=1&limit=25&kind=import'),
    );
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'State' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'Failed');
    await waitFor(() =>
      expect(server.requests.at(-1)?.search.toString()).toBe('page=1&limit=25&kind=import&state=failed'),
    );
    await screen.findByRole('cell', { name: 'Bad sheet' });
    await user.tab();
    const refresh = screen.getByRole('button', { name: 'Refresh' });
    expect(document.activeElement).toBe(refresh);
    const asked = server.requests.length;
    await user.keyboard('{Enter}');
    await waitFor(() => expect(server.requests.length).toBe(asked + 1));
  });

  it('says there are no jobs yet, or that none match the filters and how to see them all', async () => {
    const user = userEvent.setup();
    jobsServer([]);
    renderJobs();
    expect(await screen.findByText(NO_JOBS)).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'Running');
    expect(await screen.findByText(NO_MATCHING_JOBS)).toBeTruthy();
  });

  it("shows a spinner while loading, then the server's message and Retry when it fails", async () => {
    const user = userEvent.setup();
    let failing = true;
    const server = jobsServer([job(1)], () =>
      failing
        ? jsonResponse(403, {
            statusCode: 403,
            code: 'FORBIDDEN',
            message: 'Only an ADMIN can do this.',
            error: 'Only an ADMIN can do this.',
          })
        : undefined,
    );
    renderJobs();
    expect(screen.getByRole('status').textContent).toBe('Loading jobs');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Only an ADMIN can do this.');
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByRole('cell', { name: 'Send' });
    expect(server.requests).toHaveLength(2);
  });
});
