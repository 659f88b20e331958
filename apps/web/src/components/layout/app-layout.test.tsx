import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_STORAGE_KEY } from '../../lib/session.ts';
import { plainUser, renderRoutes, sessionOf } from '../../testing/test-utils.tsx';
import { AppLayout } from './app-layout.tsx';

afterEach(() => vi.restoreAllMocks());

function renderLayout() {
  return renderRoutes(
    [
      {
        element: <AppLayout search={<input type="search" aria-label="Search" />} />,
        children: [{ path: '/', element: <h1>Dashboard</h1> }],
      },
      { path: '/forms/notice', element: <AppLayout /> },
    ],
    { path: '/', session: sessionOf(plainUser) },
  );
}

const drawer = () => screen.getByRole('dialog', { hidden: true });
const menuButton = () => screen.getByRole('button', { name: 'Open menu' });

describe('AppLayout', () => {
  it('has the search box it is given, the Logout button and the avatar in its header', () => {
    renderLayout();
    expect(within(screen.getByRole('banner')).getByRole('searchbox', { name: 'Search' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Avatar' }).getAttribute('src')).toMatch(/^data:image\/svg\+xml,/);
  });

  it('opens the drawer from the menu button, moves focus into it, and closes on Escape', async () => {
    const user = userEvent.setup();
    renderLayout();

    await user.click(menuButton());
    expect(menuButton().getAttribute('aria-expanded')).toBe('true');
    expect(drawer().parentElement?.dataset.open).toBe('true');
    expect(drawer().contains(document.activeElement)).toBe(true);

    await user.keyboard('{Escape}');
    expect(drawer().parentElement?.dataset.open).toBe('false');
    expect(document.activeElement).toBe(menuButton());
  });

  it('closes the drawer on a tap outside it', async () => {
    const user = userEvent.setup();
    renderLayout();

    await user.click(menuButton());
    await user.click(screen.getByTestId('nav-drawer-backdrop'));

    expect(drawer().parentElement?.dataset.open).toBe('false');
  });

  it('keeps Tab inside the open drawer', async () => {
    const user = userEvent.setup();
    renderLayout();

    await user.click(menuButton());
    const panel = drawer();
    for (let step = 0; step < 12; step += 1) {
      await user.tab();
      expect(panel.contains(document.activeElement)).toBe(true);
    }
  });

  it('closes the drawer when an entry is chosen', async () => {
    const user = userEvent.setup();
    renderLayout();

    await user.click(menuButton());
    await user.click(within(drawer()).getByRole('button', { name: 'Forms' }));
    await user.click(within(drawer()).getByRole('link', { name: 'Notice Conciliation' }));

    expect(drawer().parentElement?.dataset.open).toBe('false');
  });

  it('logs out: clears the session and says so', async () => {
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    const { store } = renderLayout();

    await user.click(screen.getByRole('button', { name: 'Logout' }));

    await waitFor(() => expect(store.getState().session).toEqual({ accessToken: null, user: null }));
    expect(window.localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(success).toHaveBeenCalledWith('Logged out successfully.');
  });
});
