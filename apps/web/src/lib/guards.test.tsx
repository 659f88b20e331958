import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RouteObject } from 'react-router';
import { adminUser, plainUser, renderRoutes, sessionOf } from '../testing/test-utils.tsx';
import { RequireAdmin, RequireGuest, RequireSignedIn } from './guards.tsx';
import { signedOut } from './session.ts';

const routes: RouteObject[] = [
  { element: <RequireGuest />, children: [{ path: '/auth/login', element: <p>login page</p> }] },
  {
    element: <RequireSignedIn />,
    children: [
      { path: '/', element: <p>home page</p> },
      { path: '/forms/notice', element: <p>notice page</p> },
      {
        element: <RequireAdmin />,
        children: [{ path: '/templates/whatsapp-templates', element: <p>templates</p> }],
      },
    ],
  },
];

describe('route guards', () => {
  it('sends an anonymous user from a signed-in-only page to the login page', async () => {
    const { router } = renderRoutes(routes, { path: '/forms/notice' });
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/login');
  });

  it('lets a signed-in user through', () => {
    renderRoutes(routes, { path: '/forms/notice', session: sessionOf(plainUser) });
    expect(screen.getByText('notice page')).toBeTruthy();
  });

  it('sends a signed-in user away from the login page to home', async () => {
    const { router } = renderRoutes(routes, { path: '/auth/login', session: sessionOf(plainUser) });
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows a user who is not ADMIN a 403 page on the templates, with a way home, not a silent redirect', async () => {
    const { router } = renderRoutes(routes, {
      path: '/templates/whatsapp-templates',
      session: sessionOf(plainUser),
    });
    expect(await screen.findByRole('heading', { name: 'Access denied' })).toBeTruthy();
    expect(screen.queryByText('templates')).toBeNull();
    expect(router.state.location.pathname).toBe('/templates/whatsapp-templates');
    expect(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
  });

  it('lets an ADMIN reach the templates', () => {
    renderRoutes(routes, { path: '/templates/whatsapp-templates', session: sessionOf(adminUser) });
    expect(screen.getByText('templates')).toBeTruthy();
  });

  it('sends the user to the login page as soon as the session ends', async () => {
    const { store } = renderRoutes(routes, { path: '/forms/notice', session: sessionOf(plainUser) });
    act(() => {
      store.dispatch(signedOut());
    });
    expect(await screen.findByText('login page')).toBeTruthy();
  });
});
