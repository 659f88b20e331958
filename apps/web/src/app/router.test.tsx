import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Session } from '../lib/session.ts';
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
  ])('serves %s to an ADMIN with the heading %s', async (path, title) => {
    renderApp(path, sessionOf(adminUser));
    expect(await heading(title)).toBeTruthy();
  });

  it('sends an anonymous visitor of a deep link to the login page', async () => {
    const router = renderApp('/forms/notice/edit-notice/n1');
    expect(await heading('Login')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/login');
  });

  it('sends a signed-in user from sign-up to the dashboard', async () => {
    renderApp('/auth/sign-up', sessionOf(plainUser));
    expect(await heading('Dashboard')).toBeTruthy();
  });

  it('sends a user who is not ADMIN from a template page to the dashboard', async () => {
    renderApp('/templates/email-templates', sessionOf(plainUser));
    expect(await heading('Dashboard')).toBeTruthy();
  });

  it('sends a user who is not ADMIN from the audit log to the dashboard', async () => {
    const router = renderApp('/audit-log', sessionOf(plainUser));
    expect(await heading('Dashboard')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('opens the phone call page to everyone', async () => {
    // jsdom cannot follow the tel: link the page activates.
    const stayOnPage = (event: MouseEvent) => event.preventDefault();
    document.addEventListener('click', stayOnPage);
    renderApp('/phonecall?phone=12345');
    expect(await screen.findByRole('link', { name: 'click here' })).toBeTruthy();
    document.removeEventListener('click', stayOnPage);
  });

  it("shows 'Unexpected Application Error!' for an unknown path", async () => {
    renderApp('/no-such-page', sessionOf(plainUser));
    expect(await screen.findByText('Unexpected Application Error!')).toBeTruthy();
    expect(screen.getByText('404 Not Found')).toBeTruthy();
  });

  it('treats a campaign of an unknown kind as an unknown page', async () => {
    renderApp('/campaign/loans/k1', sessionOf(plainUser));
    expect(await screen.findByText('Unexpected Application Error!')).toBeTruthy();
  });
});
