import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchResult } from '@notice-desk/contract/search';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { jsonResponse, plainUser, renderRoutes, sessionOf } from '../../../testing/test-utils.tsx';
import { SEARCH_DEBOUNCE_MS, SearchBox } from './search-box.tsx';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ravi: SearchResult = {
  _id: '0190a0a0-0000-7000-8000-000000000001',
  kind: 'notice',
  custName: 'Ravi Kumar',
  matched: { field: 'custName', value: 'Ravi Kumar' },
  campaignId: 'c1',
  campaignName: 'March notices',
};
const card: SearchResult = {
  _id: '0190a0a0-0000-7000-8000-000000000002',
  kind: 'credit-card',
  custName: 'Ravina Shah',
  matched: { field: 'custMobileNo', value: '+91 98450 12345' },
  campaignId: 'c2',
  campaignName: 'Cards round 2',
};
const third: SearchResult = { ...ravi, _id: '0190a0a0-0000-7000-8000-000000000003', custName: 'Raviraj Rao' };

/** The box above the pages, as the header holds it, so it stays on screen when a record opens. */
function renderBox() {
  return renderRoutes(
    [
      {
        element: (
          <>
            <SearchBox />
            <Outlet />
          </>
        ),
        children: [
          { path: '/', element: <p>Home</p> },
          { path: '/forms/notice/edit-notice/:id', element: <p>Notice page</p> },
          { path: '/forms/credit-card/edit-credit-card/:id', element: <p>Credit card page</p> },
        ],
      },
    ],
    { path: '/', session: sessionOf(plainUser) },
  );
}

const box = () => screen.getByRole('combobox', { name: 'Search' });
const options = () => within(screen.getByRole('listbox', { hidden: true })).queryAllByRole('option');
const selected = () => options().find((option) => option.getAttribute('aria-selected') === 'true');

describe('SearchBox', () => {
  it('searches once typing pauses for 250 ms, not on every key, and not below 2 characters', async () => {
    // The clock also runs on by itself (Testing Library waits on it); advanceTimers jumps it ahead.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const { requests } = stubFetch(() => jsonResponse(200, { results: [ravi] }));
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    renderBox();

    await user.type(box(), 'r');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(requests).toHaveLength(0);
    expect(box().getAttribute('aria-expanded')).toBe('false');

    await user.type(box(), 'av');
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 100));
    await user.type(box(), 'i');
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 100));
    expect(requests).toHaveLength(0); // 'rav' never settled; 'ravi' not yet
    await act(() => vi.advanceTimersByTimeAsync(100));
    await waitFor(() => expect(screen.getByRole('option', { name: /Ravi Kumar/ })).toBeTruthy());
    expect(requests.map((r) => `${r.path}?${r.search}`)).toEqual(['/api/search?q=ravi']);
    expect(requests[0]!.request.headers.get('authorization')).toBe('Bearer token-1');
  });

  it('highlights the first result and moves with the arrow keys; Enter opens the highlighted record', async () => {
    stubFetch(() => jsonResponse(200, { results: [ravi, card, third] }));
    const user = userEvent.setup();
    const { router } = renderBox();

    await user.type(box(), 'rav');
    await screen.findByRole('option', { name: /Ravi Kumar/ });
    expect(box().getAttribute('aria-expanded')).toBe('true');
    expect(box().getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);
    expect(selected()?.textContent).toContain('Ravi Kumar');
    expect(box().getAttribute('aria-activedescendant')).toBe(selected()?.id);
    expect(options()[1]!.textContent).toBe(
      'Ravina ShahCredit card · Mobile +91 98450 12345Campaign: Cards round 2',
    );

    await user.keyboard('{ArrowDown}');
    expect(selected()?.textContent).toContain('Ravina Shah');
    expect(box().getAttribute('aria-activedescendant')).toBe(selected()?.id);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(selected()?.textContent).toContain('Ravi Kumar'); // wrapped round
    await user.keyboard('{ArrowUp}');
    expect(selected()?.textContent).toContain('Raviraj Rao');
    await user.keyboard('{ArrowUp}');

    await user.keyboard('{Enter}');
    await screen.findByText('Credit card page');
    expect(router.state.location.pathname).toBe(`/forms/credit-card/edit-credit-card/${card._id}`);
  });

  it('closes on Escape, then clears on a second Escape', async () => {
    stubFetch(() => jsonResponse(200, { results: [ravi] }));
    const user = userEvent.setup();
    renderBox();

    await user.type(box(), 'ravi');
    await screen.findByRole('option', { name: /Ravi Kumar/ });
    await user.keyboard('{Escape}');
    expect(box().getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('listbox')).toBeNull(); // hidden
    expect(box()).toHaveProperty('value', 'ravi');

    await user.keyboard('{ArrowDown}');
    expect(box().getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{Escape}{Escape}');
    expect(box()).toHaveProperty('value', '');
  });

  it('opens a record on a click', async () => {
    stubFetch(() => jsonResponse(200, { results: [card, ravi] }));
    const user = userEvent.setup();
    const { router } = renderBox();

    await user.type(box(), 'ravi');
    await user.click(await screen.findByRole('option', { name: /Ravi Kumar/ }));
    await screen.findByText('Notice page');
    expect(router.state.location.pathname).toBe(`/forms/notice/edit-notice/${ravi._id}`);
    expect(box()).toHaveProperty('value', '');
  });

  it('says when it is searching, when nothing matches, and when the search failed', async () => {
    let answer: (response: Response) => void = () => {};
    const { requests } = stubFetch(({ search }) =>
      search.get('q') === 'zz'
        ? jsonResponse(200, { results: [] })
        : search.get('q') === 'broken'
          ? jsonResponse(500, { statusCode: 500, message: 'Something went wrong on the server.' })
          : new Promise<Response>((resolve) => (answer = resolve)),
    );
    const user = userEvent.setup();
    renderBox();

    await user.type(box(), 'slow');
    expect(await screen.findByText('Searching…')).toBeTruthy();
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(screen.getByText('Searching…')).toBeTruthy(); // still, while the server answers
    answer(jsonResponse(200, { results: [ravi] }));
    await screen.findByRole('option', { name: /Ravi Kumar/ });

    await user.clear(box());
    await user.type(box(), 'zz');
    expect(await screen.findByText('No matching records')).toBeTruthy();
    expect(box().getAttribute('aria-expanded')).toBe('false');

    await user.clear(box());
    await user.type(box(), 'broken');
    expect(await screen.findByText('Search failed. Try again.')).toBeTruthy();
  });

  it('shows markup in a name as text', async () => {
    stubFetch(() =>
      jsonResponse(200, { results: [{ ...ravi, custName: '<img src=x onerror=alert(1)><b>Bold</b>' }] }),
    );
    const user = userEvent.setup();
    renderBox();

    await user.type(box(), 'bold');
    const option = await screen.findByRole('option', { name: /Bold/ });
    expect(option.textContent).toContain('<img src=x onerror=alert(1)><b>Bold</b>');
    expect(option.querySelector('img, b')).toBeNull();
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('1 result'));
  });
});
