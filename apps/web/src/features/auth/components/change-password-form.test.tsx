import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const mismatch = 'New password and confirm password do not match.';
const field = (placeholder: string) => screen.getByPlaceholderText(placeholder) as HTMLInputElement;

async function fill(user: UserEvent, oldPassword: string, newPassword: string, confirmPassword: string) {
  await user.type(field('Old Password'), oldPassword);
  await user.type(field('New Password'), newPassword);
  await user.type(field('Confirm New Password'), confirmPassword);
}

const renderForm = () =>
  renderWithApp(<ChangePasswordForm />, { path: '/change-password', session: sessionOf(plainUser) });

describe('ChangePasswordForm', () => {
  it('signs out the other sessions and says how many ended', async () => {
    const fetch = vi.fn(async (_request: Request) =>
      jsonResponse(200, { message: '2 sessions ended.', ended: 2 }),
    );
    vi.stubGlobal('fetch', fetch);
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderForm();

    await user.click(screen.getByRole('button', { name: 'Sign out other sessions' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('2 sessions ended.'));
    const request = fetch.mock.calls[0]![0];
    expect(new URL(request.url).pathname).toBe('/api/auth/end-other-sessions');
    expect(request.method).toBe('POST');
  });

  it('shows the three required messages when saved empty', async () => {
    const user = userEvent.setup();
    renderForm();

    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(screen.getByText('Old Password is required!')).toBeTruthy();
    expect(screen.getByText('New Password is required!')).toBeTruthy();
    expect(screen.getByText('Confirm Password is required!')).toBeTruthy();
  });

  it('shows the mismatch message, sends nothing, and drops the message once the passwords match', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderForm();

    await fill(user, 'old-secret', 'new-secret', 'new-secreT');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(screen.getByRole('alert').textContent).toBe(mismatch);
    expect(fetch).not.toHaveBeenCalled();

    await user.type(field('Confirm New Password'), '{Backspace}t');
    expect(screen.queryByText(mismatch)).toBeNull();
  });

  it("shows the server's message and clears the fields on success", async () => {
    const fetch = vi.fn(async (_request: Request) =>
      jsonResponse(200, { message: 'Password updated successfully.' }),
    );
    vi.stubGlobal('fetch', fetch);
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderForm();

    await fill(user, 'old-secret', 'new-secret', 'new-secret');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('Password updated successfully.'));
    const request = fetch.mock.calls[0]![0];
    expect(new URL(request.url).pathname).toBe('/api/dashboard/change-password');
    expect(await request.json()).toEqual({ oldPassword: 'old-secret', newPassword: 'new-secret' });
    expect(field('Old Password').value).toBe('');
    expect(field('New Password').value).toBe('');
    expect(field('Confirm New Password').value).toBe('');
    expect(screen.queryByText('Old Password is required!')).toBeNull();
  });

  it("shows the server's error text as an error toast", async () => {
    vi.stubGlobal('fetch', async () =>
      jsonResponse(400, {
        statusCode: 400,
        code: 'WRONG_PASSWORD',
        message: 'Old password is incorrect.',
        error: 'Old password is incorrect.',
      }),
    );
    const error = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    renderForm();

    await fill(user, 'bad', 'new-secret', 'new-secret');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(error).toHaveBeenCalledWith('Old password is incorrect.'));
  });

  it("falls back to 'Failed to update password.' when the server says nothing readable", async () => {
    vi.stubGlobal('fetch', async () => new Response('<html>Bad Gateway</html>', { status: 502 }));
    const error = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    renderForm();

    await fill(user, 'old-secret', 'new-secret', 'new-secret');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to update password.'));
  });
});
