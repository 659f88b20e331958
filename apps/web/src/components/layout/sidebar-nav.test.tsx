import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { User } from '@notice-desk/contract/auth';
import { adminUser, plainUser, renderRoutes, sessionOf } from '../../testing/test-utils.tsx';
import { SidebarNav } from './sidebar-nav.tsx';

type NavOptions = { user?: User; variant?: 'sidebar' | 'drawer' };

function renderNav(path: string, { user = plainUser, variant = 'sidebar' }: NavOptions = {}) {
  const nav = <SidebarNav variant={variant} />;
  return renderRoutes([{ path: '*', element: nav }], { path, session: sessionOf(user) });
}

const groupButton = (name: string) => screen.getByRole('button', { name });

describe('SidebarNav', () => {
  it('opens the group of the current path and marks its entry, also on a sub-path', () => {
    renderNav('/forms/notice/add-notice');

    expect(groupButton('Forms').getAttribute('aria-expanded')).toBe('true');
    expect(groupButton('Campaign History').getAttribute('aria-expanded')).toBe('false');
    const current = screen.getByRole('link', { current: 'page' });
    expect(current.textContent).toBe('Assets');
    expect(current.getAttribute('href')).toBe('/forms/notice');
  });

  it('marks the campaign history entry on a campaign of that kind', () => {
    renderNav('/campaign/credit-card/abc');

    expect(groupButton('Campaign History').getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { current: 'page' }).getAttribute('href')).toBe('/campaign/credit-card');
  });

  it('keeps one group open at a time', async () => {
    const user = userEvent.setup();
    renderNav('/');

    await user.click(groupButton('Forms'));
    expect(groupButton('Forms').getAttribute('aria-expanded')).toBe('true');

    await user.click(groupButton('Campaign History'));
    expect(groupButton('Campaign History').getAttribute('aria-expanded')).toBe('true');
    expect(groupButton('Forms').getAttribute('aria-expanded')).toBe('false');

    await user.click(groupButton('Campaign History'));
    expect(groupButton('Campaign History').getAttribute('aria-expanded')).toBe('false');
  });

  it('follows the path when the user navigates', async () => {
    const user = userEvent.setup();
    renderNav('/');

    await user.click(groupButton('Campaign History'));
    await user.click(screen.getByRole('link', { name: 'Credit Card' }));

    expect(groupButton('Campaign History').getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { current: 'page' }).getAttribute('href')).toBe('/campaign/credit-card');
  });

  it('shows the Templates group only to an ADMIN', () => {
    const { unmount } = renderNav('/', { user: plainUser });
    expect(screen.queryByRole('button', { name: 'Templates' })).toBeNull();
    unmount();

    renderNav('/templates/email-templates/edit/t1', { user: adminUser });
    const templates = screen.getByRole('button', { name: 'Templates' });
    expect(templates.getAttribute('aria-expanded')).toBe('true');
    const entries = document.getElementById(templates.getAttribute('aria-controls') ?? '')!;
    expect(within(entries).getByRole('link', { name: 'Whatsapp' }).getAttribute('href')).toBe(
      '/templates/whatsapp-templates',
    );
    expect(within(entries).getByRole('link', { name: 'PDF Editor', current: 'page' })).toBeTruthy();
  });

  it('links the Audit Log for an ADMIN only', () => {
    const { unmount } = renderNav('/', { user: plainUser });
    expect(screen.queryByRole('link', { name: 'Audit Log' })).toBeNull();
    unmount();

    renderNav('/audit-log', { user: adminUser });
    expect(screen.getByRole('link', { name: 'Audit Log', current: 'page' }).getAttribute('href')).toBe(
      '/audit-log',
    );
  });

  it('links Users for an ADMIN only', () => {
    const { unmount } = renderNav('/', { user: plainUser });
    expect(screen.queryByRole('link', { name: 'Users' })).toBeNull();
    unmount();

    renderNav('/users', { user: adminUser });
    expect(screen.getByRole('link', { name: 'Users', current: 'page' }).getAttribute('href')).toBe('/users');
  });

  it('links Jobs for an ADMIN only', () => {
    const { unmount } = renderNav('/', { user: plainUser });
    expect(screen.queryByRole('link', { name: 'Jobs' })).toBeNull();
    unmount();

    renderNav('/jobs', { user: adminUser });
    expect(screen.getByRole('link', { name: 'Jobs', current: 'page' }).getAttribute('href')).toBe('/jobs');
  });

  it('links the Archive for an ADMIN only', () => {
    const { unmount } = renderNav('/', { user: plainUser });
    expect(screen.queryByRole('link', { name: 'Archive' })).toBeNull();
    unmount();

    renderNav('/archive', { user: adminUser });
    expect(screen.getByRole('link', { name: 'Archive', current: 'page' }).getAttribute('href')).toBe(
      '/archive',
    );
  });

  it('links Responses for an ADMIN and a user, after the other entries', () => {
    const { unmount } = renderNav('/responses', { user: plainUser });
    expect(screen.getByRole('link', { name: 'Responses', current: 'page' }).getAttribute('href')).toBe(
      '/responses',
    );
    unmount();

    renderNav('/', { user: adminUser });
    const links = screen.getAllByRole('link').map((link) => link.textContent);
    expect(links.slice(-3)).toEqual(['Archive', 'Responses', 'Change Password']);
  });

  it("names the notice entry 'Notice Conciliation' in the drawer", () => {
    renderNav('/forms/notice', { variant: 'drawer' });
    expect(screen.getByRole('link', { name: 'Notice Conciliation' }).getAttribute('href')).toBe(
      '/forms/notice',
    );
  });

  it('links Home and Change Password', () => {
    renderNav('/');
    expect(screen.getByRole('link', { name: 'Home', current: 'page' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'Change Password' }).getAttribute('href')).toBe(
      '/change-password',
    );
  });
});
