import {
  authPaths,
  type ChangePasswordBody,
  type EndSessionsAnswer,
  type LoginBody,
  type LoginResponse,
  type MessageResponse,
  type RegisterBody,
  type User,
} from '@notice-desk/contract/auth';
import { api } from '../../../lib/api.ts';

/** The spec gives a password change 10 seconds before it fails. */
const CHANGE_PASSWORD_TIMEOUT_MS = 10_000;

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginBody>({
      query: (body) => ({ url: '/api/auth/login', method: 'POST', body }),
      // A 401 here is a wrong username or password, not an ended session.
      extraOptions: { keepSessionOn401: true },
    }),
    register: build.mutation<User, RegisterBody>({
      query: (body) => ({ url: '/api/auth/register', method: 'POST', body }),
      extraOptions: { keepSessionOn401: true },
    }),
    changePassword: build.mutation<MessageResponse, ChangePasswordBody>({
      query: (body) => ({
        url: '/api/dashboard/change-password',
        method: 'POST',
        body,
        timeout: CHANGE_PASSWORD_TIMEOUT_MS,
      }),
    }),
    endOtherSessions: build.mutation<EndSessionsAnswer, void>({
      query: () => ({ url: authPaths.endOtherSessions, method: 'POST' }),
    }),
  }),
});

export const {
  useLoginMutation,
  useRegisterMutation,
  useChangePasswordMutation,
  useEndOtherSessionsMutation,
} = authApi;
