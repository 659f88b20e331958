import { describe, expect, it } from 'vitest';
import { adminUser, plainUser, sessionOf } from '../testing/test-utils.tsx';
import { SESSION_STORAGE_KEY, signedIn, signedOut, userUpdated } from './session.ts';
import { createAppStore } from './store.ts';

const storedEntry = () => JSON.parse(window.localStorage.getItem(SESSION_STORAGE_KEY) ?? 'null');

describe('createAppStore session persistence', () => {
  it('restores the session kept under the auth entry at start', () => {
    window.localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ accessToken: 'jwt', user: adminUser }));
    expect(createAppStore().getState().session).toEqual({ accessToken: 'jwt', user: adminUser });
  });

  it('starts signed out, as an expired session, when the stored entry lacks the user or is not JSON', () => {
    window.localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ accessToken: 'jwt' }));
    expect(createAppStore().getState().session).toEqual({ accessToken: null, user: null, expired: true });
    window.localStorage.setItem(SESSION_STORAGE_KEY, '{"accessToken": "jwt", "us');
    expect(createAppStore().getState().session.expired).toBe(true);
    window.localStorage.removeItem(SESSION_STORAGE_KEY);
    expect(createAppStore().getState().session).toEqual({ accessToken: null, user: null });
  });

  it('stores the session on login, the new user on a profile update, and removes it on logout', () => {
    const store = createAppStore(null);

    store.dispatch(signedIn(sessionOf(plainUser)));
    expect(storedEntry()).toEqual({ accessToken: 'token-1', user: plainUser });

    const renamed = { ...plainUser, name: 'Ravi Kumar' };
    store.dispatch(userUpdated(renamed));
    expect(storedEntry()).toEqual({ accessToken: 'token-1', user: renamed });

    store.dispatch(signedOut());
    expect(window.localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });
});
