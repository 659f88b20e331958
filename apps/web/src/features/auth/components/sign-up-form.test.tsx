import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, plainUser, renderWithApp } from '../../../testing/test-utils.tsx';
import { SignUpForm } from './sign-up-form.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('SignUpForm', () => {
  it('shows the required messages for every empty field', async () => {
    const user = userEvent.setup();
    renderWithApp(<SignUpForm onSuccess={() => {}} />);

    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    expect(screen.getByText('Name is required!!')).toBeTruthy();
    expect(screen.getByText('Username is required!!')).toBeTruthy();
    expect(screen.getByText('Password is required!!')).toBeTruthy();
  });

  it('says a new password is too short, too long or the username, under the password field, and sends nothing', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithApp(<SignUpForm onSuccess={() => {}} />);
    const password = screen.getByLabelText('Password');

    await user.type(screen.getByLabelText('Name'), 'Ravi');
    await user.type(screen.getByLabelText('Username'), 'ravi.kumar');
    await user.type(password, 'short');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Password must be at least 8 characters.')).toBeTruthy();

    await user.clear(password);
    await user.type(password, 'RAVI.KUMAR');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Password must not be the username.')).toBeTruthy();

    await user.clear(password);
    await user.click(password);
    await user.paste('p'.repeat(201));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Password is too long: use at most 200 characters.')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows a taken username under the username field', async () => {
    vi.stubGlobal('fetch', async () =>
      jsonResponse(409, {
        statusCode: 409,
        code: 'USERNAME_TAKEN',
        message: 'Username is already taken.',
        error: { username: 'Username is already taken.' },
      }),
    );
    const user = userEvent.setup();
    renderWithApp(<SignUpForm onSuccess={() => {}} />);

    await user.type(screen.getByLabelText('Name'), 'Ravi');
    await user.type(screen.getByLabelText('Username'), 'ravi');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    const message = await screen.findByText('Username is already taken.');
    expect(screen.getByLabelText('Username').getAttribute('aria-describedby')).toBe(message.id);
  });

  it('reports success and moves on', async () => {
    const fetch = vi.fn(async (_request: Request) => jsonResponse(201, plainUser));
    vi.stubGlobal('fetch', fetch);
    const success = vi.spyOn(toast, 'success');
    const onSuccess = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<SignUpForm onSuccess={onSuccess} />);

    await user.type(screen.getByLabelText('Name'), 'Ravi');
    await user.type(screen.getByLabelText('Username'), 'ravi');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(await fetch.mock.calls[0]![0].json()).toEqual({
      name: 'Ravi',
      username: 'ravi',
      password: 'secret-pass',
    });
    expect(success).toHaveBeenCalledWith('User Created Successfully!');
  });
});
