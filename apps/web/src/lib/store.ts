import { configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import { api } from './api.ts';
import {
  readStoredSessionState,
  selectStoredSession,
  sessionExpired,
  sessionReducer,
  sessionRestored,
  signedIn,
  signedOut,
  toSessionState,
  userUpdated,
  writeStoredSession,
  type Session,
} from './session.ts';

/** Builds the store; the session is restored from localStorage unless a test passes its own. */
export function createAppStore(session?: Session | null) {
  const sessionSync = createListenerMiddleware();
  const store = configureStore({
    reducer: { session: sessionReducer, [api.reducerPath]: api.reducer },
    preloadedState: { session: session === undefined ? readStoredSessionState() : toSessionState(session) },
    middleware: (getDefault) => getDefault().prepend(sessionSync.middleware).concat(api.middleware),
  });

  sessionSync.startListening({
    matcher: isAnyOf(signedIn, signedOut, sessionExpired, userUpdated),
    effect: (_action, listenerApi) =>
      writeStoredSession(selectStoredSession(listenerApi.getState() as RootState)),
  });
  // Cached answers belong to the user who fetched them.
  sessionSync.startListening({
    matcher: isAnyOf(signedIn, signedOut, sessionExpired, sessionRestored),
    effect: (_action, listenerApi) => {
      listenerApi.dispatch(api.util.resetApiState());
    },
  });

  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
