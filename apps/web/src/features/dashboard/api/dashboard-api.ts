import type { DashboardInfo, MailDetails, MailDetailsQuery } from '@notice-desk/contract/dashboard';
import { api } from '../../../lib/api.ts';

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDashboard: build.query<DashboardInfo, void>({
      query: () => '/api/dashboard',
      providesTags: ['DashboardInfo'],
    }),
    getMailDetails: build.query<MailDetails, Partial<MailDetailsQuery>>({
      query: (params) => ({ url: '/api/dashboard/mails', params }),
      providesTags: ['DashboardInfo'],
    }),
  }),
});

export const { useGetDashboardQuery, useGetMailDetailsQuery } = dashboardApi;
