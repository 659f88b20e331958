import {
  usersPaths,
  type CreateUserAnswer,
  type CreateUserBody,
  type ManagedUser,
  type ResetUserPasswordAnswer,
  type UpdateManagedUserBody,
  type UserList,
} from '@notice-desk/contract/users';
import type { EndSessionsAnswer } from '@notice-desk/contract/auth';
import { api, type PageArgs } from '../../../lib/api.ts';

/**
 * The Users screen's calls. The list is asked again after every change (the screen refetches), so the
 * app's cache groups, which are the spec's, stay as they are.
 */
export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getManagedUsers: build.query<UserList, PageArgs>({
      query: ({ page, limit }) => ({ url: usersPaths.list, params: { page, limit } }),
    }),
    createManagedUser: build.mutation<CreateUserAnswer, CreateUserBody>({
      query: (body) => ({ url: usersPaths.list, method: 'POST', body }),
    }),
    updateManagedUser: build.mutation<ManagedUser, { id: string } & UpdateManagedUserBody>({
      query: ({ id, ...body }) => ({ url: usersPaths.user(id), method: 'PATCH', body }),
    }),
    resetUserPassword: build.mutation<ResetUserPasswordAnswer, { id: string; sendByMail: boolean }>({
      query: ({ id, sendByMail }) => ({ url: usersPaths.password(id), method: 'POST', body: { sendByMail } }),
    }),
    endUserSessions: build.mutation<EndSessionsAnswer, { id: string }>({
      query: ({ id }) => ({ url: usersPaths.endSessions(id), method: 'POST' }),
    }),
  }),
});

export const {
  useGetManagedUsersQuery,
  useCreateManagedUserMutation,
  useUpdateManagedUserMutation,
  useResetUserPasswordMutation,
  useEndUserSessionsMutation,
} = usersApi;
