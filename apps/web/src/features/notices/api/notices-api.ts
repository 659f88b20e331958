import type { Notice, NoticeFields, NoticeList } from '@notice-desk/contract/notice';
import {
  deletePreviewPaths,
  type DeleteAllAnswer,
  type DeleteAnswer,
  type DeletePreview,
} from '@notice-desk/contract/archive';
import { api } from '../../../lib/api.ts';

/** A page of the list; `search` ('' or absent for all) filters the whole list on the server. */
type PageArgs = { page: number; limit: number; search?: string };

export const noticesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getNotices: build.query<NoticeList, PageArgs>({
      query: ({ page, limit, search }) => ({
        url: '/api/notices/by-user-id',
        params: { page, limit, search: search || undefined },
      }),
      providesTags: ['Notices'],
    }),
    getNotice: build.query<Notice, string>({
      query: (id) => `/api/notices/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'SingleNotice', id }],
    }),
    // A typed-in record joins the 'Manual entries' campaign and counts on the dashboard.
    createNotice: build.mutation<Notice, NoticeFields>({
      query: (body) => ({ url: '/api/notices', method: 'POST', body }),
      invalidatesTags: ['Notices', 'Campaigns', 'DashboardInfo'],
    }),
    updateNotice: build.mutation<Notice, { id: string; fields: NoticeFields }>({
      query: ({ id, fields }) => ({
        url: `/api/notices/${encodeURIComponent(id)}`,
        method: 'PUT',
        body: fields,
      }),
      invalidatesTags: (_result, _error, { id }) => ['Notices', 'Campaigns', { type: 'SingleNotice', id }],
    }),
    deleteNotice: build.mutation<DeleteAnswer, string>({
      query: (id) => ({ url: `/api/notices/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [
        'Notices',
        'Campaigns',
        'DashboardInfo',
        { type: 'SingleNotice', id },
      ],
    }),
    deleteAllNotices: build.mutation<DeleteAllAnswer, void>({
      query: () => ({ url: '/api/notices/delete-all-notices', method: 'POST' }),
      invalidatesTags: ['Notices', 'SingleNotice', 'Campaigns', 'DashboardInfo'],
    }),
    // Asked each time the Delete All question opens, so never cached.
    getNoticesDeletePreview: build.query<DeletePreview, void>({
      query: () => deletePreviewPaths.all('notice'),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useGetNoticesQuery,
  useGetNoticeQuery,
  useCreateNoticeMutation,
  useUpdateNoticeMutation,
  useDeleteNoticeMutation,
  useDeleteAllNoticesMutation,
  useGetNoticesDeletePreviewQuery,
} = noticesApi;
