import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NoticeResponseItem } from '@notice-desk/contract/notice-page';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { NO_RESPONSES, ResponsesList, responseTime } from './responses-list.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const response = (n: number, changes: Partial<NoticeResponseItem> = {}): NoticeResponseItem => ({
  id: `r${n}`,
  kind: 'dispute',
  text: `I paid on ${n} March.`,
  createdAt: '2026-11-28T04:31:00.000Z',
  recordKind: 'notice',
  recordId: `n${n}`,
  campaignId: 'c1',
  customerName: `Customer ${n}`,
  reference: '••••1234',
  file: null,
  handled: null,
  ...changes,
});

/** The responses endpoints over a list that Mark handled changes. */
function responsesServer(items: NoticeResponseItem[], timeZone: string | undefined = 'Asia/Kolkata') {
  return stubFetch(({ method, path, search }) => {
    if (method === 'GET' && path === '/api/responses') {
      const page = Number(search.get('page'));
      const limit = Number(search.get('limit'));
      return jsonResponse(200, {
        items: items.slice((page - 1) * limit, page * limit),
        total: items.length,
        page,
        limit,
        ...(timeZone && { timeZone }),
      });
    }
    const handled = /^\/api\/responses\/([^/]+)\/handled$/.exec(path);
    if (method === 'POST' && handled) {
      const index = items.findIndex((item) => item.id === handled[1]);
      items[index] = { ...items[index]!, handled: { at: '2026-11-28T06:00:00.000Z', by: 'ravi' } };
      return jsonResponse(200, items[index]);
    }
    if (path.endsWith('/file')) {
      return new Response(new Blob(['%PDF']), {
        status: 200,
        headers: { 'content-disposition': 'attachment; filename="receipt.pdf"' },
      });
    }
    return jsonResponse(404, {
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'Not found.',
      error: 'Not found.',
    });
  });
}

const renderResponses = () =>
  renderWithApp(<ResponsesList />, { path: '/responses', session: sessionOf(plainUser) });

describe('ResponsesList', () => {
  it('lists each response with customer, reference, kind, time in TIME_ZONE, text and file', async () => {
    responsesServer([
      response(1, {
        file: {
          name: 'receipt.pdf',
          type: 'application/pdf',
          sha256: 'f'.repeat(64),
          url: '/api/responses/r1/file',
        },
      }),
      response(2, { kind: 'settle', text: '', recordKind: 'credit-card' }),
      response(3, { kind: 'callback', text: '' }),
    ]);
    renderResponses();

    const table = await screen.findByRole('table', { name: 'Responses' });
    await within(table).findByText('Customer 1');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Customer', 'Kind', 'Received (Asia/Kolkata)', 'Text', 'File', 'Handled']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual([
      'Dispute',
      'Settle / pay',
      'Call back',
    ]);
    // 04:31 UTC is 10:01 in Kolkata.
    expect(within(rows[0]!).getByText('28-11-2026 10:01')).toBeTruthy();
    expect(within(rows[0]!).getByText('I paid on 1 March.')).toBeTruthy();
    expect(within(rows[0]!).getByText('••••1234')).toBeTruthy();
    expect(within(rows[0]!).getByRole('link', { name: 'Customer 1' }).getAttribute('href')).toBe(
      '/forms/notice/edit-notice/n1',
    );
    expect(within(rows[1]!).getByRole('link', { name: 'Customer 2' }).getAttribute('href')).toBe(
      '/forms/credit-card/edit-credit-card/n2',
    );
    expect(within(rows[0]!).getByRole('button', { name: /Download/ })).toBeTruthy();
    expect(within(rows[1]!).queryByRole('button', { name: /Download/ })).toBeNull();
  });

  it("shows a recipient's markup as text", async () => {
    const hostile = '<img src=x onerror="alert(1)">I <b>dispute</b>\nline two';
    responsesServer([response(1, { text: hostile, customerName: '<i>Meena</i>' })]);
    renderResponses();
    const table = await screen.findByRole('table', { name: 'Responses' });
    expect(
      await within(table).findByText((_, node) => node?.textContent === hostile && node.tagName === 'P'),
    ).toBeTruthy();
    expect(within(table).getByText('<i>Meena</i>')).toBeTruthy();
    expect(table.querySelector('img, b, i')).toBeNull();
  });

  it('marks a response handled, then says who and when', async () => {
    const { requests } = responsesServer([response(1), response(2)]);
    const user = userEvent.setup();
    renderResponses();
    const table = await screen.findByRole('table', { name: 'Responses' });
    await user.click(await within(table).findByRole('button', { name: 'Mark handled (Customer 1)' }));

    expect(await within(table).findByText(/Handled by ravi on/)).toBeTruthy();
    expect(within(table).getByText('28-11-2026 11:30')).toBeTruthy();
    expect(within(table).getAllByRole('button', { name: /Mark handled/ })).toHaveLength(1);
    expect(requests.filter((seen) => seen.method === 'POST').map((seen) => seen.path)).toEqual([
      '/api/responses/r1/handled',
    ]);
  });

  it('pages like the other lists, newest first as the server sends them', async () => {
    const { requests } = responsesServer(Array.from({ length: 30 }, (_, n) => response(n + 1)));
    const user = userEvent.setup();
    renderResponses();
    expect(await screen.findByText('Showing 1 to 25 of 30 entries')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('Customer 26')).toBeTruthy();
    expect(screen.getByText('Showing 26 to 30 of 30 entries')).toBeTruthy();
    await waitFor(() => expect(requests.at(-1)!.search.get('page')).toBe('2'));
  });

  it('says what will appear here when there is nothing yet', async () => {
    responsesServer([]);
    renderResponses();
    expect(await screen.findByText(NO_RESPONSES)).toBeTruthy();
  });

  it('reads times in the browser zone until the server names its own', () => {
    expect(responseTime('2026-11-28T04:31:00.000Z', 'Asia/Kolkata')).toBe('28-11-2026 10:01');
    expect(responseTime('2026-11-28T04:31:00.000Z', 'UTC')).toBe('28-11-2026 04:31');
  });
});
