import {
  failedRowsPaths,
  type EditAndResendBody,
  type EditAndResendResult,
  type FailedRowsPage,
} from '@notice-desk/contract/failed-rows';
import { api } from '../../../lib/api.ts';

/** Edit and resend answers once its message went out or failed, within a minute; a little more here. */
const RESEND_TIMEOUT_MS = 90_000;

export type FailedRowsShow = 'all' | 'unchanged';

export const failedRowsApi = api.injectEndpoints({
  endpoints: (build) => ({
    // A send or resend changes what failed: the campaign's cache group refreshes it with the table.
    getFailedRows: build.query<
      FailedRowsPage,
      { campaignId: string; page: number; limit: number; show: FailedRowsShow }
    >({
      query: ({ campaignId, page, limit, show }) => ({
        url: failedRowsPaths.list(campaignId),
        params: { page, limit, show },
      }),
      providesTags: ['Campaigns'],
    }),
    // The record changes too: its lists and its own page refresh.
    editAndResend: build.mutation<
      EditAndResendResult,
      { campaignId: string; recordId: string; body: EditAndResendBody }
    >({
      query: ({ campaignId, recordId, body }) => ({
        url: failedRowsPaths.editAndResend(campaignId, recordId),
        method: 'POST',
        body,
        timeout: RESEND_TIMEOUT_MS,
      }),
      invalidatesTags: [
        'Campaigns',
        'Notices',
        'SingleNotice',
        'CreditCards',
        'SingleCreditCard',
        'DashboardInfo',
      ],
    }),
  }),
});

export const { useGetFailedRowsQuery, useEditAndResendMutation } = failedRowsApi;
