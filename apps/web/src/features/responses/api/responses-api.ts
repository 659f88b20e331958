import type { NoticeResponseList } from '@notice-desk/contract/notice-page';
import { api, type PageArgs } from '../../../lib/api.ts';

/** The list as the server answers it; `timeZone` (the server's TIME_ZONE) when it says so. */
export type ResponsesPage = NoticeResponseList & { timeZone?: string };

export const responsesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getResponses: build.query<ResponsesPage, PageArgs>({
      query: ({ page, limit }) => ({ url: '/api/responses', params: { page, limit } }),
      providesTags: ['Responses'],
    }),
    markResponseHandled: build.mutation<unknown, { id: string }>({
      query: ({ id }) => ({ url: `/api/responses/${encodeURIComponent(id)}/handled`, method: 'POST' }),
      invalidatesTags: ['Responses'],
    }),
  }),
});

export const { useGetResponsesQuery, useMarkResponseHandledMutation } = responsesApi;
