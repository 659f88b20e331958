import { api } from './api.ts';

/** An ADMIN's revoke of a record's notice page link (issue 29); the page then says the notice is gone. */
export const noticeLinksApi = api.injectEndpoints({
  endpoints: (build) => ({
    revokeNoticeLink: build.mutation<{ message: string; revokedAt: string }, { code: string }>({
      query: ({ code }) => ({
        url: `/api/notice-links/${encodeURIComponent(code)}/revoke`,
        method: 'POST',
      }),
    }),
  }),
});

export const { useRevokeNoticeLinkMutation } = noticeLinksApi;
