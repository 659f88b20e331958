import { authPaths, type LoginResponse, type MessageResponse } from '@notice-desk/contract/auth';
import { api } from './api.ts';

/** The session's own calls, which the app frame (header, expiry notice) makes on every screen. */
export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    logout: build.mutation<MessageResponse, void>({
      query: () => ({ url: authPaths.logout, method: 'POST' }),
      // A session already ended needs no sign-in to be left.
      extraOptions: { keepSessionOn401: true },
    }),
    refreshSession: build.mutation<LoginResponse, void>({
      query: () => ({ url: authPaths.refresh, method: 'POST' }),
    }),
  }),
});

export const { useLogoutMutation, useRefreshSessionMutation } = sessionApi;
