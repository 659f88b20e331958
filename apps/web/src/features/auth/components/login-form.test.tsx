import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_STORAGE_KEY } from '../../../lib/session.ts';
import { jsonResponse, plainUser, renderWithApp } from '../../../testing/test-utils.tsx';
import { LoginForm } from './login-form.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const renderLogin = (onSuccess = () => {}) =>
  renderWithApp(<LoginForm onSuccess={onSuccess} />, { path: '/auth/login' });

describe('LoginForm', () => {
  it('shows the required messages for empty fields and drops each once its field is filled', async () => {
    const user = userEvent.setup();
    renderLogin();

    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getByText('Username is required!!')).toBeTruthy();
    expect(screen.getByText('Password is required!!')).toBeTruthy();
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');

    await user.type(screen.getByLabelText('Username'), 'ravi');
    expect(screen.queryByText('Username is required!!')).toBeNull();
    expect(screen.getByText('Password is required!!')).toBeTruthy();

    await user.type(screen.getByLabelText('Password'), 'secret');
    expect(screen.queryByText('Password is required!!')).toBeNull();
  });

  it('does not call the server while a field is empty', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderLogin();

    await user.type(screen.getByLabelText('Username'), 'ravi');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(screen.getByText('Password is required!!')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends the credentials with remember, stores the session and reports success', async () => {
    const fetch = vi.fn(async (_request: Request) => jsonResponse(200, { token: 'jwt-1', user: plainUser }));
    vi.stubGlobal('fetch', fetch);
    const success = vi.spyOn(toast, 'success');
    const onSuccess = vi.fn();
    const user = userEvent.setup();
    const { store } = renderLogin(onSuccess);

    await user.type(screen.getByLabelText('Username'), 'ravi');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByLabelText('Remeber this Device'));
    await user.click(screen.getByRole('button', { name: 'Login' }));

    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    const request = fetch.mock.calls[0]![0];
    expect(new URL(request.url).pathname).toBe('/api/auth/login');
    expect(request.method).toBe('POST');
    expect(await request.json()).toEqual({ username: 'ravi', password: 'secret', remember: true });
    expect(store.getState().session).toEqual({ accessToken: 'jwt-1', user: plainUser });
    expect(JSON.parse(window.localStorage.getItem(SESSION_STORAGE_KEY) ?? 'null')).toEqual({
      accessToken: 'jwt-1',
      user: plainUser,
    });
    expect(success).toHaveBeenCalledWith('User Login Successfully');
  });

  it("shows the server's field messages under their fields and keeps them until the field changes", async () => {
    vi.stubGlobal('fetch', async () =>
      jsonResponse(401, {
        statusCode: 401,
        code: 'INVALID_CREDENTIALS',
        message: 'Invalid username or password.',
        error: { password: 'Invalid username or password.' },
      }),
    );
    const user = userEvent.setup();
    renderLogin();

    await user.type(screen.getByLabelText('Username'), 'ravi');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByText('Invalid username or password.')).toBeTruthy();
    await user.type(screen.getByLabelText('Password'), 'x');
    expect(screen.queryByText('Invalid username or password.')).toBeNull();
  });

  it('shows a string error (too many attempts) as an error toast', async () => {
    vi.stubGlobal('fetch', async () =>
      jsonResponse(429, {
        statusCode: 429,
        code: 'TOO_MANY_ATTEMPTS',
        message: 'Too many login attempts. Try again in a minute.',
        error: 'Too many login attempts. Try again in a minute.',
      }),
    );
    const error = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    renderLogin();

    await user.type(screen.getByLabelText('Username'), 'ravi');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Too many login attempts. Try again in a minute.'),
    );
  });
});
