import { describe, expect, it } from 'vitest';
import { plainUser, sessionOf } from '../testing/test-utils.tsx';
import {
  parseStoredSession,
  selectIsSignedIn,
  selectSignedInUser,
  sessionReducer,
  signedIn,
  signedOut,
  userUpdated,
} from './session.ts';

const stored = (value: unknown) => JSON.stringify(value);

describe('parseStoredSession', () => {
  it('restores a session that has both the token and the user', () => {
    expect(parseStoredSession(stored({ accessToken: 'jwt', user: plainUser }))).toEqual({
      accessToken: 'jwt',
      user: plainUser,
    });
  });

  it.each([
    ['nothing stored', null],
    ['a token without a user', stored({ accessToken: 'jwt' })],
    ['a token with a null user', stored({ accessToken: 'jwt', user: null })],
    ['a user without a token', stored({ user: plainUser })],
    ['an empty token', stored({ accessToken: '', user: plainUser })],
    ['a user missing fields', stored({ accessToken: 'jwt', user: { _id: 'u2' } })],
    ['text that is not JSON', '{not json'],
  ])('counts %s as no session', (_case, raw) => {
    expect(parseStoredSession(raw)).toBeNull();
  });
});

describe('session reducer', () => {
  const signedInState = sessionReducer(undefined, signedIn(sessionOf(plainUser)));

  it('is signed in only with both token and user', () => {
    expect(selectIsSignedIn({ session: signedInState })).toBe(true);
    expect(selectIsSignedIn({ session: { accessToken: 'jwt', user: null } })).toBe(false);
    expect(selectIsSignedIn({ session: { accessToken: null, user: plainUser } })).toBe(false);
    expect(selectSignedInUser({ session: { accessToken: null, user: plainUser } })).toBeNull();
  });

  it('replaces the user on a profile update and keeps the token', () => {
    const renamed = { ...plainUser, name: 'Ravi Kumar' };
    const next = sessionReducer(signedInState, userUpdated(renamed));
    expect(next).toEqual({ accessToken: 'token-1', user: renamed });
  });

  it('ignores a profile update when nobody is signed in', () => {
    const next = sessionReducer(undefined, userUpdated(plainUser));
    expect(next).toEqual({ accessToken: null, user: null });
  });

  it('forgets token and user on logout', () => {
    expect(sessionReducer(signedInState, signedOut())).toEqual({ accessToken: null, user: null });
  });
});
