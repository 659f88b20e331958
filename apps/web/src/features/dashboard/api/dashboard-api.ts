import type { DashboardInfo, MailDetails, MailDetailsQuery } from '@notice-desk/contract/dashboard';
import type { Funnel } from '@notice-desk/contract/funnel';
import { api } from '../../../lib/api.ts';

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDashboard: build.query<DashboardInfo, void>({
      query: () => '/api/dashboard',
      providesTags: ['DashboardInfo'],
    }),
    getDashboardFunnel: build.query<Funnel, void>({
      query: () => '/api/dashboard/funnel',
      providesTags: ['DashboardInfo'],
    }),
    getMailDetails: build.query<MailDetails, Partial<MailDetailsQuery>>({
      query: (params) => ({ url: '/api/dashboard/mails', params }),
      providesTags: ['DashboardInfo'],
    }),
  }),
});

export const { useGetDashboardQuery, useGetDashboardFunnelQuery, useGetMailDetailsQuery } = dashboardApi;
