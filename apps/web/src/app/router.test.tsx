import { act, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { sessionExpired, signedOut, type Session } from '../lib/session.ts';
import { createAppStore } from '../lib/store.ts';
import { adminUser, plainUser, sessionOf } from '../testing/test-utils.tsx';
import { routes } from './router.tsx';

function renderApp(path: string, session: Session | null = null) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Provider store={createAppStore(session)}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return router;
}

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

describe('app routes', () => {
  it.each([
    ['/', 'Dashboard'],
    ['/forms/notice', 'Notice Concialation'],
    ['/forms/notice/add-notice', 'Add Notice'],
    ['/forms/notice/edit-notice/n1', 'Edit Notice'],
    ['/forms/credit-card', 'Credit Card'],
    ['/forms/credit-card/add-credit-card', 'Add Credit Card'],
    ['/forms/credit-card/edit-credit-card/c1', 'Edit Credit Card'],
    ['/campaign/notice', 'Notice Campaigns'],
    ['/campaign/credit-card', 'Credit Card Campaigns'],
    ['/campaign/notice/k1', 'Campaign Details'],
    ['/campaign/credit-card/k1', 'Campaign Details'],
    ['/templates/whatsapp-templates', 'Whatsapp Templates'],
    ['/templates/whatsapp-templates/edit/t1', 'Edit Whatsapp Template'],
    ['/templates/email-templates', 'PDF Editor'],
    ['/templates/email-templates/edit/t1', 'Edit PDF Editor'],
    ['/change-password', 'Change Password'],
    ['/audit-log', 'Audit Log'],
    ['/users', 'Users'],
    ['/jobs', 'Jobs'],
  ])('serves %s to an ADMIN with the heading %s', async (path, title) => {
    renderApp(path, sessionOf(adminUser));
    expect(await heading(title)).toBeTruthy();
  });

  it('sends an anonymous visitor of a deep link to the login page', async () => {
    const router = renderApp('/forms/notice/edit-notice/n1');
    expect(await heading('Login')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/login');
  });

  it('says why on the login page when a request finds the session expired, and not after a logout', async () => {
    const store = createAppStore(sessionOf(plainUser));
    const router = createMemoryRouter(routes, { initialEntries: ['/change-password'] });
    render(
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>,
    );
    await heading('Change Password');
    act(() => {
      store.dispatch(sessionExpired());
    });
    expect(await heading('Login')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Your session has expired. Please sign in again.');

    act(() => {
      store.dispatch(signedOut());
    });
    expect(screen.queryByText('Your session has expired. Please sign in again.')).toBeNull();
  });

  it('serves /responses to a user who is not ADMIN, with the heading Responses', async () => {
    renderApp('/responses', sessionOf(plainUser));
    expect(await heading('Responses')).toBeTruthy();
  });

  it('sends an anonymous visitor of /responses to the login page', async () => {
    const router = renderApp('/responses');
    expect(await heading('Login')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/login');
  });

  it('sends a signed-in user from sign-up to the dashboard', async () => {
    renderApp('/auth/sign-up', sessionOf(plainUser));
    expect(await heading('Dashboard')).toBeTruthy();
  });

  it.each(['/templates/email-templates', '/templates/whatsapp-templates/edit/t1', '/audit-log', '/users'])(
    'shows a user who is not ADMIN a 403 page at %s, in the app frame, with a way back',
    async (path) => {
      const router = renderApp(path, sessionOf(plainUser));
      expect(await heading('Access denied')).toBeTruthy();
      expect(screen.getByText('403')).toBeTruthy();
      expect(router.state.location.pathname).toBe(path);
      expect(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
      expect(screen.getAllByRole('navigation', { name: 'Main' }).length).toBeGreaterThan(0);
    },
  );

  it('opens the phone call page to everyone', async () => {
    // jsdom cannot follow the tel: link the page activates.
    const stayOnPage = (event: MouseEvent) => event.preventDefault();
    document.addEventListener('click', stayOnPage);
    renderApp('/phonecall?phone=12345');
    expect(await screen.findByRole('link', { name: 'click here' })).toBeTruthy();
    document.removeEventListener('click', stayOnPage);
  });

  it('shows a 404 page for an unknown path, in the app frame, naming the path', async () => {
    renderApp('/no-such-page', sessionOf(plainUser));
    expect(await heading('Page not found')).toBeTruthy();
    expect(screen.getByText('404 Not Found')).toBeTruthy();
    expect(screen.getByText('/no-such-page')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toBeTruthy();
    expect(screen.getAllByRole('navigation', { name: 'Main' }).length).toBeGreaterThan(0);
  });

  it('treats a campaign of an unknown kind as an unknown page', async () => {
    renderApp('/campaign/loans/k1', sessionOf(plainUser));
    expect(await heading('Page not found')).toBeTruthy();
  });
});
