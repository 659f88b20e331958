import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { User } from '@notice-desk/contract/auth';

/** The localStorage entry that keeps the session between visits. */
export const SESSION_STORAGE_KEY = 'auth';

export type Session = { accessToken: string; user: User };
export type SessionState = {
  accessToken: string | null;
  user: User | null;
  /** The last session ended without a logout (the server refused its token, or it was unreadable). */
  expired?: boolean;
  /**
   * A request was refused (401) while the user was working: the sign-in opens as a dialog over the
   * screen, and the request waits for it (lib/reauth.ts).
   */
  reauth?: boolean;
};
/** The slice of the root state this module reads, so it needs no import of the store. */
export type SessionRootState = { session: SessionState };

const signedOutState: SessionState = { accessToken: null, user: null };
const expiredState: SessionState = { ...signedOutState, expired: true };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

// Checked by hand rather than with the contract's zod schema: this runs at start-up, and
// zod would otherwise weigh down the first download of every page.
function isStoredUser(value: unknown): value is User {
  return (
    isRecord(value) &&
    typeof value._id === 'string' &&
    typeof value.name === 'string' &&
    typeof value.username === 'string' &&
    typeof value.role === 'string'
  );
}

/** A stored session counts only when both the token and a well-formed user are there. */
export function parseStoredSession(raw: string | null): Session | null {
  if (!raw) return null;
  try {
    const stored: unknown = JSON.parse(raw);
    if (!isRecord(stored) || typeof stored.accessToken !== 'string' || stored.accessToken === '') return null;
    if (!isStoredUser(stored.user)) return null;
    const { _id, name, username, role } = stored.user;
    return { accessToken: stored.accessToken, user: { _id, name, username, role } };
  } catch {
    return null;
  }
}

export function readStoredSession(storage: Storage = window.localStorage): Session | null {
  return parseStoredSession(storage.getItem(SESSION_STORAGE_KEY));
}

export function writeStoredSession(session: Session | null, storage: Storage = window.localStorage): void {
  if (session) storage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
  else storage.removeItem(SESSION_STORAGE_KEY);
}

/**
 * The session kept from the last visit. An entry that is there but unreadable (edited by hand,
 * cut short) counts as an expired session, so the login page says why the user is there.
 */
export function readStoredSessionState(storage: Storage = window.localStorage): SessionState {
  const raw = storage.getItem(SESSION_STORAGE_KEY);
  const session = parseStoredSession(raw);
  if (session) return toSessionState(session);
  return raw ? expiredState : signedOutState;
}

export function toSessionState(session: Session | null): SessionState {
  return session ? { accessToken: session.accessToken, user: session.user } : signedOutState;
}

const sessionSlice = createSlice({
  name: 'session',
  initialState: signedOutState,
  reducers: {
    signedIn: (_state, action: PayloadAction<Session>) => toSessionState(action.payload),
    /** Logout. */
    signedOut: () => signedOutState,
    /** The server refused the token (401): it expired, was revoked, or the user was disabled. */
    sessionExpired: () => expiredState,
    /** A request was refused with 401 mid-work: ask to sign in again over the screen. */
    reauthRequired: (state) => {
      if (state.accessToken) state.reauth = true;
    },
    /** The same user signed in again, or stayed signed in: a new token, the screen and its data stay. */
    sessionRenewed: (_state, action: PayloadAction<Session>) => toSessionState(action.payload),
    /** A profile update: the user changes, the token stays. */
    userUpdated: (state, action: PayloadAction<User>) => {
      if (state.accessToken) state.user = action.payload;
    },
    /** Another tab changed the stored session. */
    sessionRestored: (_state, action: PayloadAction<Session | null>) => toSessionState(action.payload),
  },
});

export const {
  signedIn,
  signedOut,
  sessionExpired,
  userUpdated,
  sessionRestored,
  reauthRequired,
  sessionRenewed,
} = sessionSlice.actions;
export const sessionReducer = sessionSlice.reducer;

export const selectAccessToken = (state: SessionRootState) => state.session.accessToken;
export const selectIsSignedIn = (state: SessionRootState) =>
  Boolean(state.session.accessToken && state.session.user);
export const selectSignedInUser = (state: SessionRootState) =>
  state.session.accessToken ? state.session.user : null;
export const selectSessionExpired = (state: SessionRootState) => state.session.expired === true;
export const selectReauthRequired = (state: SessionRootState) => state.session.reauth === true;
export const selectIsAdmin = (state: SessionRootState) => selectSignedInUser(state)?.role === 'ADMIN';

/** When the token ends (epoch ms), read from its own claims; null when it says nothing readable. */
export function tokenExpiresAt(token: string): number | null {
  try {
    const payload = token.split('.')[1];
    if (!payload) return null;
    const claims: unknown = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    return isRecord(claims) && typeof claims.exp === 'number' ? claims.exp * 1000 : null;
  } catch {
    return null;
  }
}

/** The session to keep in storage, or null when it is not complete. */
export function selectStoredSession(state: SessionRootState): Session | null {
  const { accessToken, user } = state.session;
  return accessToken && user ? { accessToken, user } : null;
}
