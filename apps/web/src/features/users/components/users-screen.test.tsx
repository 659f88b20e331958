import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ManagedUser } from '@notice-desk/contract/users';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { adminUser, jsonResponse, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { signInTime, UsersScreen } from './users-screen.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const account = (user: Partial<ManagedUser> & Pick<ManagedUser, '_id' | 'username'>): ManagedUser => ({
  name: user.username,
  role: 'USER',
  disabled: false,
  createdAt: '2026-11-01T10:00:00.000Z',
  lastSignInAt: null,
  ...user,
});

const conflict = (message: string) =>
  jsonResponse(409, { statusCode: 409, code: 'CONFLICT', message, error: message });

/** The users API over a list it changes as asked; `refuse` answers a PATCH with an error instead. */
function usersServer(
  users: ManagedUser[],
  { refuse, timeZone }: { refuse?: () => Response; timeZone?: string } = {},
) {
  return stubFetch(async ({ method, path, request }) => {
    if (method === 'GET' && path === '/api/users')
      return jsonResponse(200, { items: users, total: users.length, ...(timeZone && { timeZone }) });
    if (method === 'POST' && path.endsWith('/end-sessions'))
      return jsonResponse(200, { message: '3 sessions of ravi ended.', ended: 3 });
    if (method === 'POST' && path === '/api/users') {
      const body = (await request.clone().json()) as {
        username: string;
        role: 'ADMIN' | 'USER';
        password?: string;
      };
      const created = account({ _id: `u${users.length + 1}`, username: body.username, role: body.role });
      users.push(created);
      return jsonResponse(201, { user: created, ...(!body.password && { password: 'abcd-efgh-jkmn-pqrs' }) });
    }
    const id = /^\/api\/users\/([^/]+)/.exec(path)?.[1];
    const user = users.find((u) => u._id === id);
    if (!user) return jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'User not found.' });
    if (method === 'PATCH') {
      if (refuse) return refuse();
      const body = (await request.clone().json()) as { disabled?: boolean; role?: 'ADMIN' | 'USER' };
      Object.assign(user, body);
      return jsonResponse(200, user);
    }
    const { sendByMail } = (await request.clone().json()) as { sendByMail: boolean };
    return jsonResponse(
      200,
      sendByMail
        ? { message: `A new password was mailed to ${user.username}.`, mailedTo: user.username }
        : { message: 'shown once', password: 'wxyz-2345-6789-abcd' },
    );
  });
}

const renderUsers = () => renderWithApp(<UsersScreen />, { path: '/users', session: sessionOf(adminUser) });
const rowOf = async (username: string) =>
  (await screen.findByText(username, { selector: 'td span' })).closest('tr')!;

