import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { isWaitingForSignIn, waitForSignIn } from './reauth.ts';
import { selectAccessToken, sessionExpired, signedOut, type SessionRootState } from './session.ts';

/** The spec's cache groups; endpoints provide and invalidate these. */
export const cacheTags = [
  'CreditCards',
  'CreditCardProgressCount',
  'SingleCreditCard',
  'Campaigns',
  'Notices',
  'SingleNotice',
  'DashboardInfo',
  // Not a spec group: the notice pages' disputes and requests (issue 29).
  'Responses',
] as const;

/** Default time a request may take before it fails with TIMEOUT_ERROR; an endpoint may pass its own `timeout`. */
/** A page of a list, as the lists ask for it (1-based page). */
export type PageArgs = { page: number; limit: number };

export const REQUEST_TIMEOUT_MS = 60_000;

export type ApiExtraOptions = {
  /** A 401 from this endpoint means wrong credentials, not an ended session (login). */
  keepSessionOn401?: boolean;
};

const fetchSameOrigin = fetchBaseQuery({
  // The server serves this app, so every call is same-origin.
  baseUrl: '',
  timeout: REQUEST_TIMEOUT_MS,
  prepareHeaders: (headers, { getState }) => {
    const token = selectAccessToken(getState() as SessionRootState);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

export type ApiBaseQuery = BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, ApiExtraOptions>;

const methodOf = (args: string | FetchArgs) =>
  (typeof args === 'string' ? 'GET' : (args.method ?? 'GET')).toUpperCase();

const fetchWithSession: ApiBaseQuery = async (args, baseQueryApi, extraOptions) => {
  const result = await fetchSameOrigin(args, baseQueryApi, {});
  if (result.error?.status !== 401 || extraOptions?.keepSessionOn401) return result;
  const hadSession = selectAccessToken(baseQueryApi.getState() as SessionRootState) !== null;
  // A submit refused mid-work keeps the screen and what was typed: the sign-in opens over it, and the
  // submit is sent again once the same user has signed in. So does any request while that is open.
  if (hadSession && (methodOf(args) !== 'GET' || isWaitingForSignIn())) {
    if (await waitForSignIn(baseQueryApi.dispatch)) return fetchWithSession(args, baseQueryApi, extraOptions);
    return result;
  }
  // The guards send the now anonymous user to /auth/login, which says the session expired when there
  // was one (a token sent and refused), not when the user had just logged out.
  baseQueryApi.dispatch(hadSession ? sessionExpired() : signedOut());
  return result;
};

/**
 * The app's one RTK Query API. Features add endpoints with
 * `api.injectEndpoints({ endpoints: (build) => ({ ... }) })` in `features/<x>/api/*.ts`.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: fetchWithSession,
  tagTypes: cacheTags,
  keepUnusedDataFor: 60,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
  endpoints: () => ({}),
});
