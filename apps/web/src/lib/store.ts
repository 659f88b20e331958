import { combineSlices, configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import { api } from './api.ts';
import { settleSignIn } from './reauth.ts';
import {
  readStoredSessionState,
  selectStoredSession,
  sessionExpired,
  sessionReducer,
  sessionRenewed,
  sessionRestored,
  signedIn,
  signedOut,
  toSessionState,
  userUpdated,
  writeStoredSession,
  type Session,
} from './session.ts';

/**
 * The root reducer. A feature with state of its own adds its slice when its code loads
 * (`slice.injectInto(rootReducer)`), so shared code never imports a feature.
 */
export const rootReducer = combineSlices(api, {
  session: sessionReducer,
}).withLazyLoadedSlices<LazyLoadedSlices>();

/** The injected slices, each declared by its feature through declaration merging. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LazyLoadedSlices {}

/**
 * Features' timers and reactions to actions (RTK's listener middleware): a feature registers its
 * listeners with `startAppListening` when its code loads; they act in whichever store dispatched.
 */
export const appListeners = createListenerMiddleware();

/** Builds the store; the session is restored from localStorage unless a test passes its own. */
export function createAppStore(session?: Session | null) {
  const sessionSync = createListenerMiddleware();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: { session: session === undefined ? readStoredSessionState() : toSessionState(session) },
    middleware: (getDefault) =>
      getDefault().prepend(sessionSync.middleware, appListeners.middleware).concat(api.middleware),
  });

  sessionSync.startListening({
    matcher: isAnyOf(signedIn, signedOut, sessionExpired, userUpdated, sessionRenewed),
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

  // Requests waiting on the sign-in dialog go on with the same user's new token, or give up.
  sessionSync.startListening({
    matcher: isAnyOf(sessionRenewed, signedIn, signedOut, sessionExpired, sessionRestored),
    effect: (action) => settleSignIn(sessionRenewed.match(action)),
  });

  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];

export const startAppListening = appListeners.startListening.withTypes<RootState, AppDispatch>();

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
