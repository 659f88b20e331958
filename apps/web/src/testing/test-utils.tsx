import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { User } from '@notice-desk/contract/auth';
import type { Session } from '../lib/session.ts';
import { createAppStore } from '../lib/store.ts';

export const adminUser: User = { _id: 'u1', name: 'Asha Admin', username: 'asha', role: 'ADMIN' };
export const plainUser: User = { _id: 'u2', name: 'Ravi User', username: 'ravi', role: 'USER' };

export const sessionOf = (user: User): Session => ({ accessToken: 'token-1', user });

type RenderOptions = {
  /** Where the memory router starts. */
  path?: string;
  session?: Session | null;
  /** Extra routes beside the one rendering `ui` at `path` (redirect targets, for instance). */
  routes?: RouteObject[];
};

/** Renders `ui` at `path` inside a fresh store and a memory router. */
export function renderWithApp(
  ui: ReactNode,
  { path = '/', session = null, routes = [] }: RenderOptions = {},
) {
  return renderRoutes([{ path: path.split('?')[0], element: ui }, ...routes], { path, session });
}

/** Renders a route tree inside a fresh store and a memory router. */
export function renderRoutes(routes: RouteObject[], { path = '/', session = null }: RenderOptions = {}) {
  const store = createAppStore(session);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...view, store, router };
}

/** A fetch stand-in answering with `status` and a JSON `body`. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