describe('UsersScreen', () => {
  it('lists users with role, status and last sign-in, marking the signed-in ADMIN', async () => {
    usersServer([
      account({
        _id: adminUser._id,
        username: 'asha',
        role: 'ADMIN',
        lastSignInAt: '2026-11-24T09:30:00.000Z',
      }),
      account({ _id: 'u2', username: 'ravi', disabled: true }),
    ]);
    renderUsers();
    const table = await screen.findByRole('table', { name: 'Users' });
    const asha = await rowOf('asha');
    expect(within(asha).getByText('(you)')).toBeTruthy();
    expect(within(asha).getByRole('cell', { name: 'ADMIN' })).toBeTruthy();
    expect(within(asha).getByRole('cell', { name: 'Active' })).toBeTruthy();
    expect(within(asha).getByRole('cell', { name: signInTime('2026-11-24T09:30:00.000Z') })).toBeTruthy();
    const ravi = await rowOf('ravi');
    expect(within(ravi).getByRole('cell', { name: 'Disabled' })).toBeTruthy();
    expect(within(ravi).getByRole('cell', { name: 'Never' })).toBeTruthy();
    expect(within(ravi).getByRole('button', { name: 'Enable ravi' })).toBeTruthy();
    expect(within(ravi).getByRole('button', { name: 'Make ADMIN ravi' })).toBeTruthy();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Username', 'Name', 'Role', 'Status', 'Last sign-in', 'Actions']);
  });

  it('shows last sign-in in the server’s TIME_ZONE, as the audit log does', async () => {
    usersServer([account({ _id: 'u2', username: 'ravi', lastSignInAt: '2026-11-24T09:30:00.000Z' })], {
      timeZone: 'Asia/Kolkata',
    });
    renderUsers();
    const ravi = await rowOf('ravi');
    // 09:30 UTC is 15:00 in India, whatever zone this computer is in.
    expect(within(ravi).getByRole('cell', { name: '24 Nov 2026, 15:00' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Last sign-in (Asia/Kolkata)' })).toBeTruthy();
  });

  it("ends a user's sessions after confirming, and says how many ended", async () => {
    const server = usersServer([account({ _id: 'u2', username: 'ravi' })]);
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderUsers();
    await user.click(await screen.findByRole('button', { name: 'End sessions ravi' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign ravi out everywhere?' });
    expect(within(dialog).getByText(/Their password stays/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'End sessions' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('3 sessions of ravi ended.'));
    expect(server.requests.find((r) => r.method === 'POST')?.path).toBe('/api/users/u2/end-sessions');
  });

  it('disables a user after confirming, by keyboard; Escape cancels', async () => {
    const users = [account({ _id: 'u2', username: 'ravi' })];
    const server = usersServer(users);
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderUsers();

    (await screen.findByRole('button', { name: 'Disable ravi' })).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Disable ravi?' });
    expect(within(dialog).getByText(/signed out at once/)).toBeTruthy();
    // Focus starts on Cancel, the safe answer; Escape cancels.
    expect(document.activeElement?.textContent).toBe('Cancel');
    await user.keyboard('{Escape}');
    expect(server.requests.some((r) => r.method === 'PATCH')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Disable ravi' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('ravi is disabled.'));
    const patch = server.requests.find((r) => r.method === 'PATCH')!;
    expect(patch.path).toBe('/api/users/u2');
    expect(await patch.request.json()).toEqual({ disabled: true });
    expect(await screen.findByRole('button', { name: 'Enable ravi' })).toBeTruthy();
  });

  it('shows why the last ADMIN cannot be demoted', async () => {
    const message = 'This is the last enabled ADMIN: make another user an ADMIN first.';
    usersServer([account({ _id: adminUser._id, username: 'asha', role: 'ADMIN' })], {
      refuse: () => conflict(message),
    });
    const error = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    renderUsers();
    await user.click(await screen.findByRole('button', { name: 'Make user asha' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Make user' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith(message));
  });

  it('creates a user with a generated password and shows it once, with Copy', async () => {
    const server = usersServer([]);
    const user = userEvent.setup();
    renderUsers();
    expect(await screen.findByText('No users yet: create one with Create user.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Create user' }));
    const form = await screen.findByRole('form', { name: 'Create user' });
    // Sign-up's rules, before anything is sent.
    await user.click(within(form).getByRole('button', { name: 'Create user' }));
    expect(await within(form).findByText('Username is required!!')).toBeTruthy();
    await user.type(within(form).getByLabelText('Username'), 'meena');
    await user.type(within(form).getByLabelText('Password'), 'short');
    await user.click(within(form).getByRole('button', { name: 'Create user' }));
    expect(await within(form).findByText('Password must be at least 8 characters.')).toBeTruthy();
    await user.clear(within(form).getByLabelText('Password'));
    await user.selectOptions(within(form).getByLabelText('Role'), 'ADMIN');
    await user.click(within(form).getByRole('button', { name: 'Create user' }));

    const shown = await screen.findByRole('dialog', { name: 'New password for meena' });
    expect(within(shown).getByLabelText('New password').textContent).toBe('abcd-efgh-jkmn-pqrs');
    const post = server.requests.find((r) => r.method === 'POST')!;
    expect(await post.request.json()).toEqual({ username: 'meena', role: 'ADMIN' });
    await user.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('abcd-efgh-jkmn-pqrs');
    expect(within(shown).getByRole('status').textContent).toBe('Copied.');
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByText('abcd-efgh-jkmn-pqrs')).toBeNull();
    expect(await rowOf('meena')).toBeTruthy();
  });

  it('resets a password: shown once, or mailed when the username is an address and that is asked', async () => {
    const server = usersServer([
      account({ _id: 'u2', username: 'ravi' }),
      account({ _id: 'u3', username: 'kiran@example.com' }),
    ]);
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderUsers();

    await user.click(await screen.findByRole('button', { name: 'Reset password ravi' }));
    const ask = await screen.findByRole('dialog', { name: 'Reset the password of ravi?' });
    // Not an address: nothing to mail to.
    expect(within(ask).queryByRole('checkbox')).toBeNull();
    await user.click(within(ask).getByRole('button', { name: 'Reset password' }));
    const shown = await screen.findByRole('dialog', { name: 'New password for ravi' });
    expect(within(shown).getByLabelText('New password').textContent).toBe('wxyz-2345-6789-abcd');
    await user.click(within(shown).getByRole('button', { name: 'Done' }));

    await user.click(screen.getByRole('button', { name: 'Reset password kiran@example.com' }));
    const mail = await screen.findByRole('dialog', { name: 'Reset the password of kiran@example.com?' });
    await user.click(within(mail).getByRole('checkbox', { name: /Send it by mail to kiran@example.com/ }));
    await user.click(within(mail).getByRole('button', { name: 'Reset password' }));
    await waitFor(() =>
      expect(success).toHaveBeenCalledWith('A new password was mailed to kiran@example.com.'),
    );
    const resets = server.requests.filter((r) => r.path.endsWith('/password'));
    expect(await resets[1]!.request.json()).toEqual({ sendByMail: true });
    expect(screen.queryByRole('dialog', { name: /New password/ })).toBeNull();
  });

  it('says so when the users cannot be loaded, with Retry', async () => {
    stubFetch(() => jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Internal error' }));
    renderUsers();
    expect(await screen.findByText('The users could not be loaded.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
